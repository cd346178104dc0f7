import type { ApiExample } from './api-examples.ts';

/**
 * Postman v2.1 collections generated from the OpenAPI document and the example calls: one request per
 * operation (in example order, foldered by tag), its body the document's example, its credentials what
 * the operation accepts, and a test asserting the status the example states. Calls that change the account
 * are in a folder of their own, skipped unless `allowChanges` is `yes`; calls missing what they need (a
 * session token, e-mail and password) are skipped too, so a run with only `baseUrl` and `apiKey` passes
 * and changes nothing.
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

/** A render id that is nobody's: `GET /api/renders/{id}` answers 404 until renderId is set to one of yours. */
export const RENDER_ID_PLACEHOLDER = '00000000-0000-4000-8000-000000000000';

export const COLLECTION_VARIABLES = [
  { key: 'baseUrl', value: 'http://localhost:3000', description: 'The API, without a trailing slash' },
  { key: 'apiKey', value: 'YOUR_API_KEY', description: 'Your API key, from the dashboard' },
  { key: 'email', value: '', description: 'Optional: your e-mail, to sign in for the calls that need a session token' },
  { key: 'password', value: '', description: 'Optional: your password, with email' },
  {
    key: 'allowChanges',
    value: 'no',
    description: 'Set to yes to also run the calls that change your account (the "Changes your account" folder)',
  },
  { key: 'token', value: '', description: 'Set by the login call' },
  { key: 'publicTemplateId', value: '', description: 'Set by the public template list: the newest public template' },
  { key: 'templateId', value: '', description: 'Set by the template create call (allowChanges)' },
  { key: 'chartShortId', value: '', description: 'Set by the QuickChart short URL create call (POST /chart/create)' },
  { key: 'copyId', value: '', description: 'Set by the template duplicate call (allowChanges)' },
  { key: 'renderId', value: RENDER_ID_PLACEHOLDER, description: 'The id a convert call with webhook answered (202)' },
  { key: 'batchId', value: RENDER_ID_PLACEHOLDER, description: 'The id POST /api/batch answered (202)' },
  {
    key: 'screenshotUrl',
    value: '{{baseUrl}}/api/ping',
    description: "A page the render workers may reach: this API's own by default (allow-list it on a local stack), or any public page",
  },
];

/** The folder of the calls that change the account, run only with allowChanges = yes. */
export const CHANGES_FOLDER = 'Changes your account (runs only with allowChanges = yes)';

// An environment variable shadows a collection variable: update whichever the caller uses. Only a
// non-empty string is kept, so a failed call never blanks a key or token the next calls need.
const STORE =
  "const store = (name, value) => { if (typeof value !== 'string' || value === '') return; pm.collectionVariables.set(name, value); if (pm.environment.has(name)) pm.environment.set(name, value); };";

/** The API key wherever it is accepted (only `apiKey` is needed to run the collection); else the session token. */
function authFor(operation: OpenApiOperation): Json | undefined {
  const security = operation.security ?? [];
  const accepts = (scheme: string) => security.some((requirement) => scheme in requirement);
  if (accepts('apiKey')) {
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

function postmanUrl(example: ApiExample): Json {
  const { path, query = {}, params = {} } = example;
  const segments = path
    .replace(/^\//, '')
    .split('/')
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment)?.[1];
      if (!param) return segment;
      const value = params[param];
      if (!value) throw new Error(`example ${exampleTitle(example)} does not say which {{variable}} its {${param}} is`);
      return value;
    });
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

/** The variables a call needs before it can run: its own, and the session token where only that is accepted. */
function needsOf(example: ApiExample, auth: Json | undefined): string[] {
  return [...(example.needs ?? []), ...(auth?.type === 'bearer' ? ['token'] : [])];
}

/** Skips the call (saying why in the console) when it changes the account without allowChanges, or lacks what it needs. */
function preRequest(example: ApiExample, needs: string[]): string[] {
  if (!example.changes && needs.length === 0) return [];
  return [
    `const missing = ${JSON.stringify(needs)}.filter((name) => !pm.variables.get(name));`,
    ...(example.changes ? ["if (pm.variables.get('allowChanges') !== 'yes') missing.unshift('allowChanges = yes');"] : []),
    "if (missing.length > 0) { console.info('skipped: set ' + missing.join(', ')); pm.execution.skipRequest(); }",
  ];
}

/** The status check: the example's status, or what a billing call answers where billing is off, or with your own id. */
function statusTest(example: ApiExample): string[] {
  const { expect: status, billing, expectOnceSet } = example;
  if (billing) {
    return [
      `pm.test('answers ${status} (503 "Billing is not configured" where billing is off)', function () {`,
      "  if (pm.response.code === 503) pm.expect(pm.response.json().message).to.eql('Billing is not configured');",
      `  else pm.response.to.have.status(${status});`,
      '});',
    ];
  }
  if (expectOnceSet) {
    const { variable, status: own } = expectOnceSet;
    const placeholder = COLLECTION_VARIABLES.find((v) => v.key === variable)?.value;
    return [
      `pm.test('answers ${status} (${own} once ${variable} is one of yours)', function () {`,
      `  pm.response.to.have.status(pm.variables.get('${variable}') === ${JSON.stringify(placeholder)} ? ${status} : ${own});`,
      '});',
    ];
  }
  return [`pm.test('answers ${status}', function () {`, `  pm.response.to.have.status(${status});`, '});'];
}

function item(example: ApiExample, operation: OpenApiOperation): Json {
  const body = example.body;
  const auth = authFor(operation);
  const needs = needsOf(example, auth);
  const request: Json = {
    method: example.method,
    header: body === undefined ? [] : [{ key: 'Content-Type', value: 'application/json' }],
    url: postmanUrl(example),
    auth,
    description: [
      [operation.summary, example.name].filter(Boolean).join(': '),
      ...(example.changes ? ['Changes your account: runs only with allowChanges = yes.'] : []),
      ...(needs.length ? [`Needs ${needs.join(', ')} (skipped without).`] : []),
    ].join(' '),
  };
  if (body !== undefined) request.body = { mode: 'raw', raw: JSON.stringify(body, null, 2), options: { raw: { language: 'json' } } };
  const exec = [...(example.script ? [STORE] : []), ...statusTest(example), ...(example.script ?? [])];
  const prerequest = preRequest(example, needs);
  return {
    name: exampleTitle(example),
    request,
    event: [
      ...(prerequest.length ? [{ listen: 'prerequest', script: { type: 'text/javascript', exec: prerequest } }] : []),
      { listen: 'test', script: { type: 'text/javascript', exec } },
    ],
  };
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
  const changes: Json[] = [];
  for (const example of examples) {
    const operation = doc.paths[example.path]?.[example.method.toLowerCase()];
    if (!operation) throw new Error(`example for an unknown operation: ${example.method} ${example.path}`);
    if (!spec.include(example.method, example.path)) continue;
    if (example.changes) {
      changes.push(item(example, operation));
      continue;
    }
    const tag = operation.tags?.[0] ?? 'other';
    folders.set(tag, [...(folders.get(tag) ?? []), item(example, operation)]);
  }
  const changesFolder = {
    name: CHANGES_FOLDER,
    description:
      'Creates, edits, publishes and deletes a template, opens billing, rotates the webhook secret, regenerates the API key (your CLI config and signed URLs then need the new one), signs up a new example.com account and mails you a reset link. Skipped unless allowChanges is yes; the session calls also need email and password.',
    item: changes,
  };
  return {
    info: {
      name: spec.name,
      description: `${spec.description} Set baseUrl and apiKey (from your dashboard), then send or run: nothing in your account changes. Set email and password to also run the calls that need a session token, and allowChanges to yes for those that change your account (their own folder).`,
      schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
    },
    item: [...[...folders].map(([name, items]) => ({ name, item: items })), ...(changes.length ? [changesFolder] : [])],
    variable: COLLECTION_VARIABLES,
  };
}

const SAMPLE_VALUES: Record<string, string> = {
  ...Object.fromEntries(COLLECTION_VARIABLES.map(({ key, value }) => [key, value])),
  $guid: '1',
  email: 'you@example.com',
  password: 'Your-passw0rd',
  templateId: 'YOUR_TEMPLATE_ID',
  publicTemplateId: 'A_PUBLIC_TEMPLATE_ID',
  chartShortId: 'A_SHORT_URL_ID',
  screenshotUrl: 'https://example.com',
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
