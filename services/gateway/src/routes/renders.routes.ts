import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError, AsyncRenderRoutes } from '@render/contracts';
import { guardFor } from '@render/fastify-kit';
import { secureSvgReply } from '../images/image-reply.ts';

const notFound = () => new AppError('NOT_FOUND', 'Render not found');

/**
 * Async renders (a convert call with `webhook`): the status, the kept image, and the account's webhook
 * deliveries, registered from their contracts (`AsyncRenderRoutes`). Owner only: another account's render is
 * "Render not found", as an unknown or expired one.
 */
const rendersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { identity, asyncRenders } = app;
  const { status, image, webhookDeliveries } = AsyncRenderRoutes;
  const guards = { hook: 'onRequest' as const, rules: { signedIn: identity.requireAccount } };
  const onRequest = (route: Parameters<typeof guardFor>[1]) => guardFor(guards, route) ?? undefined;

  app.get(status.url, { onRequest: onRequest(status), schema: status.schema }, async (request) => {
    const view = await asyncRenders.status(request.params.id, identity.account(request).userId);
    if (!view) throw notFound();
    return { success: true as const, data: view };
  });

  app.get(image.url, { onRequest: onRequest(image), schema: image.schema }, async (request, reply) => {
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
  });

  app.get(webhookDeliveries.url, { onRequest: onRequest(webhookDeliveries), schema: webhookDeliveries.schema }, async (request) => ({
    success: true as const,
    deliveries: await asyncRenders.deliveries(identity.account(request).userId),
  }));
};

export default rendersRoutes;
