import { type PublicRoute, TemplateRoutes } from '@render/contracts';
import { INTERNAL_TOKEN_HEADER, recordServedRoutes, routeKey, type ServedRoutes } from '@render/fastify-kit';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import app, { serverOptions } from '../src/app.ts';
import { loadTemplatesConfig } from '../src/config.ts';
import { templateGuards } from '../src/routes/templates.routes.ts';

const databaseUrl = process.env.TEST_DATABASE_URL;
if (!databaseUrl) throw new Error('TEST_DATABASE_URL is required (run the tests through ./scripts/test)');

let server: FastifyInstance;
let served: ServedRoutes;

beforeAll(async () => {
  const config = loadTemplatesConfig({ DATABASE_URL: databaseUrl, INTERNAL_TOKEN: 'templates-contract-test-token', LOG_LEVEL: 'silent' });
  server = Fastify(serverOptions(config));
  served = recordServedRoutes(server);
  await server.register(app, { config });
  await server.ready();
});
afterAll(async () => server?.close());

describe('the templates service serves exactly its contracts', () => {
  const contracts = Object.values(TemplateRoutes) as PublicRoute[];

  it('serves every route of TemplateRoutes, and no public route that is not one', () => {
    expect(served.keys()).toEqual(contracts.map((route) => routeKey(route.method, route.url)).sort());
  });

  it("guards each route with its contract's access rule", () => {
    for (const route of contracts) {
      const { hooks, guard } = served.guarding(route, templateGuards);
      expect(guard, `${route.method} ${route.url}`).not.toBeUndefined();
      if (guard) expect(hooks, `${route.method} ${route.url} (${route.access})`).toContain(guard);
      else expect(hooks, `${route.method} ${route.url} (${route.access})`).toEqual([]);
    }
  });

  it('answers a body that breaks the contract with a 400 before anything is stored', async () => {
    const res = await server.inject({
      method: 'POST',
      url: TemplateRoutes.create.url,
      headers: {
        [INTERNAL_TOKEN_HEADER]: 'templates-contract-test-token',
        'x-user-id': '00000000-0000-4000-8000-000000000001',
        'content-type': 'application/json',
      },
      payload: { name: 'No SVG', width: 100, height: 100 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
  });
});
