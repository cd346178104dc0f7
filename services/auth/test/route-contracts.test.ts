import { randomBytes } from 'node:crypto';
import { AccountRoutes, type PublicRoute } from '@render/contracts';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import app, { serverOptions } from '../src/app.ts';
import { loadAuthConfig } from '../src/config.ts';
import { accountGuards } from '../src/lib/serve-account.ts';

const databaseUrl = process.env.TEST_DATABASE_URL;
if (!databaseUrl) throw new Error('TEST_DATABASE_URL is required (run the tests through ./scripts/test)');

// Served for the gateway and the orchestrator only: never public, so in no public contract.
const isPublic = (url: string) => !url.startsWith('/internal/') && !url.startsWith('/health/') && url !== '/metrics';
const key = (method: string, url: string) => `${method} ${url}`;

let server: FastifyInstance;
const served = new Map<string, RouteOptions>();
/** The instance each route was registered in: its decorators are the guards the service decided on. */
const scopes = new Map<string, FastifyInstance>();

beforeAll(async () => {
  const config = loadAuthConfig({
    DATABASE_URL: databaseUrl,
    JWT_SECRET: randomBytes(32).toString('hex'),
    API_KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    INTERNAL_TOKEN: randomBytes(24).toString('hex'),
    APP_URL: 'http://app.test',
    LOG_LEVEL: 'silent',
  });
  server = Fastify(serverOptions(config));
  server.addHook('onRoute', function (route) {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD' || !isPublic(route.url)) continue;
      served.set(key(method, route.url), route);
      scopes.set(key(method, route.url), this);
    }
  });
  await server.register(app, { config });
  await server.ready();
});
afterAll(async () => server?.close());

describe('the account service serves exactly its contracts', () => {
  const contracts = Object.values(AccountRoutes) as PublicRoute[];

  it('serves every public route of AccountRoutes, and no public route that is not one', () => {
    expect([...served.keys()].sort()).toEqual(contracts.map((route) => key(route.method, route.url)).sort());
  });

  it("guards each route with its contract's access rule", () => {
    for (const route of contracts) {
      const scope = scopes.get(key(route.method, route.url));
      if (!scope) throw new Error(`${route.method} ${route.url} is not served`);
      const { hook, rules } = accountGuards(scope);
      const hooks = [served.get(key(route.method, route.url))?.[hook] ?? []].flat();
      const guard = rules[route.access];
      expect(guard, `${route.method} ${route.url}`).not.toBeUndefined();
      if (guard) expect(hooks, `${route.method} ${route.url} (${route.access})`).toContain(guard);
      else expect(hooks, `${route.method} ${route.url} (${route.access})`).toEqual([]);
    }
  });
});
