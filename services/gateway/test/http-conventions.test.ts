import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RenderWorkerHandle } from '@render/render-worker';
import { testRedisUrl } from '@render/test-stack/redis';
import { closeInOrder } from '@render/test-stack/teardown';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_TOKEN, json, type Stack, startStack, verifiedUser } from './helpers/auth-stack.ts';
import { LogCapture } from './helpers/log-capture.ts';
import { rawRequest } from './helpers/raw-http.ts';
import { startGateway, startTemplates, startWorker, type TestGateway, uniquePrefix } from './helpers/stack.ts';

// The conventions of issue 26 §4 across the real stack (auth, templates, a worker, the gateway, all on real
// sockets): problem details, request ids through every service and log, Idempotency-Key, compression, and
// `output`/`outputType` on every convert call.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const prefix = uniquePrefix('conventions');
const logs = new LogCapture();

/**
 * Template calls whose request id is held here are held at the templates service until released. `arrived`
 * settles once the held call reaches the templates service, so a test knows the gateway has taken its key.
 */
const held = new Map<string, { arrive(): void; released: Promise<void> }>();
function hold(requestId: string): { arrived: Promise<void>; release(): void } {
  let release = () => {};
  let arrive = () => {};
  const arrived = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  held.set(requestId, { arrive, released });
  return { arrived, release };
}

let auth: Stack;
let templates: { url: string; close(): Promise<void> };
let worker: RenderWorkerHandle;
let gateway: TestGateway;
let receiver: http.Server;
let receiverPort: number;
let redis: Redis;

beforeAll(async () => {
  // Accepts webhook deliveries (the worker delivers them: the gateway accepts webhooks only while one does).
  receiver = http.createServer((_req, res) => res.writeHead(200).end());
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverPort = (receiver.address() as AddressInfo).port;
  auth = await startStack({ LOG_LEVEL: 'debug' }, undefined, { logStream: logs.stream });
  templates = await startTemplates(auth.databaseUrl, INTERNAL_TOKEN, {
    logStream: logs.stream,
    logLevel: 'info',
    onRequest: async (request) => {
      const entry = held.get(String(request.headers['x-request-id']));
      entry?.arrive();
      await entry?.released;
    },
  });
  worker = await startWorker(
    {
      QUEUE_PREFIX: prefix,
      RENDER_QUEUES: 'html,svg,code',
      LOG_LEVEL: 'info',
      AUTH_SERVICE_URL: auth.url,
      INTERNAL_TOKEN,
      RENDER_EGRESS_ALLOWLIST: `127.0.0.1:${receiverPort}`,
    },
    { logStream: logs.stream },
  );
  gateway = await startGateway(
    {
      QUEUE_PREFIX: prefix,
      AUTH_SERVICE_URL: auth.url,
      TEMPLATES_SERVICE_URL: templates.url,
      INTERNAL_TOKEN,
      RENDER_EGRESS_ALLOWLIST: `127.0.0.1:${receiverPort}`,
      LOG_LEVEL: 'info',
    },
    { logStream: logs.stream },
  );
  redis = new Redis(await testRedisUrl());
}, 120_000);

afterAll(async () => {
  await closeInOrder(gateway, worker, templates, auth);
  await new Promise((resolve) => receiver?.close(resolve));
  redis?.disconnect();
});

const call = (method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}) =>
  fetch(`${gateway.url}${path}`, {
    method,
    headers: { ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });

const usedCredits = async (apiKey: string) =>
  (await json(await call('GET', '/api/auth/usage', { headers: { 'x-api-key': apiKey } }))).data.used as number;

async function waitUntil<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const until = Date.now() + 30_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const CARD = {
  name: 'Idempotent card',
  width: 200,
  height: 100,
  svg: '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><text x="10" y="50" data-variable="title">Hi</text></svg>',
  variables: [{ name: 'title', type: 'text', defaultValue: 'Hi' }],
};

describe('request ids', () => {
  it('the caller’s X-Request-Id reaches auth and the worker, and is on every log line of the request and in the error', async () => {
    const user = await verifiedUser(auth);
    const id = `trace-${randomUUID()}`;
    // A PDF page range past the document's end: the worker refuses it (422), after a credit was reserved in auth.
    const res = await call('POST', '/api/html-to-img/convert', {
      body: { html: '<p>one page</p>', format: 'pdf', pageRanges: '9' },
      headers: { 'x-api-key': user.apiKey, 'x-request-id': id },
    });
    expect(res.status).toBe(422);
    expect(res.headers.get('x-request-id')).toBe(id);
    expect(await json(res)).toMatchObject({ code: 'RENDER_FAILED', requestId: id, instance: '/api/html-to-img/convert' });

    const lines = await waitUntil('the worker’s line', async () => {
      const found = logs.of(id);
      return found.some((line) => line.service === 'render-worker') ? found : undefined;
    });
    const said = (service: string) => lines.filter((line) => line.service === service).map((line) => line.msg);
    expect(said('gateway')).toContain('request completed');
    // The credit reservation, made for this request (auth logs the gateway's internal calls at debug).
    expect(lines.some((line) => line.service === 'auth' && line.url === '/internal/credits/reserve')).toBe(true);
    expect(said('render-worker')).toContain('render failed');
  });

  it('the templates service adopts it: its problem body and its log line name the caller’s id', async () => {
    const user = await verifiedUser(auth);
    const id = `tpl-${randomUUID()}`;
    const res = await call('GET', `/api/template/${randomUUID()}`, {
      headers: { authorization: `Bearer ${user.token}`, 'x-request-id': id },
    });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    const body = await json(res);
    expect(body).toMatchObject({ success: false, code: 'NOT_FOUND', status: 404, requestId: id, title: 'Not found' });
    expect(body.instance).toMatch(/^\/api\/template\/[0-9a-f-]{36}$/);
    // auth: the session token's check, made for this request.
    const services = new Set(logs.of(id).map((line) => line.service));
    expect(services).toEqual(new Set(['gateway', 'auth', 'templates']));
  });

  it('every request line of every service carries a request id; an answer without a caller’s id gets a fresh UUID', async () => {
    const res = await call('GET', '/api/ping');
    expect(res.headers.get('x-request-id')).toMatch(UUID);
    const requestLines = logs.lines.filter((line) => line.msg === 'request completed' || line.msg === 'request errored');
    expect(requestLines.length).toBeGreaterThan(3);
    expect(requestLines.filter((line) => typeof line.requestId !== 'string')).toEqual([]);
  });
});

describe('problem details and the two names of the output field', () => {
  it('a convert body with several refused fields lists each; the message is the first one’s', async () => {
    const res = await call('POST', '/api/html-to-img/convert', { body: { width: 10, quality: 500, output: 'xml' } });
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body.message).toBe('Please enter some HTML content');
    expect(body.errors).toEqual([
      { field: 'html', message: 'Please enter some HTML content', messageId: 'field.htmlRequired' },
      { field: 'width', message: 'width must be between 50 and 4000', messageId: 'field.widthRange' },
      { field: 'quality', message: 'quality must be between 1 and 100', messageId: 'field.qualityRange' },
      // A sentence the message catalog does not hold has no id.
      { field: 'output', message: 'output must be one of: json, binary' },
    ]);
  });

  it.each([
    ['/api/html-to-img/convert', { html: '<p>x</p>' }],
    ['/api/svg-to-img/convert', { svg: '<svg xmlns="http://www.w3.org/2000/svg"/>' }],
    ['/api/chart-to-img/convert', { library: 'chartjs', chartType: 'bar', chartData: { labels: ['a'], datasets: [{ data: [1] }] } }],
    ['/api/code-to-img/convert', { code: 'x = 1', language: 'python' }],
    ['/api/screenshot/convert', { url: 'https://example.com' }],
  ])('%s: output and outputType that disagree are a 400 naming both', async (path, body) => {
    const res = await call('POST', path, { body: { ...body, output: 'json', outputType: 'binary' } });
    expect(res.status).toBe(400);
    const answer = await json(res);
    expect(answer.code).toBe('VALIDATION_ERROR');
    expect(answer.message).toMatch(/output and outputType .* disagree/);
    expect(answer.errors.map((e: { field: string }) => e.field)).toEqual(['output', 'outputType']);
  });

  it('either name works on every call: outputType on HTML, output on code, both when they agree', async () => {
    for (const [path, body] of [
      ['/api/html-to-img/convert', { html: '<p>x</p>', width: 100, height: 60, outputType: 'json' }],
      ['/api/code-to-img/convert', { code: 'x = 1', language: 'python', output: 'json' }],
      ['/api/html-to-img/convert', { html: '<p>x</p>', width: 100, height: 60, output: 'json', outputType: 'json' }],
    ] as const) {
      const res = await call('POST', path, { body });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect((await json(res)).data.mimeType).toBe('image/png');
    }
    const binary = await call('POST', '/api/code-to-img/convert', { body: { code: 'x = 1', language: 'python', outputType: 'binary' } });
    expect(binary.headers.get('content-type')).toBe('image/png');
  });

  it('the OpenAPI document lists both names on every convert call and error bodies as problems', async () => {
    const doc = await json(await call('GET', '/api/openapi.json'));
    for (const path of ['html-to-img', 'svg-to-img', 'chart-to-img', 'code-to-img', 'screenshot'].map((p) => `/api/${p}/convert`)) {
      const schema = doc.paths[path].post.requestBody.content['application/json'].schema;
      expect(Object.keys(schema.properties), path).toEqual(expect.arrayContaining(['output', 'outputType']));
      const refused = doc.paths[path].post.responses['400'];
      expect(Object.keys(refused.content), path).toEqual(['application/problem+json']);
      expect(refused.content['application/problem+json'].schema.required).toEqual(
        expect.arrayContaining(['type', 'title', 'status', 'detail', 'instance', 'requestId', 'message', 'code']),
      );
    }
    const generate = doc.paths['/api/template/generate'].post.requestBody.content['application/json'].schema;
    expect(Object.keys(generate.properties)).toEqual(expect.arrayContaining(['output', 'outputType']));
  });
});

describe('Idempotency-Key', () => {
  it('an async render: the same key and body answer the first 202 again, render once and charge once', async () => {
    const user = await verifiedUser(auth);
    const key = randomUUID();
    const body = { html: '<p>once</p>', width: 100, height: 60, webhook: `http://127.0.0.1:${receiverPort}/hook` };
    const headers = { 'x-api-key': user.apiKey, 'idempotency-key': key };
    const first = await call('POST', '/api/html-to-img/convert', { body, headers });
    expect(first.status).toBe(202);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const accepted = await json(first);
    // The same body with its fields in another order is the same request.
    const again = await call('POST', '/api/html-to-img/convert', {
      body: { webhook: body.webhook, height: 60, width: 100, html: body.html },
      headers,
    });
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(await json(again)).toEqual(accepted);

    await waitUntil('the render', async () => {
      const status = await json(await call('GET', accepted.data.statusUrl, { headers: { 'x-api-key': user.apiKey } }));
      return status.data.status === 'done' ? status : undefined;
    });
    expect(await usedCredits(user.apiKey)).toBe(1);

    const other = await call('POST', '/api/html-to-img/convert', { body: { ...body, html: '<p>twice</p>' }, headers });
    expect(other.status).toBe(422);
    expect(await json(other)).toMatchObject({
      code: 'IDEMPOTENCY_KEY_REUSED',
      status: 422,
      type: '/docs?tab=errors#idempotency-key-reused',
    });
    // Another caller's key of the same name is theirs alone.
    const stranger = await verifiedUser(auth);
    const theirs = await call('POST', '/api/html-to-img/convert', {
      body: { ...body, html: '<p>twice</p>' },
      headers: { 'x-api-key': stranger.apiKey, 'idempotency-key': key },
    });
    expect(theirs.status).toBe(202);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(await usedCredits(user.apiKey)).toBe(1);
  });

  it('a synchronous render ignores the header: it creates nothing to come back to', async () => {
    const user = await verifiedUser(auth);
    const headers = { 'x-api-key': user.apiKey, 'idempotency-key': randomUUID() };
    const body = { html: '<p>sync</p>', width: 100, height: 60 };
    for (let i = 0; i < 2; i += 1) {
      const res = await call('POST', '/api/html-to-img/convert', { body, headers });
      expect(res.status).toBe(200);
      expect(res.headers.get('idempotent-replayed')).toBeNull();
    }
  });

  it('template create: a repeat while the first is still answered is a 409 with Retry-After; afterwards it gets the first 201', async () => {
    const user = await verifiedUser(auth);
    const key = randomUUID();
    const headers = { authorization: `Bearer ${user.token}`, 'idempotency-key': key };
    const { arrived, release } = hold('first-create');
    const first = call('POST', '/api/template', { body: CARD, headers: { ...headers, 'x-request-id': 'first-create' } });
    // Probe only once the first waits at the templates service with its key held: a probe sent earlier could
    // reach the gateway first and take the key itself (seen on a loaded CI machine).
    await arrived;
    const busy = await waitUntil('the key to be held', async () => {
      const res = await call('POST', '/api/template', { body: CARD, headers });
      return res.status === 409 ? res : undefined;
    });
    expect(busy.headers.get('retry-after')).toBe('1');
    expect(await json(busy)).toMatchObject({ code: 'IDEMPOTENCY_KEY_IN_USE', status: 409 });
    release();
    const created = await first;
    expect(created.status).toBe(201);
    const template = await json(created);
    const repeat = await call('POST', '/api/template', { body: CARD, headers });
    expect(repeat.status).toBe(201);
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(await json(repeat)).toEqual(template);
    const own = await json(await call('GET', '/api/template/user', { headers: { authorization: `Bearer ${user.token}` } }));
    expect(own.data.map((t: { id: string }) => t.id)).toEqual([template.data.id]);
  });

  it('template duplicate: one copy however often it is retried; an error keeps nothing', async () => {
    const user = await verifiedUser(auth);
    const auth_ = { authorization: `Bearer ${user.token}` };
    const original = await json(await call('POST', '/api/template', { body: CARD, headers: auth_ }));
    const headers = { ...auth_, 'idempotency-key': randomUUID() };
    const copies = [];
    for (let i = 0; i < 3; i += 1) copies.push(await call('POST', `/api/template/${original.data.id}/duplicate`, { headers }));
    expect(copies.map((res) => res.status)).toEqual([201, 201, 201]);
    const ids = new Set(await Promise.all(copies.map(async (res) => (await json(res)).data.id)));
    expect(ids.size).toBe(1);
    const own = await json(await call('GET', '/api/template/user', { headers: auth_ }));
    expect(own.data).toHaveLength(2);

    // A duplicate of nothing is a 404 each time: errors are not kept, so the key runs again.
    const missing = { ...auth_, 'idempotency-key': randomUUID() };
    for (let i = 0; i < 2; i += 1) {
      const res = await call('POST', `/api/template/${randomUUID()}/duplicate`, { headers: missing });
      expect(res.status).toBe(404);
      expect(res.headers.get('idempotent-replayed')).toBeNull();
    }
  });

  it('API key regeneration (forwarded to auth): the retry answers the same new key, which works, and Redis holds it unreadable', async () => {
    const user = await verifiedUser(auth);
    const headers = { authorization: `Bearer ${user.token}`, 'idempotency-key': randomUUID() };
    const first = await call('POST', '/api/auth/api-key/regenerate', { headers });
    expect(first.status).toBe(200);
    const { apiKey } = await json(first);
    const again = await call('POST', '/api/auth/api-key/regenerate', { headers });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await json(again)).apiKey).toBe(apiKey);
    const me = await call('GET', '/api/auth/me', { headers: { 'x-api-key': apiKey } });
    expect(me.status).toBe(200);

    const stored = await redis.keys(`${prefix}:idempotency:*`);
    expect(stored.length).toBeGreaterThan(0);
    // Neither as it is nor under one or two layers of base64 (how a kept body would be written down).
    const unb64 = (text: string) => Buffer.from(text, 'base64').toString('latin1');
    const layers = (text: string) => [text, unb64(text), ...[...unb64(text).matchAll(/[A-Za-z0-9+/=]{40,}/g)].map((m) => unb64(m[0]))];
    for (const value of await Promise.all(stored.map((k) => redis.get(k)))) {
      const strings = Object.values(JSON.parse(value ?? '{}') as Record<string, string>);
      for (const text of strings.flatMap(layers)) expect(text).not.toContain(apiKey);
    }
    expect(await redis.ttl(stored[0] as string)).toBeGreaterThan(23 * 3600);
  });

  it('a key that is not 1–255 visible ASCII characters is a 400', async () => {
    const user = await verifiedUser(auth);
    const res = await call('POST', '/api/template', {
      body: CARD,
      headers: { authorization: `Bearer ${user.token}`, 'idempotency-key': 'x'.repeat(256) },
    });
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ message: 'Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID, say)' });
  });
});

describe('compression', () => {
  it('JSON answers go in brotli or gzip as the client prefers; the same JSON once decoded', async () => {
    const plain = await rawRequest(`${gateway.url}/api/openapi.json`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const encoding of ['br', 'gzip'] as const) {
      const answer = await rawRequest(`${gateway.url}/api/openapi.json`, { headers: { 'accept-encoding': encoding } });
      expect(answer.headers['content-encoding']).toBe(encoding);
      expect(answer.headers.vary).toMatch(/accept-encoding/i);
      expect(answer.body.length).toBeLessThan(plain.body.length / 3);
      expect(answer.decoded().equals(plain.body)).toBe(true);
    }
  });

  it('an SVG image and a JSON image are compressed; a PNG is not; an answer under 1 KB is not', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300">${Array.from({ length: 80 }, (_, i) => `<circle cx="${i * 5}" cy="150" r="4" fill="#336699"/>`).join('')}</svg>`;
    const render = (body: unknown) =>
      rawRequest(`${gateway.url}/api/svg-to-img/convert`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip, br' },
        body: JSON.stringify(body),
      });
    const asSvg = await render({ svg, format: 'svg' });
    expect(asSvg.status).toBe(200);
    expect(asSvg.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(asSvg.headers['content-encoding']).toBe('br');
    expect(asSvg.decoded().toString()).toContain('<circle');

    const asPng = await render({ svg, format: 'png' });
    expect(asPng.headers['content-type']).toBe('image/png');
    expect(asPng.headers['content-encoding']).toBeUndefined();
    expect(asPng.body.subarray(1, 4).toString()).toBe('PNG');

    const asJson = await render({ svg, format: 'png', output: 'json' });
    expect(asJson.headers['content-encoding']).toBe('br');
    expect(JSON.parse(asJson.decoded().toString()).data.mimeType).toBe('image/png');

    const small = await rawRequest(`${gateway.url}/api/ping`, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});
