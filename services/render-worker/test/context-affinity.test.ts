import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseAllowlist } from '@render/egress-policy';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EgressProxy, startEgressProxy } from '../src/egress/egress-proxy.ts';
import { startTestPool, type TestPool } from './helpers/test-pool.ts';

// Context affinity of the screenshot pool (page-pool-concurrency.ts, context-reset.ts): a caller's next job
// runs in one of the (at most two) contexts its last jobs left, wiped; another caller's job never does. Over
// a real Chromium and the real egress proxy, with two origins (the page's and an iframe's). Which of its two
// contexts a caller's job gets depends on whether a wipe has finished, so the tests assert what holds either
// way: every job finds nothing of any earlier one, a caller's contexts are only ever its own, at most two.

let proxy: EgressProxy;
let pool: TestPool;
let top: { server: Server; port: number };
let other: { server: Server; port: number };
const hits = { cached: 0 };
const headersSeen: Record<string, string | undefined>[] = [];

const MAX_JOBS = 5;
/** Every job run: whose it was and the context it ran in (the last test checks no context served two callers). */
const ran: { caller: string | undefined; context: string | undefined }[] = [];

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
    affinity: { maxJobs: MAX_JOBS, maxAgeMs: 60_000, idleMs: 60_000, maxKept: 2, contextsPerCaller: 2 },
  });
}, 60_000);

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
async function job<T>(caller: string | undefined, fn: (page: Page) => Promise<T>): Promise<{ context: string | undefined; value: T }> {
  const done = await pool.cluster.run(
    async ({ page }) => ({ context: page.browserContext().id, value: await fn(page) }),
    caller ? { caller } : {},
  );
  ran.push({ caller, context: done.context });
  return done;
}

const leaveState = (page: Page) =>
  load(page, '/set').then(async () => {
    await page.setExtraHTTPHeaders({ 'x-secret': '1' });
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
    return page.evaluate(SET_STATE);
  });

const readState = (page: Page) => load(page).then(() => page.evaluate(READ_STATE) as Promise<State>);

/** Reads what the page finds (and what reached the server while it loaded), then leaves everything behind. */
const readThenLeave = async (page: Page) => {
  const cachedBefore = hits.cached;
  const seenBefore = headersSeen.length;
  const state = await readState(page);
  const fetched = { cached: hits.cached - cachedBefore, seen: headersSeen.slice(seenBefore) };
  await leaveState(page);
  return { state, fetched };
};

const contextsOf = (caller: string) => new Set(ran.filter((one) => one.caller === caller).map((one) => one.context));

describe('context affinity', () => {
  it('a caller’s jobs run in at most two contexts of its own, with nothing of any earlier job left', async () => {
    for (let i = 0; i < 6; i += 1) {
      const { value } = await job('caller-a', readThenLeave);
      expect(value.state).toEqual(EMPTY);
      // No cookie, no extra header reached the server; the script was fetched again (HTTP cache cleared).
      expect(value.fetched).toEqual({ cached: 1, seen: [{ url: '/page', cookie: undefined, secret: undefined }] });
    }
    // Six jobs, each leaving everything behind, in at most two contexts: four or more ran in a context an
    // earlier job of the caller had used, and found nothing of it.
    expect(contextsOf('caller-a').size).toBeLessThanOrEqual(2);
  }, 30_000);

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
    const f = await job('caller-f', leaveState);
    const b = await job('caller-b', readState);
    expect(b.context).not.toBe(f.context);
    expect(b.value).toEqual(EMPTY);
    const anonymous = await job(undefined, readState);
    expect([f.context, b.context]).not.toContain(anonymous.context);
    expect(anonymous.value).toEqual(EMPTY);
    for (let i = 0; i < 2; i += 1) {
      const again = await job('caller-f', readState);
      expect([b.context, anonymous.context]).not.toContain(again.context);
      expect(again.value).toEqual(EMPTY);
    }
    // Three jobs of caller-f, other callers' jobs in between, at most two contexts: one was kept for it.
    expect(contextsOf('caller-f').size).toBeLessThanOrEqual(2);
  }, 30_000);

  it('a job without a caller leaves no context behind', async () => {
    const first = await job(undefined, leaveState);
    const second = await job(undefined, readState);
    expect(second.context).not.toBe(first.context);
  });

  it('a failed job’s context is closed, not kept', async () => {
    await job('caller-d', readState);
    let failedIn: string | undefined;
    await expect(
      job('caller-d', async (page) => {
        failedIn = page.browserContext().id;
        await load(page);
        throw new Error('the job failed');
      }),
    ).rejects.toThrow('the job failed');
    expect(failedIn).toBeDefined();
    for (let i = 0; i < 3; i += 1) expect((await job('caller-d', readState)).context).not.toBe(failedIn);
  }, 30_000);

  it('a context serves at most maxJobs jobs of its caller', async () => {
    for (let i = 0; i < 12; i += 1) await job('caller-e', readState);
    const perContext = new Map<string | undefined, number>();
    for (const one of ran.filter((r) => r.caller === 'caller-e')) perContext.set(one.context, (perContext.get(one.context) ?? 0) + 1);
    expect(Math.max(...perContext.values())).toBeLessThanOrEqual(MAX_JOBS);
    expect(perContext.size).toBeGreaterThanOrEqual(Math.ceil(12 / MAX_JOBS));
  }, 60_000);

  it('no context ever served two callers, nor a caller and a job without one', () => {
    const owner = new Map<string | undefined, string>();
    for (const one of ran) {
      const who = one.caller ?? `anonymous ${ran.indexOf(one)}`;
      expect(owner.get(one.context) ?? who).toBe(who);
      owner.set(one.context, who);
    }
    expect(owner.size).toBeGreaterThan(8);
  });
});
