import { randomUUID } from 'node:crypto';
import {
  AppError,
  type BatchAccepted,
  type BatchBody,
  BatchLimits,
  BatchMessages,
  type BatchView,
  ProblemMessages,
} from '@render/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { creditIdsOf, type ItemCredit, reserveBatchCredits } from '../billing/batch-credits.ts';
import { type PreparedItem, prepareBatchItems } from '../convert/batch-items.ts';
import type { AccountCaller } from '../identity/caller.ts';
import { SERVICE_RETRY_AFTER_SECONDS } from '../lib/service-fetch.ts';
import { cancelBatch } from '../renders/batch-cancel.ts';
import { BatchState, batchWebhookJobId, hasEnded } from '../renders/batch-state.ts';

export interface Batches {
  /**
   * Checks every item, reserves every credit, records the batch and starts it in the background; resolves with
   * the 202 answer's data. Nothing is queued or charged when an item is refused or credits are short.
   */
  submit(request: FastifyRequest, caller: AccountCaller, body: BatchBody): Promise<BatchAccepted['data']>;
  /** The batch's status for its owner; null for an unknown, expired or someone else's batch. */
  status(id: string, userId: string): Promise<BatchView | null>;
  /** The finished batch's images (file name, bytes, format); null as `status`. */
  images(id: string, userId: string): Promise<{ view: BatchView; files: { name: string; bytes: Buffer; format: string }[] } | null>;
  /**
   * Cancels the owner's batch (from any replica): its items not yet started are dropped (off their queues
   * when a worker has not taken them) and their credits released before it resolves; running ones finish.
   * Answers the batch's status; null as `status`; 409 once it has ended.
   */
  cancel(id: string, userId: string): Promise<BatchView | null>;
}

declare module 'fastify' {
  interface FastifyInstance {
    batches: Batches;
  }
}

export interface BatchesOptions {
  prefix: string;
  ttlSeconds: number;
  /** An open batch not heard of for this long (no item started or ended) has lost its gateway. */
  orphanAfterMs: number;
  sweepEveryMs: number;
}

/** Redis errors are an outage of this feature, not of the request: a 503 the caller may retry. */
async function guarded<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('SERVICE_UNAVAILABLE', BatchMessages.unavailable, undefined, { retryAfterSeconds: SERVICE_RETRY_AFTER_SECONDS });
  }
}

/** What an item that failed says: what its single call would have answered (a 422, a 429 queue full…). */
const failureOf = (err: unknown) =>
  err instanceof AppError ? { code: err.code, message: err.message } : { code: 'RENDER_FAILED', message: ProblemMessages.renderFailed };

interface RunningBatch {
  id: string;
  request: FastifyRequest;
  caller: AccountCaller;
  items: PreparedItem[];
  credits: ItemCredit[];
  expiresAtSeconds: number;
  webhook: string | null;
}

/**
 * Batches (`POST /api/batch`): every item is checked and its credits reserved before anything is queued; the
 * gateway that accepted the batch renders its items `BatchLimits.parallel` at a time through the same
 * queues and billing as single renders (`credits.renderReserved`: charged for each image, released for each
 * failure), under one of the account's in-flight slots. State lives in Redis (`BatchState`), so any replica
 * answers the status and the archive; a batch whose gateway stopped is ended by any replica's sweep.
 */
async function batchesPlugin(app: FastifyInstance, opts: BatchesOptions) {
  const { redis, credits, authClient, asyncRenders, accountLimits, renderQueue, templatesClient } = app;
  const state = new BatchState(redis, opts.prefix);
  const running = new Set<Promise<void>>();

  async function runItem(batch: RunningBatch, item: PreparedItem): Promise<void> {
    const stored = { kind: item.kind, format: item.format };
    const credit = batch.credits[item.index] as ItemCredit;
    await state.heartbeat(batch.id, Date.now() + opts.orphanAfterMs);
    // Cancelled before it started (its credits were released by the cancel): nothing to do.
    if (!(await state.itemRunning(batch.id, item.index, { ...stored, status: 'running' }))) return;
    try {
      const { request, caller } = batch;
      const { image, meta } = await credits.renderReserved(request, caller, item.queue, item.payload, credit, item.ledgerKind);
      const made = { bytes: image, mimeType: meta.mimeType, width: meta.width, height: meta.height };
      await state.itemDone(batch.id, item.index, { ...stored, format: meta.format, status: 'done' }, made, batch.expiresAtSeconds);
    } catch (err) {
      await state.itemFailed(batch.id, item.index, { ...stored, status: 'failed' }, failureOf(err));
    }
  }

  async function run(batch: RunningBatch): Promise<void> {
    let next = 0;
    const lane = async () => {
      for (let item = batch.items[next++]; item; item = batch.items[next++]) await runItem(batch, item);
    };
    await Promise.all(Array.from({ length: Math.min(BatchLimits.parallel, batch.items.length) }, lane));
    const delivery = await state.finish(batch.id, batch.caller.userId, batch.webhook);
    if (delivery) await asyncRenders.deliver(delivery, batchWebhookJobId(batch.id));
  }

  async function submit(request: FastifyRequest, caller: AccountCaller, body: BatchBody) {
    const items = await prepareBatchItems(request, caller, body, templatesClient);
    const webhook = body.webhook === undefined ? null : (await asyncRenders.acceptWebhook(body.webhook)).href;
    // The batch holds one of the account's in-flight slots while it runs: at the limit, its 429 comes now.
    const releaseSlot = accountLimits.acquire({ id: caller.userId, plan: caller.plan, role: caller.role });
    let itemCredits: ItemCredit[];
    try {
      itemCredits = await reserveBatchCredits(
        authClient,
        caller.userId,
        items.map((item) => ({ kind: item.ledgerKind, format: item.format, credits: item.credits })),
        request.id,
      );
    } catch (err) {
      releaseSlot();
      throw err;
    }
    const id = randomUUID();
    const createdAt = new Date();
    const expiresAtSeconds = Math.floor(createdAt.getTime() / 1000) + opts.ttlSeconds;
    try {
      await state.open({
        id,
        owner: caller.userId,
        createdAt,
        expiresAtSeconds,
        orphanAt: Date.now() + opts.orphanAfterMs,
        webhook,
        items,
        jobs: items.map((item, index) => ({ queue: item.queue, ...(itemCredits[index] as ItemCredit) })),
      });
    } catch {
      releaseSlot();
      await authClient.releaseCredits(creditIdsOf(itemCredits)).catch(() => undefined);
      throw new AppError('SERVICE_UNAVAILABLE', BatchMessages.unavailable, undefined, { retryAfterSeconds: SERVICE_RETRY_AFTER_SECONDS });
    }
    const batch: RunningBatch = { id, request, caller, items, credits: itemCredits, expiresAtSeconds, webhook };
    const background = run(batch)
      .catch((err: Error) => app.log.error({ batchId: id, err: err.message }, 'batch could not record its outcome or queue its webhook'))
      .finally(releaseSlot);
    running.add(background);
    background.finally(() => running.delete(background));
    const reserved = items.reduce((sum, item) => sum + item.credits, 0);
    return {
      id,
      status: 'queued' as const,
      items: items.length,
      credits: reserved,
      statusUrl: `/api/batches/${id}`,
      archiveUrl: `/api/batches/${id}/archive`,
    };
  }

  let sweeping: Promise<void> | undefined;
  const sweep = async () => {
    for (const { jobId, job } of await state.sweepOrphans(app.log)) await asyncRenders.deliver(job, jobId);
  };
  const sweeper = setInterval(() => {
    sweeping ??= sweep()
      .catch((err: Error) => app.log.debug({ err: err.message }, 'batch sweep failed; next time'))
      .finally(() => {
        sweeping = undefined;
      });
  }, opts.sweepEveryMs).unref();

  app.decorate('batches', {
    submit,
    status: (id, userId) => guarded(() => state.view(id, userId)),
    images: (id, userId) =>
      guarded(async () => {
        const view = await state.view(id, userId);
        if (!view) return null;
        return { view, files: hasEnded(view.status) ? await state.images(id, view.items) : [] };
      }),
    cancel: (id, userId) => guarded(() => cancelBatch({ state, renderQueue, authClient, log: app.log }, id, userId)),
  } satisfies Batches);
  app.addHook('onClose', async () => {
    clearInterval(sweeper);
    await sweeping;
    await Promise.allSettled(running);
  });
}

export default fp(batchesPlugin, {
  name: 'batches',
  dependencies: ['redis', 'credits', 'auth-client', 'async-renders', 'account-limits', 'render-queue', 'templates-client'],
  fastify: '5.x',
});
