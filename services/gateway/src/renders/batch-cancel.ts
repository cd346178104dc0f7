import { AppError, BatchMessages, type BatchView } from '@render/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { creditIdsOf } from '../billing/batch-credits.ts';
import type { AuthClient } from '../plugins/auth-client.plugin.ts';
import type { RenderQueueClient } from '../plugins/render-queue.plugin.ts';
import type { BatchState } from './batch-state.ts';

/** What the wait for a withdrawn item's job ends with (the item itself is recorded cancelled first). */
const WITHDRAWN = { code: 'RENDER_FAILED', message: 'Failed to generate image: the batch was cancelled before this item started' } as const;

export interface BatchCancelDeps {
  state: BatchState;
  renderQueue: Pick<RenderQueueClient, 'withdraw'>;
  authClient: Pick<AuthClient, 'releaseCredits'>;
  log: FastifyBaseLogger;
}

/**
 * Cancels the owner's batch, from any replica (`DELETE /api/batches/{id}`): its queued items are cancelled
 * at once by `BatchState.cancel`; an item a lane has started whose job no worker has taken yet is withdrawn
 * from its queue, recorded cancelled before its gateway's wait is ended (so that gateway does not record it
 * failed). Every cancelled item's credits are released in one call before the answer; running items finish
 * on their gateway and are charged. Null for an unknown or someone else's batch; 409 once it has ended.
 */
export async function cancelBatch(deps: BatchCancelDeps, id: string, userId: string): Promise<BatchView | null> {
  const { state, renderQueue, authClient, log } = deps;
  const outcome = await state.cancel(id, userId);
  if (outcome.kind === 'missing') return null;
  if (outcome.kind === 'ended') throw new AppError('CONFLICT', BatchMessages.ended);
  const [jobs, view] = await Promise.all([state.jobs(id), state.view(id, userId)]);
  const idsAt = (index: number) => {
    const job = jobs.get(index);
    return job ? creditIdsOf([job]) : [];
  };
  const released = outcome.cancelled.flatMap(idsAt);
  await Promise.all(
    outcome.running.map(async (index) => {
      const job = jobs.get(index);
      const stored = view?.items[index];
      if (!job || !stored) return;
      const item = { kind: stored.kind, format: stored.format, status: 'running' as const };
      let cancelled = false;
      try {
        await renderQueue.withdraw(job.queue, job.jobId, WITHDRAWN, async () => {
          cancelled = await state.itemCancelled(id, index, item);
        });
      } catch (err) {
        // Left running: its gateway's wait ends as usual, and it is charged or released then.
        log.warn({ batchId: id, index, err: (err as Error).message }, 'batch item not withdrawn');
      }
      if (cancelled) released.push(...idsAt(index));
    }),
  );
  // Awaited: usage read once the answer is in already has these credits back. Should the service not take
  // them now, they stay reserved until its sweep of unsettled reservations gives them back.
  if (released.length > 0)
    await authClient
      .releaseCredits(released)
      .catch((err: Error) => log.warn({ batchId: id, err: err.message }, 'cancelled items’ credits not released yet'));
  return state.view(id, userId);
}
