import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RenderWorkerHandle } from '@render/render-worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_TOKEN, type Stack, startStack, verifiedUser } from '../../auth/test/helpers/stack.ts';
import { startGateway, startWorker, type TestGateway, uniquePrefix } from './helpers/stack.ts';

// Issue 29 §1: QuickChart configs are JavaScript, evaluated only in the worker's render page. A hostile config
// reaches nothing: no loopback service (by fetch, XHR, image, beacon, navigation), no Node, and nothing of
// another job (the page that ran code is reset before anyone else uses it). Billing is chart-to-img's, with
// the key also accepted as `key=` in the query.
let gateway: TestGateway;
let limited: TestGateway;
let worker: RenderWorkerHandle;
let auth: Stack;
let target: Server;
const hits: string[] = [];

beforeAll(async () => {
  const prefix = uniquePrefix('quickchart-iso');
  auth = await startStack();
  target = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.end('internal secret');
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  worker = await startWorker({ QUEUE_PREFIX: prefix, RENDER_QUEUES: 'chart', RENDER_PAGES: '1' });
  gateway = await startGateway({ QUEUE_PREFIX: prefix, AUTH_SERVICE_URL: auth.url, INTERNAL_TOKEN });
  limited = await startGateway({ QUEUE_PREFIX: prefix, AUTH_SERVICE_URL: auth.url, INTERNAL_TOKEN, ANON_RATE_LIMIT_PER_MINUTE: '2' });
}, 120_000);

afterAll(async () => {
  await Promise.all([gateway?.close(), limited?.close()]);
  await worker?.close();
  await auth?.close();
  await new Promise((resolve) => target?.close(resolve));
});

const get = (on: TestGateway, query: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${on.url}/chart?${new URLSearchParams(query)}`, { headers });

/** A config whose label is computed by code; the code's findings come back as the render's error message. */
const probing = (body: string) => `{type: 'bar', data: {labels: [(function () { ${body} })()], datasets: [{data: [1]}]}}`;

describe('JavaScript in QuickChart configs', () => {
  it('function callbacks work (tick and datalabels formatters)', async () => {
    const chart = `{type:'bar',data:{labels:['a','b'],datasets:[{data:[1,2]}]},options:{scales:{yAxes:[{ticks:{callback:function(v){return '$'+v}}}]},plugins:{datalabels:{display:true,formatter:(v)=>v+'%'}}}}`;
    const res = await get(gateway, { c: chart, w: '200', h: '100' });
    expect(res.status, await res.clone().text()).toBe(200);
  });

  it('a hostile function reaches no service, no Node, no network', async () => {
    const base = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    const probe = probing(`
      var out = [];
      try { var x = new XMLHttpRequest(); x.open('GET', '${base}/xhr', false); x.send(); out.push('xhr:' + x.status + ':' + x.responseText); }
      catch (e) { out.push('xhr-refused'); }
      try { fetch('${base}/fetch').then(function () {}, function () {}); } catch (e) {}
      try { new Image().src = '${base}/img'; } catch (e) {}
      try { navigator.sendBeacon('${base}/beacon', 'x'); } catch (e) {}
      try { new WebSocket('ws://127.0.0.1:${(target.address() as AddressInfo).port}/ws'); } catch (e) {}
      try { var f = document.createElement('iframe'); f.src = '${base}/frame'; document.body.appendChild(f); } catch (e) {}
      out.push('require:' + typeof require, 'process:' + typeof process, 'Buffer:' + typeof Buffer, 'module:' + typeof module);
      throw new Error('probe ' + out.join(' '));`);
    const res = await get(gateway, { c: probe });
    expect(res.status).toBe(422);
    const message = await res.text();
    expect(message).toContain('xhr-refused');
    expect(message).toContain('require:undefined process:undefined Buffer:undefined module:undefined');
    // Navigation is not covered by CSP: the egress proxy refuses loopback.
    const nav = await get(gateway, { c: probing(`location.href = '${base}/navigate'; return 'x';`) });
    expect(nav.status).toBeLessThan(500);
    // What was sent could only arrive after the renders: one more render on the same single page comes after.
    expect((await get(gateway, { c: probing("return 'after';") })).status).toBe(200);
    expect(hits).toEqual([]);
  });

  it("nothing one config's code leaves in the page meets the next job", async () => {
    const plant = probing(`
      window.__leak = 'secret'; window.name = 'secret';
      Array.prototype.secret = 'secret';
      setInterval(function () { document.title = 'secret'; }, 1);
      return 'planted';`);
    const look = probing(`
      var found = [window.__leak, window.name, [].secret, document.title].filter(Boolean);
      if (found.length) throw new Error('LEAK ' + found.join(','));
      return 'clean';`);
    for (let round = 0; round < 3; round++) {
      expect((await get(gateway, { c: plant })).status).toBe(200);
      const res = await get(gateway, { c: look });
      expect(res.status, await res.clone().text()).toBe(200);
    }
  });
});

describe('limits and billing (as chart-to-img)', () => {
  it('a key in `key=` is charged like X-API-Key; an unknown key is 401', async () => {
    const user = await verifiedUser(auth);
    const usage = async () => {
      const r = await auth.call('GET', '/api/auth/usage', { token: user.token });
      return ((await r.json()) as { data: { used: number } }).data.used;
    };
    const before = await usage();
    const res = await get(gateway, { c: "{type:'bar',data:{datasets:[{data:[1]}]}}", key: user.apiKey });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-remaining')).not.toBeNull();
    expect(await usage()).toBe(before + 1);
    expect((await get(gateway, { c: '{}', key: 'rk_not-a-key' })).status).toBe(401);
  });

  it('anonymous callers get the per-IP limit', async () => {
    const chart = "{type:'bar',data:{datasets:[{data:[1]}]}}";
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await get(limited, { c: chart, w: '100', h: '100', devicePixelRatio: '1' })).status);
    expect(statuses.slice(0, 2)).toEqual([200, 200]);
    expect(statuses).toContain(429);
  });
});
