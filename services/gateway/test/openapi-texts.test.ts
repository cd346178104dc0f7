import { localizeOpenApi, OpenApiTexts, openApiTexts } from '@render/contracts';
import { testRedisUrl } from '@render/test-stack/redis';
import Fastify from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import app, { serverOptions } from '../src/app.ts';
import { loadGatewayConfig } from '../src/config.ts';
import { uniquePrefix } from './helpers/stack.ts';

// The docs page shows the document's summaries and descriptions; on the French site it shows
// `localizeOpenApi(document, 'fr')`. A text added or reworded in English must get its French in
// packages/contracts/src/openapi-texts-fr.ts, and a text that left the document must leave the map.

type Document = { paths: Record<string, Record<string, { summary?: string; requestBody?: unknown }>> };
let document: Document;

beforeAll(async () => {
  const config = loadGatewayConfig({ REDIS_URL: await testRedisUrl(), QUEUE_PREFIX: uniquePrefix('openapi-texts'), LOG_LEVEL: 'silent' });
  const server = Fastify(serverOptions(config));
  await server.register(app, { config });
  await server.ready();
  document = (await server.inject({ method: 'GET', url: '/api/openapi.json' })).json() as Document;
  await server.close();
});

describe('the OpenAPI document in French', () => {
  it('has a French text for every summary and description, and no entry the document no longer has', () => {
    const texts = openApiTexts(document);
    expect(texts.size).toBeGreaterThan(200);
    expect([...texts].filter((text) => !Object.hasOwn(OpenApiTexts.fr, text))).toEqual([]);
    expect(Object.keys(OpenApiTexts.fr).filter((text) => !texts.has(text))).toEqual([]);
  });

  it('localizes the texts and nothing else', () => {
    const fr = localizeOpenApi(document, 'fr');
    const html = fr.paths['/api/html-to-img/convert']!.post!;
    expect(html.summary).toBe('Rendre du HTML en PNG, JPEG, WebP, AVIF ou PDF');
    const schema = (html.requestBody as { content: Record<string, { schema: { properties: Record<string, { description?: string }> } }> })
      .content['application/json']!.schema;
    expect(schema.properties.html!.description).toBe('Document ou fragment HTML à rendre');
    // Names, bounds and examples stay as the API takes them.
    expect(Object.keys(schema.properties)).toEqual(
      Object.keys(
        (
          document.paths['/api/html-to-img/convert']!.post!.requestBody as typeof html.requestBody & {
            content: Record<string, { schema: { properties: object } }>;
          }
        ).content['application/json']!.schema.properties,
      ),
    );
    const strip = (value: unknown) => JSON.stringify(value, (key, v) => (key === 'summary' || key === 'description' ? undefined : v));
    expect(strip(fr)).toBe(strip(document));
    expect(localizeOpenApi(document, 'en')).toBe(document);
  });
});
