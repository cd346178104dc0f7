import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import templatesClient from '../src/plugins/templates-client.plugin.ts';
import { INTERNAL_TOKEN, json, type Stack, startStack, verifiedUser } from './helpers/auth-stack.ts';
import { startGateway, type TestGateway, uniquePrefix } from './helpers/stack.ts';

interface Seen {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let upstream: Server;
const seen: Seen[] = [];
let gateway: TestGateway;
let slowGateway: TestGateway;
let downGateway: TestGateway;

beforeAll(async () => {
  // Stands in for the account service: echoes what it received and sets a cookie-free JSON answer.
  upstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      seen.push(entry);
      if (req.url?.startsWith('/api/auth/slow')) return void setTimeout(() => res.end('late'), 2_000);
      const status = req.url === '/api/auth/login' ? 401 : 200;
      res.writeHead(status, { 'content-type': 'application/json', 'x-upstream': 'auth' });
      res.end(JSON.stringify({ success: status === 200, echo: { method: entry.method, url: entry.url, body: entry.body } }));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const target = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  gateway = await startGateway({ QUEUE_PREFIX: uniquePrefix('fwd'), AUTH_SERVICE_URL: target, BODY_LIMIT_BYTES: '4096' });
  slowGateway = await startGateway({ QUEUE_PREFIX: uniquePrefix('fwd'), AUTH_SERVICE_URL: target, FORWARD_TIMEOUT_MS: '300' });
  downGateway = await startGateway({ QUEUE_PREFIX: uniquePrefix('fwd'), AUTH_SERVICE_URL: 'http://127.0.0.1:1' });
});

afterAll(async () => {
  await Promise.all([gateway?.close(), slowGateway?.close(), downGateway?.close()]);
  upstream?.closeAllConnections();
  await new Promise((resolve) => upstream?.close(resolve));
});

describe('forwarding /api/auth/* and /api/admin/* to the account service', () => {
  it('forwards method, path, query, headers and the exact body bytes, and relays status and headers', async () => {
    const raw = '{ "email" : "a@b.c",\n  "password": "x" }'; // odd spacing: the bytes must arrive untouched
    const res = await fetch(`${gateway.url}/api/auth/signup?ref=home`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer abc', 'stripe-signature': 't=1,v1=ff' },
      body: raw,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-upstream')).toBe('auth');
    expect(await res.json()).toEqual({ success: true, echo: { method: 'POST', url: '/api/auth/signup?ref=home', body: raw } });
    const last = seen.at(-1)!;
    expect(last.headers.authorization).toBe('Bearer abc');
    expect(last.headers['stripe-signature']).toBe('t=1,v1=ff');
    expect(last.headers['x-forwarded-for']).toBe('127.0.0.1');
  });

  it('ignores X-Forwarded-For from clients that are not trusted proxies', async () => {
    const strict = await startGateway({
      QUEUE_PREFIX: uniquePrefix('fwd'),
      AUTH_SERVICE_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      TRUST_PROXY: '10.9.9.9',
    });
    try {
      await fetch(`${strict.url}/api/auth/me`, { headers: { 'x-forwarded-for': '6.6.6.6' } });
      expect(seen.at(-1)!.headers['x-forwarded-for']).toBe('127.0.0.1');
      // The default trusts a reverse proxy on this machine, which is what sets the header in production.
      await fetch(`${gateway.url}/api/auth/me`, { headers: { 'x-forwarded-for': '6.6.6.6' } });
      expect(seen.at(-1)!.headers['x-forwarded-for']).toBe('6.6.6.6');
    } finally {
      await strict.close();
    }
  });

  it('relays error statuses as they are', async () => {
    const res = await gateway.post('/api/auth/login', { email: 'a@b.c', password: 'nope' });
    expect(res.status).toBe(401);
  });

  it('forwards GET and admin paths', async () => {
    const res = await fetch(`${gateway.url}/api/admin/stats`, { headers: { authorization: 'Bearer t' } });
    expect(res.status).toBe(200);
    expect((await res.json()).echo).toMatchObject({ method: 'GET', url: '/api/admin/stats' });
  });

  it('does not forward internal paths', async () => {
    const before = seen.length;
    const res = await gateway.post('/internal/api-keys/verify', { apiKey: 'x' });
    expect(res.status).toBe(404);
    expect(seen.length).toBe(before);
  });

  it('applies the body limit before forwarding', async () => {
    const res = await gateway.post('/api/auth/signup', { name: 'x'.repeat(5_000) });
    expect(res.status).toBe(413);
  });

  it('answers 503 when the account service is down and 504 when it is too slow', async () => {
    const down = await downGateway.post('/api/auth/login', { email: 'a@b.c' });
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({
      success: false,
      code: 'SERVICE_UNAVAILABLE',
      message: 'The account service is unavailable right now; please retry shortly',
    });
    const slow = await fetch(`${slowGateway.url}/api/auth/slow`);
    expect(slow.status).toBe(504);
    expect(await slow.json()).toMatchObject({ code: 'UPSTREAM_TIMEOUT' });
  });
});

/** A request whose path goes out exactly as written (fetch, like any WHATWG URL, would resolve `..` and `%2e%2e` first). */
function rawRequest(
  base: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; body: string }> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path, method: init.method ?? 'POST', headers: { 'content-type': 'application/json', ...init.headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(init.method === 'GET' ? undefined : (init.body ?? '{"apiKey":"rk_live_x"}'));
  });
}

// Each tries to reach the account service's /internal/* (or leave its own prefix) through the forward.
const TRAVERSALS = [
  '/api/auth/%2e%2e/%2e%2e/internal/api-keys/verify',
  '/api/auth/%2E%2E/%2E%2E/internal/api-keys/verify',
  '/api/auth/.%2e/%2e./internal/api-keys/verify',
  '/api/auth/../../internal/api-keys/verify',
  '/api/auth/login/../../../internal/api-keys/verify',
  '/api/auth/..%2f..%2finternal/api-keys/verify',
  '/api/auth/%2e%2e%2F%2e%2e%2Finternal%2Fapi-keys%2Fverify',
  '/api/auth/..%5c..%5cinternal/api-keys/verify',
  '/api/auth/%5c..%5c..%5cinternal/api-keys/verify',
  '/api/auth//..//..//internal/api-keys/verify',
  '/api/auth/..;/..;/internal/api-keys/verify',
  // Not a traversal, but dropping the parameter would forward DELETE /api/auth/keys (another route than the one matched).
  '/api/auth/keys/;x',
  '/api/auth/keys/%3Bx',
  '/api/auth/%2e%2e;x=1/%2e%2e;/internal/api-keys/verify',
  '/api/auth/%252e%252e/%252e%252e/internal/api-keys/verify',
  '/api/auth/%2e%2e/%2e%2e/internal/api-keys/verify?apiKey=x',
  '/api/admin/%2e%2e/%2e%2e/internal/credits/reserve',
  '/api/admin/../../internal/credits/settle',
  '/api/auth/%2e%2e/admin/stats',
  '/api/admin/%2e%2e/auth/me',
];

describe('the forwarded path stays under its prefix', () => {
  it('refuses every traversal with a clean 400 before the account service sees anything', async () => {
    for (const path of TRAVERSALS) {
      const before = seen.length;
      const res = await rawRequest(gateway.url, path);
      expect(res.status, path).toBe(400);
      expect(JSON.parse(res.body), path).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
      expect(
        seen.slice(before).map((s) => s.url),
        path,
      ).toEqual([]);
    }
    expect(seen.some((s) => s.url.includes('internal'))).toBe(false);
  });

  it('forwards the normalised path with the original query string', async () => {
    const res = await rawRequest(gateway.url, '/api/auth/x/./%2e%2e//me/?next=%2e%2e%2Fadmin&a=1', { method: 'GET' });
    expect(res.status, res.body).toBe(200);
    expect(seen.at(-1)!.url).toBe('/api/auth/me/?next=%2e%2e%2Fadmin&a=1');
  });

  it('forwards the Stripe webhook (not in the document) with its exact bytes', async () => {
    const raw = '{"id":"evt_1",  "type":"invoice.paid"}\n';
    const res = await gateway.post('/api/auth/stripe/webhook', raw, { 'stripe-signature': 't=1,v1=ab' });
    expect(res.status).toBe(200);
    expect(seen.at(-1)).toMatchObject({ url: '/api/auth/stripe/webhook', body: raw });
    expect(seen.at(-1)!.headers['stripe-signature']).toBe('t=1,v1=ab');
  });

  it('never passes the internal token, a user id or any x-internal-* header from a client', async () => {
    const res = await fetch(`${gateway.url}/api/auth/me`, {
      headers: {
        'x-internal-token': 'client-chosen-token',
        'X-User-Id': '00000000-0000-0000-0000-000000000000',
        'x-internal-anything': 'x',
        'x-forwarded-host': 'evil.test',
        authorization: 'Bearer abc',
      },
    });
    expect(res.status).toBe(200);
    const { headers } = seen.at(-1)!;
    expect(headers.authorization).toBe('Bearer abc');
    for (const name of ['x-internal-token', 'x-user-id', 'x-internal-anything']) expect(headers[name], name).toBeUndefined();
    expect(headers['x-forwarded-host']).not.toBe('evil.test');
  });
});

describe('templates forwarding', () => {
  it('cannot be steered out of the template paths by an id or a path', async () => {
    const app = Fastify();
    await app.register(templatesClient, {
      baseUrl: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      internalToken: 'x'.repeat(32),
      timeoutMs: 2_000,
    });
    await app.ready();
    try {
      const before = seen.length;
      for (const id of ['..', '.', '../..', '..%2f..', '%2e%2e', '..\\..']) {
        await expect(app.templatesClient.owner(id), id).rejects.toMatchObject({ code: 'NOT_FOUND' });
        await expect(app.templatesClient.renderInput(id, 'u', {}), id).rejects.toMatchObject({ code: 'NOT_FOUND' });
      }
      for (const path of ['/api/template/%2e%2e', '/api/template/%2e%2e/%2e%2e/internal/templates/x/owner', '/api/template/..%2f..%2fx']) {
        await expect(app.templatesClient.forward('GET', path, {}), path).rejects.toMatchObject({ code: 'NOT_FOUND' });
      }
      expect(seen.slice(before)).toEqual([]);
    } finally {
      await app.close();
    }
  });
});

describe('forwarding to the real account service', () => {
  let auth: Stack;
  let real: TestGateway;

  beforeAll(async () => {
    auth = await startStack();
    real = await startGateway({ QUEUE_PREFIX: uniquePrefix('fwd'), AUTH_SERVICE_URL: auth.url, INTERNAL_TOKEN });
  });

  afterAll(async () => {
    await real?.close();
    await auth?.close();
  });

  it('keeps /internal/* out of reach even with a leaked internal token', async () => {
    const user = await verifiedUser(auth);
    for (const path of TRAVERSALS.filter((p) => p.includes('api-keys/verify'))) {
      const res = await rawRequest(real.url, path, {
        headers: { 'x-internal-token': INTERNAL_TOKEN },
        body: JSON.stringify({ apiKey: user.apiKey }),
      });
      expect(res.status, path).toBe(400);
      expect(res.body, path).not.toContain(user.userId);
    }
  });

  it('reads the account and usage with an API key; the key cannot regenerate itself', async () => {
    const user = await verifiedUser(auth);
    const me = await fetch(`${real.url}/api/auth/me`, { headers: { 'x-api-key': user.apiKey } });
    expect(me.status).toBe(200);
    expect((await json(me)).user.id).toBe(user.userId);
    const usage = await fetch(`${real.url}/api/auth/usage`, { headers: { authorization: `Bearer ${user.apiKey}` } });
    expect(usage.status).toBe(200);
    expect((await json(usage)).data).toMatchObject({ used: 0, plan: 'free' });
    const regen = await fetch(`${real.url}/api/auth/api-key/regenerate`, { method: 'POST', headers: { 'x-api-key': user.apiKey } });
    expect(regen.status).toBe(403);
    expect(await json(regen)).toMatchObject({ success: false, code: 'FORBIDDEN' });
  });

  it('relays auth’s own validation errors and unknown paths (the gateway validates nothing here)', async () => {
    const bad = await real.post('/api/auth/login', { email: 'not-an-email', password: 'x' }, { 'x-request-id': 'login-check-1' });
    expect(bad.status).toBe(400);
    // auth's problem body as it made it: its media type, the path the caller used, the caller's request id.
    expect(bad.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(bad.headers.get('x-request-id')).toBe('login-check-1');
    expect(await json(bad)).toEqual({
      success: false,
      code: 'VALIDATION_ERROR',
      message: 'Invalid email address',
      messageId: 'auth.emailInvalid',
      type: '/docs?tab=errors#validation-error',
      title: 'Invalid request',
      status: 400,
      detail: 'Invalid email address',
      instance: '/api/auth/login',
      requestId: 'login-check-1',
      errors: [{ field: 'email', message: 'Invalid email address', messageId: 'auth.emailInvalid' }],
    });
    const unknown = await fetch(`${real.url}/api/auth/nope`);
    expect(unknown.status).toBe(404);
    expect(await json(unknown)).toMatchObject({ success: false, code: 'NOT_FOUND' });
  });
});

describe('OpenAPI', () => {
  it('documents every public account, billing and admin call, and the document itself', async () => {
    const doc = await (await fetch(`${gateway.url}/api/openapi.json`)).json();
    const expected: Array<[string, string, string]> = [
      ['post', '/api/auth/signup', 'auth'],
      ['post', '/api/auth/verify', 'auth'],
      ['post', '/api/auth/resend-verification', 'auth'],
      ['post', '/api/auth/login', 'auth'],
      ['get', '/api/auth/me', 'auth'],
      ['post', '/api/auth/refresh', 'auth'],
      ['post', '/api/auth/forgot-password', 'auth'],
      ['post', '/api/auth/reset-password', 'auth'],
      ['post', '/api/auth/api-key/regenerate', 'auth'],
      ['get', '/api/auth/usage', 'auth'],
      ['post', '/api/auth/upgrade', 'billing'],
      ['post', '/api/auth/manage-billing', 'billing'],
      ['post', '/api/auth/cancel-subscription', 'billing'],
      ['post', '/api/auth/reactivate-subscription', 'billing'],
      ['get', '/api/auth/payment-info', 'billing'],
      ['get', '/api/admin/stats', 'admin'],
      ['get', '/api/openapi.json', 'system'],
    ];
    for (const [method, path, tag] of expected) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op.tags, path).toEqual([tag]);
      expect(op.summary, path).toEqual(expect.any(String));
      expect(
        Object.keys(op.responses).some((s) => s.startsWith('2')),
        path,
      ).toBe(true);
    }
    const login = doc.paths['/api/auth/login'].post;
    expect(login.security).toEqual([]);
    expect(login.requestBody.content['application/json'].schema.required).toEqual(['email', 'password']);
    expect(Object.keys(login.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '429', '503']));
    expect(doc.paths['/api/auth/usage'].get.security).toEqual(expect.arrayContaining([{ apiKey: [] }, { bearerAuth: [] }]));
    expect(doc.paths['/api/auth/api-key/regenerate'].post.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths['/api/auth/me'].get.responses['200'].content['application/json'].schema.properties.user).toBeDefined();
    // Nothing internal or catch-all leaks into the document, nor Stripe's own webhook (only Stripe calls it).
    expect(Object.keys(doc.paths).filter((p) => p.includes('internal') || p.includes('*') || p.includes('stripe'))).toEqual([]);
  });
});
