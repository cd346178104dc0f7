/**
 * Rewrites the README's table of calls from the gateway's OpenAPI document (`pnpm --filter @render/gateway
 * readme-api-table`). Builds the app as export-api-docs does: nothing listens, nothing is called.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Fastify from 'fastify';
import app, { serverOptions } from '../src/app.ts';
import { loadGatewayConfig } from '../src/config.ts';
import { readmeApiTable, withReadmeApiTable } from '../src/docs/readme-api-table.ts';

const config = loadGatewayConfig({ REDIS_URL: 'redis://127.0.0.1:9', REDIS_BOOT_WAIT_MS: '0', LOG_LEVEL: 'silent' });
const server = Fastify(serverOptions(config));
await server.register(app, { config });
await server.ready();
const document = (await server.inject({ method: 'GET', url: '/api/openapi.json' })).json();
await server.close();

const readmePath = resolve(import.meta.dirname, '../../../README.md');
writeFileSync(readmePath, withReadmeApiTable(readFileSync(readmePath, 'utf8'), readmeApiTable(document)));
console.log(`API table written to ${readmePath}`);
process.exit(0);
