/**
 * Writes the OpenAPI document and the three Postman collections for the web app's docs page:
 * `tsx scripts/export-api-docs.ts --out <dir>`. It builds the real gateway app (so the document is the
 * one `/api/openapi.json` serves) without needing Redis or the services: nothing listens, nothing is called.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Fastify from 'fastify';
import app, { serverOptions } from '../src/app.ts';
import { loadGatewayConfig } from '../src/config.ts';
import { API_EXAMPLES } from '../src/docs/api-examples.ts';
import { COLLECTIONS, type OpenApiDoc, postmanCollection } from '../src/docs/postman-collection.ts';

const outIndex = process.argv.indexOf('--out');
const outDir = resolve(outIndex > 0 && process.argv[outIndex + 1] ? process.argv[outIndex + 1]! : 'openapi-export');

// Port 9 (discard) refuses at once: the Redis plugin gives up after 0 ms and the app builds regardless.
const config = loadGatewayConfig({ REDIS_URL: 'redis://127.0.0.1:9', REDIS_BOOT_WAIT_MS: '0', LOG_LEVEL: 'silent' });
const server = Fastify(serverOptions(config));
await server.register(app, { config });
await server.ready();
const document = (await server.inject({ method: 'GET', url: '/api/openapi.json' })).json() as OpenApiDoc;
await server.close();

mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, 'openapi.json'), `${JSON.stringify(document, null, 2)}\n`);
for (const spec of COLLECTIONS) {
  writeFileSync(join(outDir, spec.file), `${JSON.stringify(postmanCollection(document, API_EXAMPLES, spec), null, 2)}\n`);
}
console.log(`API docs: openapi.json and ${COLLECTIONS.length} Postman collections in ${outDir}`);
// BullMQ and ioredis retry timers must not keep a build step alive.
process.exit(0);
