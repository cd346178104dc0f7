import { randomUUID } from 'node:crypto';
import { AppError, type CreditOutcome } from '@render/contracts';
import type { RenderKind, RenderPayload } from '@render/queue';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { watchClient } from '../lib/client-gone.ts';
import type { AccountCaller } from './identity.plugin.ts';
import type { RenderOutcome } from './render-queue.plugin.ts';

export interface Credits {
  /**
   * Renders for `request.caller` (set by an identity hook): an account reserves one credit first and is
   * charged only for an image it received. `payload` may be the promise of one still being built (a
   * template being filled): the credit is then reserved meanwhile, and released if building fails.
   */
  renderBilled<K extends RenderKind>(
    request: FastifyRequest,
    kind: K,
    payload: RenderPayload<K> | Promise<RenderPayload<K>>,
    options?: BilledRenderOptions,
  ): Promise<RenderOutcome>;
}

export interface BilledRenderOptions {
  /**
   * Whether the caller hanging up ends the render (true by default): a job not yet started leaves the queue
   * and nothing is charged. False for a render other requests wait on too (the signed image URL's).
   */
  endsWithClient?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    credits: Credits;
  }
}

type Payload<K extends RenderKind> = RenderPayload<K> | Promise<RenderPayload<K>>;

/**
 * Reserve → render → settle. The ledger lives in the account service (`authClient`); the job id is the
 * ledger's request id, so a job retried by BullMQ is still one credit, and a failed render costs nothing.
 */
async function creditsPlugin(app: FastifyInstance) {
  const { authClient, renderQueue } = app;
  // Charges settled after their answer was sent; a closing gateway waits for them.
  const settling = new Set<Promise<void>>();

  async function settle(requestId: string, outcome: CreditOutcome): Promise<void> {
    try {
      await authClient.settleCredit(requestId, outcome);
    } catch (err) {
      // The answer to the client does not depend on this. The row stays 'reserved', which counts like a
      // charge; settle is idempotent, and the account service's sweep releases it later.
      app.log.warn({ requestId, outcome, err: (err as Error).message }, 'credit settle failed; reservation left as reserved');
    }
  }

  /**
   * A reserved credit already counts as used, so usage read right after the answer is the same either way:
   * the charge is settled after the answer instead of before it (one round trip less per billed render).
   */
  function chargeAfterAnswer(requestId: string): void {
    const pending = settle(requestId, 'charged').finally(() => settling.delete(pending));
    settling.add(pending);
  }

  async function renderForAccount<K extends RenderKind>(
    caller: AccountCaller,
    kind: K,
    payload: Payload<K>,
    signal: AbortSignal | undefined,
  ): Promise<RenderOutcome> {
    const jobId = randomUUID();
    const reservation = authClient.reserveCredit(caller.userId, jobId);
    // A limited account renders only once its credit is reserved. An unlimited one (Pro, admin) has no
    // limit to enforce first: its reservation only records the use, so it runs alongside the render, and
    // should it still be refused (a plan changed within the identity cache's TTL) the image is withheld.
    const limited = caller.plan !== 'pro' && caller.role !== 'admin';
    const rendering = (async () => {
      const built = await payload;
      if (limited) await reservation;
      return renderQueue.render(kind, built, { jobId, signal });
    })();
    const [rendered, reserved] = await Promise.allSettled([rendering, reservation]);
    const delivered = rendered.status === 'fulfilled' && !signal?.aborted;
    if (delivered && reserved.status === 'fulfilled') {
      chargeAfterAnswer(jobId);
      return rendered.value;
    }
    // Awaited, so that usage read right after a failure already shows the credit back. An image the caller
    // hung up before receiving was not delivered, so it is released too.
    if (reserved.status === 'fulfilled') await settle(jobId, 'released');
    if (rendered.status === 'fulfilled' && signal?.aborted) throw signal.reason;
    // What is wrong with the request itself (an unknown template, a bad variable) or its render comes
    // first; a limited account's refused reservation is also how its render failed.
    throw rendered.status === 'rejected' ? rendered.reason : (reserved as PromiseRejectedResult).reason;
  }

  async function renderBilled<K extends RenderKind>(
    request: FastifyRequest,
    kind: K,
    payload: Payload<K>,
    options: BilledRenderOptions = {},
  ): Promise<RenderOutcome> {
    const caller = request.caller;
    // A billable route without an identity hook would render for free and unlimited: fail loudly instead.
    if (!caller) throw new AppError('INTERNAL_ERROR', 'Caller was not identified');
    const client = options.endsWithClient === false ? null : watchClient(request);
    try {
      if (caller.kind === 'anonymous') return await renderQueue.render(kind, await payload, { signal: client?.signal });
      return await renderForAccount(caller, kind, payload, client?.signal);
    } finally {
      client?.dispose();
    }
  }

  app.decorate('credits', { renderBilled } satisfies Credits);
  app.addHook('onClose', async () => {
    await Promise.all(settling);
  });
}

export default fp(creditsPlugin, { name: 'credits', dependencies: ['auth-client', 'render-queue', 'identity'], fastify: '5.x' });
