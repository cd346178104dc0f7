import { testRedisUrl } from '@render/test-stack/redis';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import app, { serverOptions } from '../src/app.ts';
import { loadGatewayConfig } from '../src/config.ts';
import { uniquePrefix } from './helpers/stack.ts';

// Every route the gateway answers must be in its OpenAPI document (the web app and the SDK are generated
// from it), except these catch-alls: they pass anything else under their prefix on to the account service,
// whose public calls are documented one by one (the contracts' `AccountRoutes`); and the operational endpoints
// (fastify-kit's health and metrics plugins), which are for orchestrators and Prometheus, not API users.
const UNDOCUMENTED = [
  'ALL /api/admin',
  'ALL /api/admin/*',
  'ALL /api/auth',
  'ALL /api/auth/*',
  'GET /health/live',
  'GET /health/ready',
  'GET /metrics',
];

type Document = { paths: Record<string, Record<string, unknown>> };

const ALL_METHODS = 9; // what app.all() registers
const openapiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

let server: FastifyInstance;
let document: Document;
const answered: string[] = [];
const hidden: string[] = [];

beforeAll(async () => {
  const config = loadGatewayConfig({ REDIS_URL: await testRedisUrl(), QUEUE_PREFIX: uniquePrefix('coverage'), LOG_LEVEL: 'silent' });
  server = Fastify(serverOptions(config));
  // Added before the app, so it sees every route any of the app's plugins registers.
  server.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    const hide = (route.schema as { hide?: boolean } | undefined)?.hide === true;
    // HEAD of a hidden GET is hidden with it.
    if (hide) {
      if (methods.join() !== 'HEAD') hidden.push(`${methods.length >= ALL_METHODS ? 'ALL' : methods.join(',')} ${route.url}`);
    }
    // HEAD comes with every GET (Fastify's exposeHeadRoutes) and is documented by it.
    else for (const method of methods) if (method !== 'HEAD') answered.push(`${method} ${route.url}`);
  });
  await server.register(app, { config });
  await server.ready();
  document = (await server.inject({ url: '/api/openapi.json' })).json() as Document;
});

afterAll(async () => {
  await server?.close();
});

describe('the OpenAPI document', () => {
  it('documents every route the gateway answers', () => {
    const missing = answered.filter((route) => {
      const [method = '', url = ''] = route.split(' ');
      return !document.paths[openapiPath(url)]?.[method.toLowerCase()];
    });
    expect(answered.length).toBeGreaterThan(30);
    expect(missing).toEqual([]);
  });

  it('hides only the forwarding catch-alls and the operational endpoints', () => {
    expect(hidden.sort()).toEqual(UNDOCUMENTED);
  });

  it('documents back-pressure on every image operation: 429 with Retry-After, 503 for an unreachable queue', () => {
    type Operation = { responses: Record<string, { content?: Record<string, unknown>; headers?: Record<string, { schema: unknown }> }> };
    const imageOperations = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations as Record<string, Operation>)
        .filter(([, op]) => Object.keys(op.responses['200']?.content ?? {}).some((type) => type.startsWith('image/')))
        .map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })),
    );
    expect(imageOperations.map((o) => o.name)).toContain('POST /api/html-to-img/convert');
    for (const { name, op } of imageOperations) {
      expect(op.responses['429']?.headers?.['Retry-After']?.schema, name).toMatchObject({ type: 'integer', minimum: 1 });
      expect(op.responses['429']?.content?.['application/problem+json'], name).toBeDefined();
      expect(op.responses['503'], name).toBeDefined();
    }
  });

  it('documents no operation the gateway does not answer', () => {
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const served = new Set(answered.map((route) => route.replace(/ (.*)$/, (_, url: string) => ` ${openapiPath(url)}`)));
    expect(documented.filter((operation) => !served.has(operation))).toEqual([]);
  });
});
