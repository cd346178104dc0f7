import { createServer, type Server } from 'node:http';
import { parseAllowlist } from '@render/egress-policy';
import { PNG } from 'pngjs';
import type { CDPSession, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EgressProxy, startEgressProxy } from '../src/egress/egress-proxy.ts';
import type { RendererContext } from '../src/renderers/page/renderer.ts';
import { renderScreenshot } from '../src/renderers/screenshot/screenshot.renderer.ts';
import { closeServers, listen } from './helpers/local-servers.ts';
import { screenshotJob } from './helpers/screenshot-job.ts';
import { startTestPool, type TestPool } from './helpers/test-pool.ts';

// What a screenshot asks of DevTools on its way, in a real Chromium: the calls before its navigation and
// after its load event are the job's own latency (each a round trip to the browser and often its renderer).
// A caller's repeated screenshot on the context its last job left (context affinity) sends none of the
// emulation again; a page without a banner is looked at once after its load (fonts, consent signs and the
// consent rules' containers together) and its utility world is already there. A changed setting is applied
// in full, and the page shows it.

let proxy: EgressProxy;
let pool: TestPool;
let pages: { server: Server; port: number };

/** Red when the page and Intl both say French, blue otherwise (what the language settings reach). */
const LANGUAGE_PAGE = `<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0"><div id="shop" class="card" style="height:2000px"></div>
<script>document.body.style.background = navigator.language === 'fr-FR' && new Intl.NumberFormat().resolvedOptions().locale.startsWith('fr') ? 'rgb(255,0,0)' : 'rgb(0,0,255)';</script></body></html>`;

/** Every DevTools method sent while a job's task runs, with the target of the session that sent it. */
const sent: { method: string; target: unknown }[] = [];
let record = false;

beforeAll(async () => {
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(LANGUAGE_PAGE));
  pages = { server, port: await listen(server) };
  proxy = await startEgressProxy({ allowlist: parseAllowlist(`127.0.0.1:${pages.port}`) });
  // One context per caller: its next job always waits for that context's wipe and runs on it.
  pool = await startTestPool('screenshot', proxy.url, 'round-trips-test', 1, {
    affinity: { maxJobs: 50, maxAgeMs: 600_000, idleMs: 60_000, maxKept: 4, contextsPerCaller: 1 },
  });
  // Every session is of the same class: its `send` is wrapped to note the methods.
  const browser = await pool.manager.get();
  const context = await browser.createBrowserContext();
  const probe = await pool.manager.newPage(context);
  const session = await probe.createCDPSession();
  const proto = Object.getPrototypeOf(session) as { send: CDPSession['send'] };
  const send = proto.send;
  proto.send = function (this: CDPSession, ...args: Parameters<CDPSession['send']>) {
    if (record) sent.push({ method: args[0], target: targetOf(this) });
    return send.apply(this, args);
  } as CDPSession['send'];
  await session.detach();
  await context.close();
});

afterAll(async () => {
  await pool?.close();
  await proxy?.close();
  closeServers(pages?.server);
});

const targetOf = (session: CDPSession) => {
  try {
    return (session as unknown as { target(): unknown }).target();
  } catch {
    return undefined;
  }
};

/** The page of the job running (the pool's other work, e.g. a spare context opening, is not the job's). */
let jobPage: Page | undefined;

const ctx: RendererContext = {
  // The task marks when the job's page is in use: what the pool does between jobs is not the job's.
  pool: async () => ({
    run: (task, options) =>
      pool.cluster.run(async (args) => {
        jobPage = args.page;
        record = true;
        try {
          return await task(args);
        } finally {
          record = false;
        }
      }, options),
    close: () => pool.cluster.close(),
  }),
  timeoutMs: 10_000,
  imageFetch: { proxyUrl: 'http://127.0.0.1:9', maxBytes: 1024, timeoutMs: 1_000 },
  caller: 'caller-a',
};

const pixel = (bytes: Buffer, x: number, y: number) => {
  const png = PNG.sync.read(bytes);
  const i = (png.width * y + x) * 4;
  return [png.data[i], png.data[i + 1], png.data[i + 2]];
};

async function shoot(extra: Parameters<typeof screenshotJob>[1]) {
  sent.length = 0;
  const image = await renderScreenshot(screenshotJob(`http://127.0.0.1:${pages.port}/`, extra), ctx);
  const target = jobPage?.target();
  return { image, sent: sent.filter((call) => call.target === target).map((call) => call.method) };
}

const EMULATION = ['Emulation.setUserAgentOverride', 'Emulation.setLocaleOverride', 'Emulation.setDeviceMetricsOverride'];

describe('screenshot round trips', () => {
  it('a caller’s repeated screenshot sends no emulation again and looks at its page once after the load', async () => {
    const first = await shoot({ language: 'fr-FR' });
    expect(pixel(first.image.bytes, 10, 10)).toEqual([255, 0, 0]);
    expect(first.sent).toEqual(expect.arrayContaining(EMULATION));

    const again = await shoot({ language: 'fr-FR' });
    expect(pixel(again.image.bytes, 10, 10)).toEqual([255, 0, 0]);
    for (const method of EMULATION) expect(again.sent).not.toContain(method);
    // The utility world came with the document; one look (fonts, consent signs, the rules' containers).

    expect(again.sent).not.toContain('Page.createIsolatedWorld');
    expect(again.sent).not.toContain('Page.getFrameTree');
    expect(again.sent.filter((method) => method === 'Runtime.callFunctionOn')).toHaveLength(1);
  });

  it('a changed setting is applied in full, and the page shows it', async () => {
    const english = await shoot({ language: 'en-US', width: 320 });
    expect(english.image.width).toBe(320);
    expect(pixel(english.image.bytes, 10, 10)).toEqual([0, 0, 255]);
    expect(english.sent).toEqual(expect.arrayContaining(EMULATION));

    const french = await shoot({ language: 'fr-FR' });
    expect(french.image.width).toBe(400);
    expect(pixel(french.image.bytes, 10, 10)).toEqual([255, 0, 0]);
  });
});
