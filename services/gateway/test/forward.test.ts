import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
