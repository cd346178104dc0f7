import { Ajv } from 'ajv';
import ajvFormats from 'ajv-formats';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import app, { serverOptions } from '../src/app.ts';
import { loadGatewayConfig } from '../src/config.ts';
import { API_EXAMPLES } from '../src/docs/api-examples.ts';
import {
  CHANGES_FOLDER,
  COLLECTIONS,
  exampleKey,
  exampleTitle,
  type OpenApiDoc,
  postmanCollection,
  sampleBody,
} from '../src/docs/postman-collection.ts';

type Script = { listen: string; script: { exec: string[] } };
type Item = {
  name: string;
  item?: Item[];
  request?: { method: string; body?: { raw: string }; auth?: { type: string }; url: { raw: string } };
  event?: Script[];
};
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
      'DELETE /api/template/{id} (the copy)',
      'POST /api/html-to-img/convert (PDF)',
      'POST /api/screenshot/convert (Markdown)',
      'POST /api/screenshot/convert (PDF)',
      'POST /api/screenshot/convert (Video)',
      'POST /api/template/generate (your template)',
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

  it('uses {{baseUrl}} and {{apiKey}} variables, the key wherever it is accepted and the token where only it is', () => {
    const complete = collection('render-api.postman_collection.json');
    expect(complete.variable.map((v) => v.key)).toEqual(expect.arrayContaining(['baseUrl', 'apiKey', 'token', 'allowChanges', 'renderId']));
    const items = flatten(complete.item);
    const auth = (name: string) => items.find((i) => i.name === name)?.request?.auth?.type;
    expect(auth('POST /api/html-to-img/convert')).toBe('apikey');
    expect(auth('GET /api/auth/me')).toBe('apikey');
    expect(auth('GET /api/template')).toBe('apikey');
    expect(auth('POST /api/auth/refresh')).toBe('bearer');
    expect(auth('POST /api/auth/login')).toBe('noauth');
  });

  it('keeps every call that changes the account in its own folder, skipped unless allowChanges is yes', () => {
    const complete = collection('render-api.postman_collection.json');
    const folder = complete.item.find((i) => i.name === CHANGES_FOLDER)!;
    expect(complete.item.at(-1)).toBe(folder);
    const changing = API_EXAMPLES.filter((e) => e.changes).map(exampleTitle);
    expect(folder.item!.map((i) => i.name)).toEqual(changing);
    // What the issue found a run with credentials did to a real account is all in there.
    expect(changing).toEqual(
      expect.arrayContaining([
        'POST /api/auth/api-key/regenerate',
        'POST /api/auth/webhook-secret/rotate',
        'POST /api/auth/signup',
        'POST /api/auth/forgot-password',
        'POST /api/template',
        'POST /api/template/{id}/publish',
        'POST /api/template/{id}/duplicate',
        'POST /api/auth/upgrade',
      ]),
    );
    for (const request of folder.item!) {
      const pre = request.event?.find((e) => e.listen === 'prerequest')?.script.exec.join('\n') ?? '';
      expect(pre, request.name).toContain("pm.variables.get('allowChanges') !== 'yes'");
      expect(pre, request.name).toContain('pm.execution.skipRequest()');
    }
    // Outside it, only calls that read, render or answer an error; the POSTs there change nothing.
    const outside = flatten(complete.item.filter((i) => i !== folder)).map((i) => i.name);
    expect(outside.filter((name) => /^(PUT|DELETE) /.test(name))).toEqual([]);
  });

  it('never stores an empty value, and says which variable each {id} is', () => {
    const items = flatten(collection('render-api.postman_collection.json').item);
    for (const request of items) {
      const test = request.event?.find((e) => e.listen === 'test')?.script.exec.join('\n') ?? '';
      if (test.includes('store(')) expect(test, request.name).toContain("if (typeof value !== 'string' || value === '') return;");
      expect(request.request!.url.raw, request.name).not.toMatch(/\{id\}/);
    }
    const url = (name: string) => items.find((i) => i.name === name)!.request!.url.raw;
    expect(url('GET /api/renders/{id}')).toBe('{{baseUrl}}/api/renders/{{renderId}}');
    expect(url('GET /api/renders/{id}/image')).toBe('{{baseUrl}}/api/renders/{{renderId}}/image');
    expect(url('GET /api/template/{id}')).toBe('{{baseUrl}}/api/template/{{publicTemplateId}}');
    expect(url('DELETE /api/template/{id} (the copy)')).toBe('{{baseUrl}}/api/template/{{copyId}}');
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
