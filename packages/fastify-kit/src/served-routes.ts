import type { PublicRoute } from '@render/contracts';
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { AccessGuard, AccessGuards } from './serve-route.ts';

/** Served for the gateway and the orchestrator only: never public, so in no public contract. */
const isPublic = (url: string) => !url.startsWith('/internal/') && !url.startsWith('/health/') && url !== '/metrics';

export const routeKey = (method: string, url: string): string => `${method} ${url}`;

export interface ServedRoutes {
  /** `METHOD url` of every public route registered, sorted. */
  keys(): string[];
  /** What a contract's route was registered with: its hooks at the guard's stage, and the guard its rule names. */
  guarding(
    contract: PublicRoute,
    guardsOf: (scope: FastifyInstance) => AccessGuards,
  ): { hooks: unknown[]; guard: AccessGuard | null | undefined };
}

/**
 * Records the public routes an app registers on `server` (call before registering it), with the instance each
 * was registered in: its decorators are the guards the service decided on. For the tests that hold a
 * service's routes to its contracts (`serveRoute`).
 */
export function recordServedRoutes(server: FastifyInstance): ServedRoutes {
  const served = new Map<string, { route: RouteOptions; scope: FastifyInstance }>();
  server.addHook('onRoute', function (route) {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD' || !isPublic(route.url)) continue;
      served.set(routeKey(method, route.url), { route, scope: this });
    }
  });
  return {
    keys: () => [...served.keys()].sort(),
    guarding(contract, guardsOf) {
      const entry = served.get(routeKey(contract.method, contract.url));
      if (!entry) throw new Error(`${contract.method} ${contract.url} is not served`);
      const { hook, rules } = guardsOf(entry.scope);
      return { hooks: [entry.route[hook] ?? []].flat(), guard: rules[contract.access] };
    },
  };
}
