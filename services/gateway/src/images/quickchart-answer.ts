import { AppError, MimeTypes } from '@render/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toQuickChartRequest } from '../convert/quickchart-request.ts';
import { timingHeaders } from './image-reply.ts';

/** QuickChart takes its key as `key=` in the query: it becomes the X-API-Key header before identity reads it. */
export async function keyFromQuery(request: FastifyRequest): Promise<void> {
  const key = (request.query as { key?: unknown } | undefined)?.key;
  if (typeof key === 'string' && key.trim() && request.headers['x-api-key'] === undefined && !request.headers.authorization)
    request.headers['x-api-key'] = key.trim();
}

/** QuickChart puts an error's reason in a header too, for clients that only look at the image answer. */
export function withQuickChartError<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T> {
  return work().catch((err: unknown) => {
    if (err instanceof AppError) reply.header('X-quickchart-error', err.message.replace(/[^\x20-\x7e]/g, '?').slice(0, 300));
    throw err;
  });
}

/**
 * A QuickChart image answer: the parameters (`params`, or the promise of them: a short URL being read) → a
 * billed chart render → the image with its content type, or a data URL in text for `format=base64`.
 */
export function answerQuickChart(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  params: Record<string, unknown> | Promise<Record<string, unknown>>,
) {
  return withQuickChartError(reply, async () => {
    const { payload, dataUrl } = toQuickChartRequest(await params);
    // HEAD (Fastify serves it with this GET handler): the parameters are checked, nothing is rendered, and the
    // credit reserved in onRequest is given back unclaimed (credits' onSend hook).
    if (request.method === 'HEAD') return reply.type(dataUrl ? 'text/plain; charset=utf-8' : MimeTypes[payload.format]).send();
    const { image, meta } = await app.credits.renderBilled(request, 'chart', payload);
    timingHeaders(reply, meta);
    if (dataUrl) return reply.type('text/plain; charset=utf-8').send(`data:${meta.mimeType};base64,${image.toString('base64')}`);
    if (meta.format === 'svg')
      reply.header('Content-Security-Policy', "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox");
    return reply.type(meta.mimeType).send(image);
  });
}
