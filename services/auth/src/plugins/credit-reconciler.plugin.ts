import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /** Releases abandoned credit reservations now; answers how many. Also runs on a timer. */
    reconcileCredits(): Promise<number>;
  }
}

export interface CreditReconcilerOptions {
  /** A reservation older than this was abandoned (the gateway's render deadline is far shorter). */
  staleAfterSeconds: number;
  intervalMs: number;
}

/**
 * A gateway that dies between reserving a credit and settling it leaves the row 'reserved', which counts
 * as used. Every replica sweeps such rows now and then; the sweep is one idempotent UPDATE.
 */
async function creditReconcilerPlugin(app: FastifyInstance, opts: CreditReconcilerOptions) {
  const { credits: ledger } = app.repositories;
  let running: Promise<number> | undefined;

  const reconcile = () => {
    running ??= ledger
      .releaseStale(new Date(Date.now() - opts.staleAfterSeconds * 1000))
      .then((released) => {
        if (released > 0) app.log.warn({ released }, 'released abandoned credit reservations');
        return released;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };

  app.decorate('reconcileCredits', reconcile);
  const timer = setInterval(() => {
    reconcile().catch((err: Error) => app.log.warn({ err: err.message }, 'credit reconciliation failed'));
  }, opts.intervalMs);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running?.catch(() => undefined);
  });
}

export default fp(creditReconcilerPlugin, { name: 'credit-reconciler', fastify: '5.x', dependencies: ['repositories'] });
