import type { ApiExample } from './api-examples.ts';

/**
 * Postman v2.1 collections generated from the OpenAPI document and the example calls: one request per
 * operation (in example order, foldered by tag), its body the document's example, its credentials what
 * the operation accepts, and a test asserting the status the example states.
 */
type Json = Record<string, unknown>;
interface OpenApiOperation {
  summary?: string;
  tags?: string[];
  security?: Array<Record<string, unknown>>;
  requestBody?: { content?: Record<string, { example?: unknown; examples?: Record<string, { summary?: string; value: unknown }> }> };
}
export interface OpenApiDoc {
  info: { title: string; description?: string };
  paths: Record<string, Record<string, OpenApiOperation>>;
}

export interface CollectionSpec {
  name: string;
  description: string;
  /** Which operations the collection holds. */
  include: (method: string, path: string) => boolean;
}

export const COLLECTIONS: Array<CollectionSpec & { file: string }> = [
  {
    file: 'render-api.postman_collection.json',
    name: 'Render API',
    description: 'Every call of the Render API.',
    include: () => true,
  },
  {
    file: 'render-api-html-svg.postman_collection.json',
    name: 'Render API: HTML and SVG',
    description: 'HTML to image and SVG to image.',
    include: (_m, path) => path === '/api/html-to-img/convert' || path === '/api/svg-to-img/convert',
  },
  {
    file: 'render-api-chart-code.postman_collection.json',
    name: 'Render API: charts and code',
    description: 'Chart.js, D3 and Highcharts charts, and code to image.',
    include: (_m, path) => path === '/api/chart-to-img/convert' || path.startsWith('/api/code-to-img/'),
  },
];

export const COLLECTION_VARIABLES = [
  { key: 'baseUrl', value: 'http://localhost:3000' },
  { key: 'apiKey', value: 'YOUR_API_KEY' },
  { key: 'token', value: '' },
  { key: 'email', value: 'you@example.com' },
  { key: 'password', value: 'Your-passw0rd' },
  { key: 'templateId', value: '' },
  { key: 'screenshotUrl', value: 'https://example.com' },
];

// An environment variable shadows a collection variable: update whichever the caller uses.
const STORE =
  'const store = (name, value) => { pm.collectionVariables.set(name, value); if (pm.environment.has(name)) pm.environment.set(name, value); };';

/** Render calls are billed to the API key; account and template management use the session token. */
function authFor(path: string, operation: OpenApiOperation): Json | undefined {
  const security = operation.security ?? [];
  const accepts = (scheme: string) => security.some((requirement) => scheme in requirement);
  const isRender = /\/(convert|generate)$/.test(path);
  if (accepts('apiKey') && (isRender || !accepts('bearerAuth'))) {
    return {
      type: 'apikey',
      apikey: [
        { key: 'key', value: 'X-API-Key' },
        { key: 'value', value: '{{apiKey}}' },
        { key: 'in', value: 'header' },
      ],
    };
  }
  if (accepts('bearerAuth')) return { type: 'bearer', bearer: [{ key: 'token', value: '{{token}}' }] };
  return { type: 'noauth' };
}

function postmanUrl(path: string, query: Record<string, string> = {}): Json {
  const segments = path
    .replace(/^\//, '')
    .split('/')
    .map((segment) => (segment === '{id}' ? '{{templateId}}' : segment));
  const entries = Object.entries(query);
  const search = entries.length ? `?${entries.map(([k, v]) => `${k}=${v}`).join('&')}` : '';
  return {
    raw: `{{baseUrl}}/${segments.join('/')}${search}`,
    host: ['{{baseUrl}}'],
    path: segments,
    ...(entries.length ? { query: entries.map(([key, value]) => ({ key, value })) } : {}),
  };
}

/** The Postman request's name: the operation, and what a further example of it shows ("POST /api/… (PDF)"). */
export const exampleTitle = (example: ApiExample) => `${example.method} ${example.path}${example.name ? ` (${example.name})` : ''}`;

function item(example: ApiExample, operation: OpenApiOperation): Json {
  const body = example.body;
  const request: Json = {
    method: example.method,
    header: body === undefined ? [] : [{ key: 'Content-Type', value: 'application/json' }],
    url: postmanUrl(example.path, example.query),
    auth: authFor(example.path, operation),
    description: [operation.summary, example.name].filter(Boolean).join(': '),
  };
  if (body !== undefined) request.body = { mode: 'raw', raw: JSON.stringify(body, null, 2), options: { raw: { language: 'json' } } };
  const exec = [
    ...(example.script ? [STORE] : []),
    `pm.test('answers ${example.expect}', function () {`,
    `  pm.response.to.have.status(${example.expect});`,
    '});',
    ...(example.script ?? []),
  ];
  return { name: exampleTitle(example), request, event: [{ listen: 'test', script: { type: 'text/javascript', exec } }] };
}

/**
 * The collection for `spec`. Every operation of the document must have an example (a new route without
 * one fails the export), so the complete collection really is complete.
 */
export function postmanCollection(doc: OpenApiDoc, examples: ApiExample[], spec: CollectionSpec): Json {
  const missing = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.keys(methods)
      .filter((method) => !examples.some((e) => e.method === method.toUpperCase() && e.path === path))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );
  if (missing.length) throw new Error(`operations without an example call: ${missing.join(', ')}`);
  const folders = new Map<string, Json[]>();
  for (const example of examples) {
    const operation = doc.paths[example.path]?.[example.method.toLowerCase()];
    if (!operation) throw new Error(`example for an unknown operation: ${example.method} ${example.path}`);
    if (!spec.include(example.method, example.path)) continue;
    const tag = operation.tags?.[0] ?? 'other';
    folders.set(tag, [...(folders.get(tag) ?? []), item(example, operation)]);
  }
  return {
    info: {
      name: spec.name,
      description: `${spec.description} Set baseUrl, apiKey (from your dashboard), and email/password to sign in.`,
      schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
    },
    item: [...folders].map(([name, items]) => ({ name, item: items })),
    variable: COLLECTION_VARIABLES,
  };
}

const SAMPLE_VALUES: Record<string, string> = {
  ...Object.fromEntries(COLLECTION_VARIABLES.map(({ key, value }) => [key, value])),
  $randomEmail: 'ada@example.com',
  templateId: 'YOUR_TEMPLATE_ID',
};

/** An example body with its Postman variables replaced by sample values, as the document shows it. */
export const sampleBody = (body: unknown): unknown =>
  JSON.parse(JSON.stringify(body).replace(/\{\{(\$?\w+)\}\}/g, (whole, name: string) => SAMPLE_VALUES[name] ?? whole));

/** The key of an example in a media type's `examples`: `default` for the main one, else its name ("pdf"). */
export const exampleKey = (example: ApiExample) =>
  example.name
    ? example.name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '')
    : 'default';

/**
 * Puts each example body into the document, so every reader of the document sees the same examples: as
 * `example` when the operation has one, as named `examples` (main one first, as `default`) when it has
 * more (OpenAPI allows one of the two).
 */
export function withExamples<T extends OpenApiDoc>(doc: T, examples: ApiExample[]): T {
  for (const example of examples) {
    const operation = doc.paths[example.path]?.[example.method.toLowerCase()];
    const content = operation?.requestBody?.content?.['application/json'];
    if (!content || example.body === undefined) continue;
    const value = sampleBody(example.body);
    const named = examples.some((other) => other !== example && other.method === example.method && other.path === example.path);
    if (!named) {
      content.example = value;
      continue;
    }
    delete content.example;
    content.examples = {
      ...content.examples,
      [exampleKey(example)]: { summary: example.name ?? operation?.summary ?? 'Example', value },
    };
  }
  return doc;
}
