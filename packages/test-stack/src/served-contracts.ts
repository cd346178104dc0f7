import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { type InProcessService, type Listening, listen } from './in-process.ts';

// The shapes of contracts' `PublicRoute` and fastify-kit's `recordServedRoutes` (this package depends on neither).
interface Contract {
  method: string;
  url: string;
  access: string;
}
interface Served<C, G> {
  keys(): string[];
  guarding(contract: C, guardsOf: G): { hooks: unknown[]; guard: unknown };
}

/**
 * The two tests that hold a service to its contracts (`serveRoute`): it serves every public route of
 * `contracts` and no other, and guards each with the guard its access rule names. `served` is read when they run.
 */
export function itServesExactly<C extends Contract, G>(served: () => Served<C, G>, contracts: readonly C[], guardsOf: G): void {
  it('serves every public route of its contracts, and no public route that is not one', () => {
    // fastify-kit's `routeKey`: `METHOD url`.
    expect(served().keys()).toEqual(contracts.map((route) => `${route.method} ${route.url}`).sort());
  });

  it("guards each route with its contract's access rule", () => {
    for (const route of contracts) {
      const { hooks, guard } = served().guarding(route, guardsOf);
      expect(guard, `${route.method} ${route.url}`).not.toBeUndefined();
      if (guard) expect(hooks, `${route.method} ${route.url} (${route.access})`).toContain(guard);
      else expect(hooks, `${route.method} ${route.url} (${route.access})`).toEqual([]);
    }
  });
}

/** `service` listening with `config`, its routes recorded by `record` (fastify-kit's `recordServedRoutes`) as it registers. */
export async function listenRecorded<C, S>(
  service: InProcessService<C>,
  config: C,
  record: (server: FastifyInstance) => S,
): Promise<Listening & { served: S }> {
  let served: S | undefined;
  const listening = await listen(service, config, {
    beforeApp: (server) => {
      served = record(server);
    },
  });
  return { ...listening, served: served as S };
}
