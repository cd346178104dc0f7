import { randomBytes } from 'node:crypto';
import { AccountRoutes, type PublicRoute } from '@render/contracts';
import { recordServedRoutes, routeKey, type ServedRoutes } from '@render/fastify-kit';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import app, { serverOptions } from '../src/app.ts';
import { loadAuthConfig } from '../src/config.ts';
import { accountGuards } from '../src/lib/serve-account.ts';

const databaseUrl = process.env.TEST_DATABASE_URL;
if (!databaseUrl) throw new Error('TEST_DATABASE_URL is required (run the tests through ./scripts/test)');

let server: FastifyInstance;
let served: ServedRoutes;

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
  served = recordServedRoutes(server);
  await server.register(app, { config });
  await server.ready();
});
afterAll(async () => server?.close());

describe('the account service serves exactly its contracts', () => {
  const contracts = Object.values(AccountRoutes) as PublicRoute[];

  it('serves every public route of AccountRoutes, and no public route that is not one', () => {
    expect(served.keys()).toEqual(contracts.map((route) => routeKey(route.method, route.url)).sort());
  });

  it("guards each route with its contract's access rule", () => {
    for (const route of contracts) {
      const { hooks, guard } = served.guarding(route, accountGuards);
      expect(guard, `${route.method} ${route.url}`).not.toBeUndefined();
      if (guard) expect(hooks, `${route.method} ${route.url} (${route.access})`).toContain(guard);
      else expect(hooks, `${route.method} ${route.url} (${route.access})`).toEqual([]);
    }
  });
});
