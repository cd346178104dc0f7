import type { FastifyInstance } from 'fastify';

/**
 * Listens, and on SIGINT/SIGTERM closes the server (onClose hooks release Redis, Postgres, queues) before
 * exiting; a close that hangs is cut after `forceAfterMs` so an orchestrator's stop never waits forever.
 */
export async function listenUntilSignalled(
  server: FastifyInstance,
  address: { port: number; host: string },
  forceAfterMs = 15_000,
): Promise<void> {
  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, async () => {
      if (closing) return;
      closing = true;
      server.log.info({ signal }, 'shutting down');
      const force = setTimeout(() => process.exit(1), forceAfterMs).unref();
      await server.close();
      clearTimeout(force);
      process.exit(0);
    });
  }
  await server.listen(address);
}
