import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { testRedisUrl } from '@render/test-stack/redis';
import { repoRoot } from '@render/test-stack/repo-root';
import Fastify from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import app, { serverOptions } from '../src/app.ts';
import { loadGatewayConfig } from '../src/config.ts';
import { README_TABLE_END, README_TABLE_START, readmeApiTable, withReadmeApiTable } from '../src/docs/readme-api-table.ts';
import { uniquePrefix } from './helpers/stack.ts';

// The README's table of calls comes from the document: a route added to the gateway (and so to the document,
// openapi-coverage.test.ts) without `pnpm --filter @render/gateway readme-api-table` fails here.

let document: Parameters<typeof readmeApiTable>[0];
const readme = readFileSync(resolve(repoRoot, 'README.md'), 'utf8');

beforeAll(async () => {
  const config = loadGatewayConfig({ REDIS_URL: await testRedisUrl(), QUEUE_PREFIX: uniquePrefix('readme-table'), LOG_LEVEL: 'silent' });
  const server = Fastify(serverOptions(config));
  await server.register(app, { config });
  await server.ready();
  document = (await server.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  await server.close();
});

describe("the README's table of calls", () => {
  it('is the one the OpenAPI document gives (run the readme-api-table script when it is not)', () => {
    expect(withReadmeApiTable(readme, readmeApiTable(document))).toBe(readme);
  });

  it('lists every operation of the document, the MCP endpoint and the PDF-capable calls included', () => {
    const table = readme.slice(readme.indexOf(README_TABLE_START), readme.indexOf(README_TABLE_END));
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const method of Object.keys(methods)) expect(table, `${method} ${path}`).toContain(`\`${method.toUpperCase()} ${path}\``);
    }
    expect(table).toContain('`POST /api/mcp`');
  });

  it('fails loudly when the markers are gone', () => {
    expect(() => withReadmeApiTable('# no table', '| x |')).toThrow(/markers/);
  });
});
