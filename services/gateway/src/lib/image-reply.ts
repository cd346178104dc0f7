import type { FastifyReply } from 'fastify';
import type { RenderOutcome } from '../plugins/render-queue.plugin.ts';

/**
 * Sends a render result as the caller asked: base64 inside JSON, or the bytes themselves. Timing headers go
 * on both so clients can tell queueing from rendering.
 */
export function sendImage(reply: FastifyReply, outcome: RenderOutcome, output: 'json' | 'binary') {
  const { image, meta } = outcome;
  reply.header('X-Render-Time', String(meta.renderMs));
  reply.header('X-Queue-Time', String(meta.queueMs));
  if (output === 'json') {
    return reply.type('application/json; charset=utf-8').send({
      success: true as const,
      data: {
        image: image.toString('base64'),
        format: meta.format,
        mimeType: meta.mimeType,
        width: meta.width,
        height: meta.height,
        size: meta.size,
      },
    });
  }
  return reply
    .type(meta.mimeType)
    .header('Content-Disposition', `inline; filename="image.${meta.format === 'jpeg' ? 'jpg' : meta.format}"`)
    .send(image);
}
