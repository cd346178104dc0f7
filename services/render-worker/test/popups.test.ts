import { setTimeout as sleep } from 'node:timers/promises';
import { parseAllowlist } from '@render/egress-policy';
import type { HtmlRenderPayload } from '@render/queue';
import { PNG } from 'pngjs';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EgressProxy, startEgressProxy } from '../src/egress/egress-proxy.ts';
import { renderHtml } from '../src/renderers/html/html.renderer.ts';
import type { RendererContext } from '../src/renderers/page/renderer.ts';
import { startTestPool, type TestPool } from './helpers/test-pool.ts';

// A window a render opens must not outlive the render: it would keep running the caller's scripts in the
// worker's browser (timers, requests) long after the job, where page reset and recycling never reach it.
// A popup's "beacon" requests go to a name the proxy cannot resolve, so every one is counted as unresolved:
// the proxy's count tells whether any popup script still runs, without anything leaving the box.

// No quotes of either kind: it is embedded in JS strings and in an HTML attribute below.
// biome-ignore lint/suspicious/noTemplateCurlyInString: page code, evaluated in the popup
const BEACON = 'setInterval(() => fetch(`http://popup-beacon.test/${Date.now()}`).catch(() => {}), 50)';
const BEACON_DOC = `<script>${BEACON}<\\/script>`;
const blobPopup = `URL.createObjectURL(new Blob(['${BEACON_DOC}'], { type: 'text/html' }))`;

const POPUPS: [string, string][] = [
  ['window.open(about:blank) written into', `<script>window.open('about:blank').document.write('${BEACON_DOC}')</script>`],
  ['window.open(blob:)', `<script>window.open(${blobPopup})</script>`],
  ['window.open with noopener', `<script>window.open(${blobPopup}, '_blank', 'noopener')</script>`],
  [
    '<a target=_blank> clicked',
    `<a id="a" target="_blank">x</a><script>const a = document.getElementById('a'); a.href = ${blobPopup}; a.click()</script>`,
  ],
  [
    '<form target=_blank> submitted',
    `<form id="f" target="_blank" method="get" action="about:blank"></form><script>document.getElementById('f').submit()</script>`,
  ],
  ['window.open from an iframe', `<iframe srcdoc="<script>window.open('about:blank').document.write('${BEACON_DOC}')</script>"></iframe>`],
];

// A window that keeps sending its opener (one of the pool's warm pages) elsewhere, long after its own job.
const HIJACKER = `<script>window.open('about:blank').document.write('<script>setInterval(() => { opener.location = "about:blank?" + Date.now() }, 20)<\\/script>')</script>`;

const darkPixels = (bytes: Buffer) => {
  const { data } = PNG.sync.read(bytes);
  let dark = 0;
  for (let i = 0; i < data.length; i += 4) if ((data[i] ?? 255) < 100) dark += 1;
  return dark;
};

const payload = (html: string): HtmlRenderPayload => ({ html, format: 'png', width: 200, height: 100, quality: 90, scale: 1 });

/** Long enough for Chromium to open (and the worker to close) a window, and for a running popup to beacon several times. */
const SETTLE_MS = 400;

function popupSuite(label: string, launchArgs: (args: string[]) => string[], windowsOpen: boolean) {
  describe(label, () => {
    let proxy: EgressProxy;
    let pool: TestPool;
    let ctx: RendererContext;
    let ownPages: number;
    let lastPage: Page | undefined;

    beforeAll(async () => {
      const lookup = async (hostname: string) => {
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      };
      proxy = await startEgressProxy({ allowlist: parseAllowlist(''), lookup });
      pool = await startTestPool('generic', proxy.url, 'popups-test', 2, {
        launch: (options) => ({ ...options, args: launchArgs(options.args ?? []) }),
      });
      // The pool as the renderers see it, noting which page each job ran on.
      const cluster = { ...pool.cluster, run: pool.cluster.run };
      cluster.run = (task) =>
        pool.cluster.run((job) => {
          lastPage = job.page;
          return task(job);
        });
      ctx = {
        pool: async () => cluster,
        timeoutMs: 3_000, // a render stuck behind a window fails as itself, within the test's time
        imageFetch: { proxyUrl: proxy.url, maxBytes: 1024 * 1024, timeoutMs: 1_000 },
      };
      // The pool's pages and Chromium's first tab; the pool may replace its pages, never add to them.
      ownPages = (await pages()).length;
    });

    afterAll(async () => {
      await pool?.close();
      await proxy?.close();
    });

    const pages = async () => (await pool.manager.get()).targets().filter((t) => t.type() === 'page');
    // Every window a page opens names its opener (even with noopener); the count catches any other.
    const strayPages = async () => {
      const all = await pages();
      return [...all.filter((t) => t.opener() !== undefined).map((t) => t.url()), ...(all.length > ownPages ? ['(extra pages)'] : [])];
    };

    it.each(POPUPS)('a window opened by %s is gone once the render is done, and runs nothing', async (_, html) => {
      const image = await renderHtml(payload(html), ctx);
      expect(image.bytes.length).toBeGreaterThan(0);
      await sleep(SETTLE_MS);
      expect(await strayPages()).toEqual([]);
      const beacons = proxy.stats().unresolved;
      await sleep(SETTLE_MS);
      expect(proxy.stats().unresolved).toBe(beacons);
    });

    it('still renders on the same warm pages afterwards', async () => {
      const image = await renderHtml(payload('<h1>Hello</h1>'), ctx);
      expect(image.width).toBe(200);
      expect(await strayPages()).toEqual([]);
    });

    it(`${windowsOpen ? 'retires' : 'keeps'} a page whose job ${windowsOpen ? 'opened' : 'tried to open'} a window`, async () => {
      await renderHtml(payload(POPUPS[0]![1]), ctx);
      const opener = lastPage!;
      await sleep(SETTLE_MS);
      // An opened window could have navigated its opener after a reset, so that page is never handed on.
      expect(opener.isClosed()).toBe(windowsOpen);
    });

    it('later jobs are not disturbed by a window that keeps navigating its opener', async () => {
      await renderHtml(payload(HIJACKER), ctx);
      await sleep(SETTLE_MS);
      for (let i = 0; i < 10; i++) {
        const image = await renderHtml(payload('<h1 style="margin:0;font-size:60px">Hello</h1>'), ctx);
        expect(darkPixels(image.bytes)).toBeGreaterThan(100);
      }
      expect(await strayPages()).toEqual([]);
    });
  });
}

// As the worker launches Chromium (headless shell refuses new windows outright)…
popupSuite('popups, as launched', (args) => args, false);
// …and where no flag refuses them (new headless ignores it): the worker closes them.
popupSuite('popups, with nothing refusing new windows', (args) => args.filter((a) => a !== '--block-new-web-contents'), true);
