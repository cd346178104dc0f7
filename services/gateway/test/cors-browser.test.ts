import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RenderWorkerHandle } from '@render/render-worker';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCorsOrigins } from '../src/plugins/cors.plugin.ts';
import { INTERNAL_TOKEN, type Stack, startStack, verifiedUser } from './helpers/auth-stack.ts';
import { startGateway, startWorker, type TestGateway, uniquePrefix } from './helpers/stack.ts';

// CORS as a browser applies it: pages served from other origins (other ports of 127.0.0.1) call the gateway with
// fetch in a real Chromium, preflights included.

/** A page origin: serves an empty page, from which the tests run fetch. */
async function startPageOrigin() {
  const server = http.createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>other site</title>'),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(r)) };
}

interface FetchOutcome {
  ok: boolean;
  status?: number;
  headers?: Record<string, string | null>;
  body?: Record<string, unknown>;
  error?: string;
}

/** fetch from the page: what its script may read of the answer, or the browser's refusal. */
function fetchFrom(page: Page, url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return page.evaluate(
    async ({ url, init }): Promise<FetchOutcome> => {
      try {
        const res = await fetch(url, init);
        const names = ['x-request-id', 'x-render-time', 'x-queue-time', 'x-cache', 'retry-after', 'content-type'];
        const headers = Object.fromEntries(names.map((name) => [name, res.headers.get(name)]));
        const text = await res.text();
        let body: Record<string, unknown> | undefined;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        return { ok: true, status: res.status, headers, body };
      } catch (err) {
        return { ok: false, error: String(err) };
      }
    },
    { url, init },
  );
}

const prefix = uniquePrefix('cors');
let auth: Stack;
let worker: RenderWorkerHandle;
let listed: TestGateway;
let anyOrigin: TestGateway;
let off: TestGateway;
let allowedPage: { origin: string; close(): Promise<unknown> };
let otherPage: { origin: string; close(): Promise<unknown> };
let browser: Browser;
let user: Awaited<ReturnType<typeof verifiedUser>>;

beforeAll(async () => {
  allowedPage = await startPageOrigin();
  otherPage = await startPageOrigin();
  auth = await startStack();
  worker = await startWorker({ QUEUE_PREFIX: prefix, RENDER_QUEUES: 'svg' });
  const env = { QUEUE_PREFIX: prefix, AUTH_SERVICE_URL: auth.url, INTERNAL_TOKEN };
  listed = await startGateway({ ...env, CORS_ORIGINS: `https://app.example.com, ${allowedPage.origin}` });
  anyOrigin = await startGateway({ ...env, CORS_ORIGINS: '*' });
  off = await startGateway(env);
  user = await verifiedUser(auth);
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: ['--no-sandbox'] });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([listed?.close(), anyOrigin?.close(), off?.close()]);
  await worker?.close();
  await auth?.close();
  await Promise.all([allowedPage?.close(), otherPage?.close()]);
});

async function pageAt(origin: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(origin);
  return page;
}

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="80" height="40"><rect width="80" height="40" fill="#369"/></svg>';
const renderInit = (headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-request-id': 'from-the-page-1', ...headers },
  body: JSON.stringify({ svg: SVG, format: 'png', output: 'json' }),
});

describe('CORS in a real browser', () => {
  it('a listed origin renders with its API key (preflighted) and reads the render and request-id headers', async () => {
    const page = await pageAt(allowedPage.origin);
    const outcome = await fetchFrom(page, `${listed.url}/api/svg-to-img/convert`, renderInit({ 'x-api-key': user.apiKey }));
    expect(outcome.ok, outcome.error).toBe(true);
    expect(outcome.status).toBe(200);
    expect(outcome.body).toMatchObject({ data: { mimeType: 'image/png' } });
    expect(outcome.headers?.['x-request-id']).toBe('from-the-page-1');
    expect(outcome.headers?.['x-render-time']).toMatch(/^\d+$/);
    expect(outcome.headers?.['x-queue-time']).toMatch(/^\d+$/);
    // Its session works too: the origin is trusted like the web app's own.
    const me = await fetchFrom(page, `${listed.url}/api/auth/me`, { headers: { authorization: `Bearer ${user.token}` } });
    expect(me.status).toBe(200);
    // An error is readable as well: its problem body and its request id.
    const refused = await fetchFrom(page, `${listed.url}/api/svg-to-img/convert`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(refused.status).toBe(400);
    expect(refused.headers?.['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({ code: 'VALIDATION_ERROR', requestId: refused.headers?.['x-request-id'] });
    await page.close();
  });

  it('an origin not listed is refused by the browser (no CORS headers), simple and preflighted calls alike', async () => {
    const page = await pageAt(otherPage.origin);
    const simple = await fetchFrom(page, `${listed.url}/api/ping`);
    expect(simple.ok).toBe(false);
    expect(simple.error).toMatch(/Failed to fetch/);
    const preflighted = await fetchFrom(page, `${listed.url}/api/svg-to-img/convert`, renderInit({ 'x-api-key': user.apiKey }));
    expect(preflighted.ok).toBe(false);
    await page.close();
  });

  it('CORS off (the default): no other origin can read anything', async () => {
    const page = await pageAt(allowedPage.origin);
    expect((await fetchFrom(page, `${off.url}/api/ping`)).ok).toBe(false);
    expect((await fetchFrom(page, `${off.url}/api/svg-to-img/convert`, renderInit({ 'x-api-key': user.apiKey }))).ok).toBe(false);
    await page.close();
  });

  it('"*": any origin may call anonymously or with an API key, never with a session token', async () => {
    const page = await pageAt(otherPage.origin);
    const anonymous = await fetchFrom(page, `${anyOrigin.url}/api/svg-to-img/convert`, renderInit());
    expect(anonymous.status).toBe(200);
    const keyed = await fetchFrom(page, `${anyOrigin.url}/api/svg-to-img/convert`, renderInit({ authorization: `Bearer ${user.apiKey}` }));
    expect(keyed.status).toBe(200);
    expect(keyed.headers?.['x-render-time']).toMatch(/^\d+$/);
    const session = await fetchFrom(page, `${anyOrigin.url}/api/auth/me`, { headers: { authorization: `Bearer ${user.token}` } });
    expect(session.status).toBe(403);
    expect(session.body).toMatchObject({ code: 'FORBIDDEN' });
    expect(String(session.body?.message)).toMatch(/Session tokens are accepted only from the web app’s own origin/);
    await page.close();
    // The gateway's own origin (the web app it serves) keeps its sessions.
    const own = await fetch(`${anyOrigin.url}/api/auth/me`, { headers: { origin: anyOrigin.url, authorization: `Bearer ${user.token}` } });
    expect(own.status).toBe(200);
  });

  it('answers preflights with the allowed and exposed headers, and never allows credentials', async () => {
    const res = await fetch(`${listed.url}/api/template`, {
      method: 'OPTIONS',
      headers: {
        origin: allowedPage.origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, idempotency-key, x-request-id',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(allowedPage.origin);
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('access-control-allow-headers')).toBe('content-type, authorization, x-api-key, idempotency-key, x-request-id');
    expect(res.headers.get('vary')).toMatch(/origin/i);
    const simple = await fetch(`${anyOrigin.url}/api/ping`, { headers: { origin: 'https://anyone.example' } });
    expect(simple.headers.get('access-control-allow-origin')).toBe('*');
    expect(simple.headers.get('access-control-expose-headers')).toMatch(
      /X-Request-Id.*X-Render-Time.*X-Credits-Remaining.*RateLimit.*Retry-After/,
    );
  });
});

describe('CORS_ORIGINS', () => {
  it('takes origins and "*"; anything else stops the boot naming the entry', () => {
    expect(parseCorsOrigins('')).toBeNull();
    expect(parseCorsOrigins(' https://a.example , http://127.0.0.1:8080,*')).toEqual({
      origins: new Set(['https://a.example', 'http://127.0.0.1:8080']),
      anyOrigin: true,
    });
    for (const bad of ['https://a.example/', 'https://a.example/path', 'a.example', 'ftp://a.example', 'null']) {
      expect(() => parseCorsOrigins(bad), bad).toThrow(`"${bad}"`);
    }
  });
});
