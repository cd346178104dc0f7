import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError, CompatRoutes } from '@render/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toQuickChartRequest } from '../convert/quickchart-request.ts';
import { imageRoute } from '../images/image-route.ts';

/** QuickChart takes its key as `key=` in the query: it becomes the X-API-Key header before identity reads it. */
async function keyFromQuery(request: FastifyRequest): Promise<void> {
  const key = (request.query as { key?: unknown } | undefined)?.key;
  if (typeof key === 'string' && key.trim() && request.headers['x-api-key'] === undefined && !request.headers.authorization)
    request.headers['x-api-key'] = key.trim();
}

/**
 * `GET /chart` and `POST /chart`: QuickChart's API over the chart pipeline (same queue, billing and limits
 * as `/api/chart-to-img/convert`, on the worker's QuickChart page).
 */
const quickChartRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const spec = (method: 'GET' | 'POST') =>
    imageRoute(app, method === 'GET' ? CompatRoutes.quickChartGet : CompatRoutes.quickChartPost, 'chart');

  const answer = async (request: FastifyRequest, reply: FastifyReply, params: Record<string, unknown>) => {
    try {
      const { payload, dataUrl } = toQuickChartRequest(params);
      const { image, meta } = await app.credits.renderBilled(request, 'chart', payload);
      reply.header('X-Render-Time', String(meta.renderMs)).header('X-Queue-Time', String(meta.queueMs));
      if (dataUrl) return reply.type('text/plain; charset=utf-8').send(`data:${meta.mimeType};base64,${image.toString('base64')}`);
      if (meta.format === 'svg')
        reply.header('Content-Security-Policy', "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox");
      return reply.type(meta.mimeType).send(image);
    } catch (err) {
      // QuickChart puts the reason in a header too, for clients that only look at the image answer.
      if (err instanceof AppError) reply.header('X-quickchart-error', err.message.replace(/[^\x20-\x7e]/g, '?').slice(0, 300));
      throw err;
    }
  };

  for (const method of ['GET', 'POST'] as const) {
    const options = spec(method);
    const onRequest = [keyFromQuery, ...(options.onRequest ? [options.onRequest] : [])];
    app.route({
      method,
      url: CompatRoutes.quickChartGet.url,
      ...options,
      onRequest,
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const query = (request.query ?? {}) as Record<string, unknown>;
        const params = method === 'GET' ? query : { ...query, ...((request.body ?? {}) as Record<string, unknown>) };
        return answer(request, reply, params);
      },
    } as never);
  }
};

export default quickChartRoutes;
