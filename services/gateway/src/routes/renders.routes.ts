import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError, AsyncRenderResponse, ErrorResponse, RenderIdParams, SignedIn, WebhookDeliveriesResponse } from '@render/contracts';
import { Type } from 'typebox';
import { secureSvgReply } from '../images/image-reply.ts';

const notFound = () => new AppError('NOT_FOUND', 'Render not found');

/**
 * Async renders (a convert call with `webhook`): the status, the kept image, and the account's webhook
 * deliveries. Owner only: another account's render is "Render not found", as an unknown or expired one.
 */
const rendersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { identity, asyncRenders } = app;
  // 400: an id the URL parser refuses (malformed percent-encoding, too long).
  const errors = { 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse, 503: ErrorResponse };

  app.get(
    '/api/renders/:id',
    {
      onRequest: identity.requireAccount,
      schema: {
        tags: ['renders'],
        summary: 'The status of an async render (a convert call with `webhook`)',
        description:
          'queued → rendering → done (imageUrl serves the image until expiresAt) or failed (error says why; nothing is charged). Kept for ASYNC_RESULT_TTL_SECONDS (24 h by default) after submission.',
        security: SignedIn,
        params: RenderIdParams,
        response: { 200: AsyncRenderResponse, ...errors },
      },
    },
    async (request) => {
      const view = await asyncRenders.status(request.params.id, identity.account(request).userId);
      if (!view) throw notFound();
      return { success: true as const, data: view };
    },
  );

  app.get(
    '/api/renders/:id/image',
    {
      onRequest: identity.requireAccount,
      schema: {
        tags: ['renders'],
        summary: 'The image of a finished async render, while it is kept',
        description: '409 while the render is queued or rendering, or when it failed (the status says why); 404 once it has expired.',
        security: SignedIn,
        params: RenderIdParams,
        response: {
          200: {
            description: 'The image bytes, with their media type',
            content: { 'application/octet-stream': { schema: Type.String({ format: 'binary' }) } },
          },
          ...errors,
          409: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const found = await asyncRenders.image(request.params.id, identity.account(request).userId);
      if (!found) throw notFound();
      const { view, image } = found;
      if (view.status === 'failed') throw new AppError('CONFLICT', `The render failed: ${view.error?.message ?? 'no image was made'}`);
      if (view.status !== 'done') throw new AppError('CONFLICT', `The render is not finished yet (status: ${view.status})`);
      if (!image) throw notFound();
      return secureSvgReply(reply, image.format)
        .type(image.mimeType)
        .header('Content-Disposition', `inline; filename="${view.id}.${image.format === 'jpeg' ? 'jpg' : image.format}"`)
        .send(image.bytes);
    },
  );

  app.get(
    '/api/webhooks/deliveries',
    {
      onRequest: identity.requireAccount,
      schema: {
        tags: ['renders'],
        summary: 'The latest webhook delivery attempts of the account, newest first',
        description: 'Each attempt with its HTTP status or error; the last 100 are kept for 7 days.',
        security: SignedIn,
        response: { 200: WebhookDeliveriesResponse, 401: ErrorResponse, 503: ErrorResponse },
      },
    },
    async (request) => ({ success: true as const, deliveries: await asyncRenders.deliveries(identity.account(request).userId) }),
  );
};

export default rendersRoutes;
