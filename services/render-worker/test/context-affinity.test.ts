import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseAllowlist } from '@render/egress-policy';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EgressProxy, startEgressProxy } from '../src/egress/egress-proxy.ts';
import { startTestPool, type TestPool } from './helpers/test-pool.ts';

// Context affinity of the screenshot pool (page-pool-concurrency.ts, context-reset.ts): a caller's next job
// runs in the context its last job left, wiped; another caller's job never does. Over a real Chromium and
// the real egress proxy, with two origins (the page's and an iframe's).

let proxy: EgressProxy;
let pool: TestPool;
let top: { server: Server; port: number };
let other: { server: Server; port: number };
const hits = { cached: 0 };
const headersSeen: Record<string, string | undefined>[] = [];

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

/** Leaves everything a page can leave: cookies (header and script), storage of both kinds, IndexedDB, a service worker, Cache API, HTTP cache, window.name, and a frame of another origin with its own storage. */
const SET_STATE = `(async () => {
  document.cookie = 'script=1; max-age=3600';
  localStorage.setItem('k', 'v');
  sessionStorage.setItem('k', 'v');
  await new Promise((resolve, reject) => {
    const open = indexedDB.open('db', 1);
    open.onupgradeneeded = () => open.result.createObjectStore('s');
    open.onsuccess = () => { open.result.close(); resolve(); };
    open.onerror = reject;
  });
  await navigator.serviceWorker.register('/sw.js');
  await navigator.serviceWorker.ready;
  await (await caches.open('c')).put('/entry', new Response('secret'));
  window.name = 'secret';
  history.pushState({}, '', '/set?pushed');
  await new Promise((resolve) => { const frame = document.querySelector('iframe'); frame.contentWindow.postMessage('set', '*'); addEventListener('message', resolve, { once: true }); });
  return true;
})()`;

const READ_STATE = `(async () => ({
  cookie: document.cookie,
  local: localStorage.length,
  session: sessionStorage.length,
  idb: (await indexedDB.databases()).length,
  serviceWorkers: (await navigator.serviceWorker.getRegistrations()).length,
  controlled: Boolean(navigator.serviceWorker.controller),
  caches: (await caches.keys()).length,
  name: window.name,
  history: history.length,
  dark: matchMedia('(prefers-color-scheme: dark)').matches,
  frameLocal: await new Promise((resolve) => { document.querySelector('iframe').contentWindow.postMessage('read', '*'); addEventListener('message', (e) => resolve(e.data), { once: true }); }),
}))()`;

const EMPTY = {
  cookie: '',
  local: 0,
  session: 0,
  idb: 0,
  serviceWorkers: 0,
  controlled: false,
  caches: 0,
  name: '',
  // A new tab's first document and this one (the wiped page's history is reset to about:blank).
  history: 2,
  dark: false,
  frameLocal: 0,
};

type State = typeof EMPTY;

beforeAll(async () => {
  const otherServer = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<script>addEventListener('message', (e) => {
      if (e.data === 'set') { localStorage.setItem('f', 'v'); parent.postMessage('ok', '*'); }
      else parent.postMessage(localStorage.length, '*');
    })</script>`);
  });
  other = { server: otherServer, port: await listen(otherServer) };
  const server = createServer((req, res) => {
    if (req.url === '/sw.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(
        `self.addEventListener('fetch', (e) => e.respondWith(new Response('from the service worker', { headers: { 'content-type': 'text/html' } })));`,
      );
      return;
    }
    if (req.url === '/cached.js') {
      hits.cached += 1;
      res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'public, max-age=3600' });
      res.end('window.cachedScript = true;');
      return;
    }
    headersSeen.push({ url: req.url, cookie: req.headers.cookie, secret: req.headers['x-secret'] as string | undefined });
    // Only the page that leaves state sets a cookie by header; the reading page must not make its own.
    res.writeHead(200, { 'content-type': 'text/html', ...(req.url === '/set' ? { 'set-cookie': 'header=1; Max-Age=3600; Path=/' } : {}) });
    res.end(
      `<!doctype html><title>t</title><script src="/cached.js"></script><iframe src="http://127.0.0.1:${other.port}/frame"></iframe>`,
    );
  });
  top = { server, port: await listen(server) };
  proxy = await startEgressProxy({ allowlist: parseAllowlist(`127.0.0.1:${top.port},127.0.0.1:${other.port}`) });
  pool = await startTestPool('screenshot', proxy.url, 'affinity-test', 1, {
    affinity: { maxJobs: 4, maxAgeMs: 60_000, idleMs: 60_000, maxKept: 2 },
  });
});

afterAll(async () => {
  await pool?.close();
  await proxy?.close();
  top?.server.close();
  other?.server.close();
});

async function load(page: Page, path = '/page'): Promise<void> {
  await page.goto(`http://127.0.0.1:${top.port}${path}`, { waitUntil: 'load' });
  await page.waitForFunction(() => (window as unknown as { cachedScript?: boolean }).cachedScript === true);
}

/** One job: answers the id of the context it ran in and what `fn` found. */
function job<T>(caller: string | undefined, fn: (page: Page) => Promise<T>): Promise<{ context: string | undefined; value: T }> {
  return pool.cluster.run(async ({ page }) => ({ context: page.browserContext().id, value: await fn(page) }), caller ? { caller } : {});
}

const leaveState = (page: Page) =>
  load(page, '/set').then(async () => {
    await page.setExtraHTTPHeaders({ 'x-secret': '1' });
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
    return page.evaluate(SET_STATE);
  });

const readState = (page: Page) => load(page).then(() => page.evaluate(READ_STATE) as Promise<State>);

describe('context affinity', () => {
  it('a caller’s next job runs in its last context, with nothing of the last job left', async () => {
    const first = await job('caller-a', leaveState);
    expect(first.value).toBe(true);
    const cachedBefore = hits.cached;
    const seenBefore = headersSeen.length;
    const second = await job('caller-a', readState);
    expect(second.context).toBe(first.context);
    expect(second.value).toEqual(EMPTY);
    // No cookie, no extra header reached the server; the script was fetched again (HTTP cache cleared).
    expect(headersSeen.slice(seenBefore)).toEqual([{ url: '/page', cookie: undefined, secret: undefined }]);
    expect(hits.cached).toBe(cachedBefore + 1);
  });

  it('the state is seen within one job (the checks can fail)', async () => {
    const { value } = await job('caller-c', async (page) => {
      await leaveState(page);
      return page.evaluate(READ_STATE) as Promise<State>;
    });
    expect(value).toMatchObject({ local: 1, session: 1, idb: 1, serviceWorkers: 1, caches: 1, name: 'secret', frameLocal: 1, dark: true });
    expect(value.cookie).toContain('script=1');
    expect(value.cookie).toContain('header=1');
    expect(value.history).toBe(3);
  });

  it('another caller never gets a caller’s context, and that context waits for its own caller', async () => {
    const a = await job('caller-a', leaveState);
    const b = await job('caller-b', readState);
    expect(b.context).not.toBe(a.context);
    expect(b.value).toEqual(EMPTY);
    const anonymous = await job(undefined, readState);
    expect(anonymous.context).not.toBe(a.context);
    expect(anonymous.value).toEqual(EMPTY);
    const again = await job('caller-a', readState);
    expect(again.context).toBe(a.context);
    expect(again.value).toEqual(EMPTY);
  });

  it('a job without a caller leaves no context behind', async () => {
    const first = await job(undefined, leaveState);
    const second = await job(undefined, readState);
    expect(second.context).not.toBe(first.context);
  });

  it('a failed job’s context is closed, not kept', async () => {
    const ok = await job('caller-d', readState);
    await expect(
      job('caller-d', async (page) => {
        await load(page);
        throw new Error('the job failed');
      }),
    ).rejects.toThrow('the job failed');
    const next = await job('caller-d', readState);
    expect(next.context).not.toBe(ok.context);
  });

  it('a context is closed after maxJobs jobs of its caller', async () => {
    const contexts: (string | undefined)[] = [];
    for (let i = 0; i < 5; i += 1) contexts.push((await job('caller-e', readState)).context);
    expect(new Set(contexts.slice(0, 4)).size).toBe(1);
    expect(contexts[4]).not.toBe(contexts[0]);
  });
});
