import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError, AsyncRenderRoutes, BatchMessages } from '@render/contracts';
import { guardFor } from '@render/fastify-kit';
import archiver from 'archiver';
import type { FastifyReply } from 'fastify';
import { hasEnded } from '../renders/batch-state.ts';

const notFound = () => new AppError('NOT_FOUND', BatchMessages.notFound);

/** Formats whose bytes are compressed already: stored as they are in the zip rather than deflated again. */
const COMPRESSED = new Set(['png', 'jpeg', 'webp', 'avif', 'gif', 'mp4', 'webm', 'pdf']);

/**
 * Batches (`POST /api/batch`, its status, its archive and its cancel), registered from their contracts
 * (`AsyncRenderRoutes`): the work is in `plugins/batches.plugin.ts`. Owner only: another account's batch is
 * "Batch not found", as an unknown or expired one.
 */
const batchesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { identity, batches } = app;
  const { createBatch, batch, batchArchive, cancelBatch } = AsyncRenderRoutes;
  const guards = { hook: 'onRequest' as const, rules: { signedIn: identity.requireAccount } };
  const onRequest = (route: Parameters<typeof guardFor>[1]) => guardFor(guards, route) ?? undefined;

  app.post(
    createBatch.url,
    { onRequest: onRequest(createBatch), config: { idempotent: true }, schema: createBatch.schema },
    async (request, reply) => {
      const accepted = await batches.submit(request, identity.account(request), request.body);
      return reply
        .status(202)
        .header('Location', accepted.statusUrl)
        .send({ success: true as const, data: accepted });
    },
  );

  app.get(batch.url, { onRequest: onRequest(batch), schema: batch.schema }, async (request) => {
    const view = await batches.status(request.params.id, identity.account(request).userId);
    if (!view) throw notFound();
    return { success: true as const, data: view };
  });

  // Owner only, as the status; 409 once the batch has ended.
  app.delete(cancelBatch.url, { onRequest: onRequest(cancelBatch), schema: cancelBatch.schema }, async (request) => {
    const view = await batches.cancel(request.params.id, identity.account(request).userId);
    if (!view) throw notFound();
    return { success: true as const, data: view };
  });

  app.get(batchArchive.url, { onRequest: onRequest(batchArchive), schema: batchArchive.schema }, async (request, reply) => {
    const found = await batches.images(request.params.id, identity.account(request).userId);
    if (!found) throw notFound();
    if (!hasEnded(found.view.status)) throw new AppError('CONFLICT', BatchMessages.notFinished);
    if (found.files.length === 0) throw new AppError('CONFLICT', BatchMessages.noImages);
    // Built in memory (at most 50 images, each already bounded): a complete zip or an error, never half of one.
    const zip = archiver('zip', { zlib: { level: 6 } });
    const chunks: Buffer[] = [];
    zip.on('data', (chunk: Buffer) => chunks.push(chunk));
    const ended = new Promise<void>((resolve, reject) => {
      zip.on('end', resolve);
      zip.on('error', reject);
    });
    for (const file of found.files) zip.append(file.bytes, { name: file.name, store: COMPRESSED.has(file.format) });
    await zip.finalize();
    await ended;
    // The reply's type is inferred from the JSON answers only; the zip is declared beside them (`batchArchive`).
    return (reply as unknown as FastifyReply)
      .type('application/zip')
      .header('Content-Disposition', `attachment; filename="batch-${found.view.id}.zip"`)
      .send(Buffer.concat(chunks));
  });
};

export default batchesRoutes;
