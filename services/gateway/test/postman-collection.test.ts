import { Ajv } from 'ajv';
import ajvFormats from 'ajv-formats';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import app, { serverOptions } from '../src/app.ts';
import { loadGatewayConfig } from '../src/config.ts';
import { API_EXAMPLES } from '../src/lib/api-examples.ts';
import { COLLECTIONS, exampleKey, type OpenApiDoc, postmanCollection, sampleBody } from '../src/lib/postman-collection.ts';

type Item = { name: string; item?: Item[]; request?: { method: string; body?: { raw: string }; auth?: { type: string } } };
const flatten = (items: Item[]): Item[] => items.flatMap((i) => (i.item ? flatten(i.item) : [i]));

let document: OpenApiDoc & {
  paths: Record<
    string,
    Record<
      string,
      {
        requestBody?: {
          content: Record<string, { schema: object; example?: unknown; examples?: Record<string, { summary: string; value: unknown }> }>;
        };
      }
    >
  >;
};
const server = Fastify(
  serverOptions(loadGatewayConfig({ REDIS_URL: 'redis://127.0.0.1:9', REDIS_BOOT_WAIT_MS: '0', LOG_LEVEL: 'silent' })),
);

beforeAll(async () => {
  await server.register(app, {
    config: loadGatewayConfig({ REDIS_URL: 'redis://127.0.0.1:9', REDIS_BOOT_WAIT_MS: '0', LOG_LEVEL: 'silent' }),
  });
  document = (await server.inject({ url: '/api/openapi.json' })).json();
});
afterAll(() => server.close());

const collection = (file: string) =>
  postmanCollection(document, API_EXAMPLES, COLLECTIONS.find((c) => c.file === file)!) as {
    item: Item[];
    variable: Array<{ key: string }>;
  };
const operations = () =>
  Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));

describe('Postman collections generated from the OpenAPI document', () => {
  it('the complete one holds every operation, once, and each further example of an operation by its name', () => {
    const names = flatten(collection('render-api.postman_collection.json').item).map((i) => i.name);
    expect(names.filter((name) => !name.endsWith(')')).sort()).toEqual(operations().sort());
    expect(names.filter((name) => name.endsWith(')')).sort()).toEqual([
      'POST /api/html-to-img/convert (PDF)',
      'POST /api/screenshot/convert (PDF)',
    ]);
    expect(new Set(names).size).toBe(names.length);
  });

  it('the partial ones hold only their calls', () => {
    expect(flatten(collection('render-api-html-svg.postman_collection.json').item).map((i) => i.name)).toEqual([
      'POST /api/html-to-img/convert',
      'POST /api/html-to-img/convert (PDF)',
      'POST /api/svg-to-img/convert',
    ]);
    expect(
      flatten(collection('render-api-chart-code.postman_collection.json').item)
        .map((i) => i.name)
        .sort(),
    ).toEqual(['GET /api/code-to-img/languages', 'POST /api/chart-to-img/convert', 'POST /api/code-to-img/convert']);
  });

  it('uses {{baseUrl}} and {{apiKey}} variables, the key on render calls and the token on account calls', () => {
    const complete = collection('render-api.postman_collection.json');
    expect(complete.variable.map((v) => v.key)).toEqual(expect.arrayContaining(['baseUrl', 'apiKey', 'token']));
    const items = flatten(complete.item);
    expect(items.find((i) => i.name === 'POST /api/html-to-img/convert')?.request?.auth?.type).toBe('apikey');
    expect(items.find((i) => i.name === 'GET /api/auth/me')?.request?.auth?.type).toBe('bearer');
    expect(items.find((i) => i.name === 'POST /api/auth/login')?.request?.auth?.type).toBe('noauth');
  });

  it('refuses to export when an operation has no example call', () => {
    const extra = structuredClone(document);
    extra.paths['/api/new-thing'] = { get: {} };
    expect(() => postmanCollection(extra, API_EXAMPLES, COLLECTIONS[0]!)).toThrow('GET /api/new-thing');
  });

  it("every example body is valid against its route's schema, and the document carries it", () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    (ajvFormats as unknown as (a: Ajv) => Ajv)(ajv);
    for (const example of API_EXAMPLES.filter((e) => e.body)) {
      const content = document.paths[example.path]?.[example.method.toLowerCase()]?.requestBody?.content['application/json'];
      expect(content, `${example.method} ${example.path}`).toBeDefined();
      const body = sampleBody(example.body);
      const validate = ajv.compile(content!.schema);
      expect(validate(body), `${example.method} ${example.path}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      const several = API_EXAMPLES.filter((e) => e.method === example.method && e.path === example.path).length > 1;
      // OpenAPI allows example or examples, not both: one example stays `example`, several are named.
      const shown = several ? content!.examples?.[exampleKey(example)]?.value : content!.example;
      expect(several ? content!.example : content!.examples).toBeUndefined();
      expect(shown).toEqual(body);
      expect(JSON.stringify(shown)).not.toContain('{{');
    }
  });

  it('shows the PDF calls (HTML with page size, margins and a footer; a page printed) as named examples', () => {
    const html = document.paths['/api/html-to-img/convert']!.post!.requestBody!.content['application/json']!;
    expect(Object.keys(html.examples ?? {})).toEqual(['default', 'pdf']);
    expect(html.examples!.default!.value).toMatchObject({ format: 'png' });
    expect(html.examples!.pdf).toMatchObject({ summary: 'PDF', value: { format: 'pdf', pageSize: 'A4', margin: { top: '2cm' } } });
    const shot = document.paths['/api/screenshot/convert']!.post!.requestBody!.content['application/json']!;
    expect(shot.examples!.pdf!.value).toMatchObject({ url: 'https://example.com', format: 'pdf', landscape: true });
    const items = flatten(collection('render-api.postman_collection.json').item);
    const pdf = items.find((i) => i.name === 'POST /api/html-to-img/convert (PDF)');
    expect(JSON.parse(pdf!.request!.body!.raw)).toMatchObject({ format: 'pdf', pageSize: 'A4' });
    expect(pdf!.request!.auth!.type).toBe('apikey');
  });
});
