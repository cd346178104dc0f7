import type { RecentRenderKind } from '@render/contracts';
import { Counter } from '@render/fastify-kit';
import type { RenderKind, RenderPayload } from '@render/queue';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { type BilledRenderOptions, BilledRenders } from '../billing/billed-renders.ts';
import { KeyReservations } from '../billing/key-reservations.ts';
import type { AccountCaller } from '../identity/caller.ts';
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
  /**
   * Verifies an API key on a billable call by reserving the call's credit for its owner (one call for both):
   * the key's caller, 401 when it is unknown. The reservation waits in the request's billing state.
   */
  reserveForKey(request: FastifyRequest, apiKey: string): Promise<AccountCaller>;
  /** Renders on credits reserved up front (a batch item's): charged for the image, released on failure. */
  renderReserved<K extends RenderKind>(
    request: FastifyRequest,
    caller: AccountCaller,
    kind: K,
    payload: RenderPayload<K>,
    credit: { jobId: string; extras: readonly string[] },
    ledgerKind?: RecentRenderKind,
  ): Promise<RenderOutcome>;
}

export interface CreditsPluginOptions {
  /** How long credits leased ahead for an API key are kept unused before they are given back. */
  leaseTtlMs?: number;
  /** Renders a second from which a key calling one at a time leases ahead (0: never). */
  leaseSteadyPerSecond?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    credits: Credits;
  }
  interface FastifyContextConfig {
    /**
     * What a billable route's renders are in the ledger (the account's usage lists): read when the credit
     * is reserved, in onRequest for an API key. The render's queue kind when not set.
     */
    ledgerKind?: RecentRenderKind;
  }
}

/**
 * Billing's wiring (the work is in `src/billing`): the API keys' reservations, leases and hints
 * (`KeyReservations`), and reserve → render → settle (`BilledRenders`), over the account service's ledger.
 * Registered before `identity`, which verifies a billable call's API key through `reserveForKey`.
 */
async function creditsPlugin(app: FastifyInstance, opts: CreditsPluginOptions) {
  const { authClient, renderQueue, accountChanges, anonymousLimits } = app;
  const charged = new Counter({
    name: 'credits_charged_total',
    help: 'Credits charged for delivered renders',
    labelNames: ['format'] as const,
    registers: [app.metrics],
  });
  const keys = new KeyReservations({
    authClient,
    live: () => accountChanges.live(),
    leaseTtlMs: opts.leaseTtlMs,
    leaseSteadyPerSecond: opts.leaseSteadyPerSecond,
  });
  const renders = new BilledRenders({
    authClient,
    renderQueue,
    anonymousLimits,
    charged: (format) => charged.inc({ format }),
    warn: (fields, message) => app.log.warn(fields, message),
  });
  // A changed account anywhere (a regenerated key, a new plan) ends every lease here at once; so does a
  // dropped subscription, after which nothing is leased until it is back (`accountChanges.live`).
  accountChanges.onChange(() => keys.forget());
  const sweep = setInterval(() => keys.sweep(), 1_000).unref();

  app.decorateRequest('billing', null);
  app.decorate('credits', {
    renderBilled: (request, kind, payload, options) => renders.render(request, kind, payload, options),
    reserveForKey: (request, apiKey) => keys.reserve(request, apiKey),
    renderReserved: (request, caller, kind, payload, credit, ledgerKind) =>
      renders.renderReserved(request, caller, kind, payload, credit, ledgerKind),
  } satisfies Credits);
  // A call answered before its handler took charge of its reservation (a body the schema refused, a 413)
  // gets its credit back before the answer goes out, so usage read right after it is already right.
  app.addHook('onSend', (request, _reply, _payload, done) => {
    const releasing = renders.releaseUnclaimed(request);
    if (releasing) releasing.then(() => done(), done);
    else done();
  });
  app.addHook('onResponse', async (request) => keys.end(request));
  // One that hangs up before its body was read (once read, the render is under way and ends itself).
  app.addHook('onRequestAbort', (request, done) => {
    renders.releaseUnclaimed(request);
    keys.end(request);
    done();
  });
  app.addHook('onClose', async () => {
    clearInterval(sweep);
    keys.forget();
    await renders.drain();
  });
}

export default fp(creditsPlugin, {
  name: 'credits',
  dependencies: ['auth-client', 'account-changes', 'render-queue', 'anonymous-limits', 'limit-headers', 'metrics'],
  fastify: '5.x',
});
