import { type PublicRoute, TemplateRoutes } from '@render/contracts';
import { INTERNAL_TOKEN_HEADER } from '@render/fastify-kit';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import app, { serverOptions } from '../src/app.ts';
import { loadTemplatesConfig } from '../src/config.ts';
import { templateGuards } from '../src/routes/templates.routes.ts';

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
  const config = loadTemplatesConfig({ DATABASE_URL: databaseUrl, INTERNAL_TOKEN: 'templates-contract-test-token', LOG_LEVEL: 'silent' });
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

describe('the templates service serves exactly its contracts', () => {
  const contracts = Object.values(TemplateRoutes) as PublicRoute[];

  it('serves every route of TemplateRoutes, and no public route that is not one', () => {
    expect([...served.keys()].sort()).toEqual(contracts.map((route) => key(route.method, route.url)).sort());
  });

  it("guards each route with its contract's access rule", () => {
    for (const route of contracts) {
      const scope = scopes.get(key(route.method, route.url));
      if (!scope) throw new Error(`${route.method} ${route.url} is not served`);
      const { hook, rules } = templateGuards(scope);
      const hooks = [served.get(key(route.method, route.url))?.[hook] ?? []].flat();
      const guard = rules[route.access];
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
