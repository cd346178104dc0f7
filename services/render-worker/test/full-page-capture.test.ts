import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { ScreenshotRenderPayload } from '@render/contracts';
import { parseAllowlist } from '@render/egress-policy';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EgressProxy, startEgressProxy } from '../src/egress/egress-proxy.ts';
import { planFullPage, TILE_DEVICE_PX } from '../src/renderers/screenshot/full-page-capture.ts';
import { renderScreenshot } from '../src/renderers/screenshot/screenshot.renderer.ts';
import type { ScreenshotContext } from '../src/renderers/screenshot/screenshot-settings.ts';
import { closeServers, listen } from './helpers/local-servers.ts';
import { screenshotJob } from './helpers/screenshot-job.ts';
import { startTestPool, type TestPool } from './helpers/test-pool.ts';

// Full pages taller than one GPU texture (16,384 device px), over a real Chromium and the real egress
// proxy, against a page served on 127.0.0.1. SHOTS_DIR keeps a downscaled copy to look at.

const SHOTS_DIR = process.env.SHOTS_DIR;

/** 30,000 px of 3,000 px bands, each its own colour, under a fixed 40 px black bar. */
const BANDS: [number, number, number][] = [
  [255, 0, 0],
  [0, 160, 0],
  [0, 0, 255],
  [255, 200, 0],
  [200, 0, 200],
  [0, 200, 200],
  [128, 64, 0],
  [255, 128, 128],
  [64, 64, 160],
  [160, 255, 64],
];
const BAND_PX = 3_000;
const PAGE_PX = BANDS.length * BAND_PX;
const BAR_PX = 40;
const hex = ([r, g, b]: [number, number, number]) => `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
const BANDS_PAGE = `<!doctype html><html><head><style>body{margin:0} div{height:${BAND_PX}px}</style></head><body>
  <header style="position:fixed;top:0;left:0;right:0;height:${BAR_PX}px;background:#000"></header>
  ${BANDS.map((colour) => `<div style="background:${hex(colour)}"></div>`).join('')}</body></html>`;

/** A 100vh hero over 20,000 px of bands: the hero keeps the viewport's height in every tile. */
const HERO_PAGE = `<!doctype html><html><head><style>body{margin:0} div{height:${BAND_PX}px}</style></head><body>
  <section style="height:100vh;background:#000"></section>
  ${BANDS.slice(0, 7)
    .map((colour) => `<div style="background:${hex(colour)}"></div>`)
    .join('')}</body></html>`;

let proxy: EgressProxy;
let browser: TestPool;
let pages: { server: Server; port: number };

/**
 * 11,000 px of white with, far below the first screen, a lazy image (loading="lazy"; Chromium loads those
 * up to 3,000 px ahead of the viewport) and a box that an IntersectionObserver turns green once it scrolls into
 * view: neither acts unless the page is scrolled.
 */
const LAZY_PAGE = `<!doctype html><html><head><style>body{margin:0} img,#reveal{display:block;width:300px;height:200px}</style></head><body>
  <div style="height:8000px"></div>
  <img id="lazy" loading="lazy" src="/red.png" alt="">
  <div style="height:2000px"></div>
  <div id="reveal" style="background:#fff"></div>
  <div style="height:600px"></div>
  <script>
    new IntersectionObserver((entries) => {
      for (const entry of entries) if (entry.isIntersecting) entry.target.style.background = '#00c000';
    }).observe(document.getElementById('reveal'));
  </script></body></html>`;
/** A page that replaced requestAnimationFrame with one that never calls back, under a fixed black bar. */
const FROZEN_PAGE = `<!doctype html><html><head><style>body{margin:0}</style></head><body>
  <header style="position:fixed;top:0;left:0;right:0;height:${BAR_PX}px;background:#000"></header>
  <div style="height:4000px;background:#fff"></div>
  <script>window.requestAnimationFrame = () => 0;</script></body></html>`;
/**
 * A script loader that fetches its data when a box scrolls into view (the answer takes 400 ms), then adds an
 * image and grows the page by 2,000 px, with a second such box at the new end.
 */
const GROWING_PAGE = `<!doctype html><html><head><style>body{margin:0}</style></head><body>
  <div style="height:3000px;background:#fff"></div>
  <div class="more" style="height:10px"></div>
  <script>
    const observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting || entry.target.dataset.done) continue;
        entry.target.dataset.done = '1';
        fetch('/slow-data').then((r) => r.text()).then(() => {
          const block = document.createElement('div');
          block.innerHTML = '<img src="/red.png" style="display:block;width:300px;height:200px"><div style="height:1800px"></div>';
          document.body.append(block);
          if (document.querySelectorAll('.more').length < 2) {
            const more = document.createElement('div');
            more.className = 'more';
            more.style.height = '10px';
            document.body.append(more);
            observer.observe(more);
          }
        });
      }
    });
    observer.observe(document.querySelector('.more'));
  </script></body></html>`;
const LAZY_IMAGE_Y = 8_000;
const REVEAL_Y = 10_200;

beforeAll(async () => {
  const red = await sharp({ create: { width: 300, height: 200, channels: 3, background: { r: 255, g: 0, b: 0 } } })
    .png()
    .toBuffer();
  const server = createServer((req, res) => {
    if (req.url === '/slow-data') {
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'), 400);
      return;
    }
    if (req.url === '/red.png') {
      res.writeHead(200, { 'content-type': 'image/png' }).end(red);
      return;
    }
    const clear = '<body style="margin:0"><div style="height:20000px"></div><div style="height:10px;background:#00f"></div></body>';
    const pagesByUrl: Record<string, string> = {
      '/bands': BANDS_PAGE,
      '/hero': HERO_PAGE,
      '/lazy': LAZY_PAGE,
      '/frozen': FROZEN_PAGE,
      '/growing': GROWING_PAGE,
    };
    const page = pagesByUrl[req.url ?? ''] ?? clear;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  pages = { server, port: await listen(server) };
  proxy = await startEgressProxy({ allowlist: parseAllowlist(`127.0.0.1:${pages.port}`) });
  browser = await startTestPool('screenshot', proxy.url, 'full-page-test');
});

afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  closeServers(pages?.server);
});

const context = (fullPage?: ScreenshotContext['fullPage']): ScreenshotContext => ({
  pool: async () => browser.cluster,
  timeoutMs: 30_000,
  imageFetch: { proxyUrl: 'http://127.0.0.1:9', maxBytes: 1024, timeoutMs: 1_000 },
  ...(fullPage ? { fullPage } : {}),
});

/** The bands page whole, 300 px wide, banners left as they are; `extra` over that (another `url` among them). */
const payload = (extra: Partial<ScreenshotRenderPayload> = {}): ScreenshotRenderPayload =>
  screenshotJob(`http://127.0.0.1:${pages.port}/bands`, { fullPage: true, hideCookieBanners: false, width: 300, height: 600, ...extra });

const decode = async (bytes: Buffer) => {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { info, at: (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)] };
};

const near = (actual: number[], expected: readonly number[], tolerance = 6) =>
  actual.every((c, i) => Math.abs(c - expected[i]!) <= tolerance);
const bandAt = (cssY: number) => BANDS[Math.floor(cssY / BAND_PX)]!;

describe('full-page captures taller than one texture', () => {
  it('captures a 30,000 px page whole: tiles stitched with no seam, the fixed bar once at the top', async () => {
    const shot = await renderScreenshot(payload(), context());
    expect(shot.format).toBe('png');
    expect([shot.width, shot.height]).toEqual([300, PAGE_PX]);
    expect(shot.warnings).toBeUndefined();
    const image = await decode(shot.bytes);
    expect([image.info.width, image.info.height]).toEqual([300, PAGE_PX]);
    if (SHOTS_DIR) {
      mkdirSync(SHOTS_DIR, { recursive: true });
      await sharp(shot.bytes).resize({ height: 2_000 }).png().toFile(`${SHOTS_DIR}/full-page-30000.png`);
    }
    expect(near(image.at(150, 5), [0, 0, 0])).toBe(true); // the fixed bar, at the top only
    const rows = [BAR_PX, 2_999, 3_000, 14_999, 15_000, 29_999];
    // Both sides of every tile seam.
    for (let seam = TILE_DEVICE_PX; seam < PAGE_PX; seam += TILE_DEVICE_PX) rows.push(seam - 1, seam);
    for (const y of rows) {
      for (const x of [0, 150, 299]) expect({ y, x, colour: image.at(x, y) }).toEqual({ y, x, colour: bandAt(y) });
    }
  });

  it('at scale 2 the image is twice as tall, the bands where they belong, as JPEG', async () => {
    const shot = await renderScreenshot(payload({ format: 'jpeg', quality: 90, width: 200, scale: 2 }), context());
    expect([shot.width, shot.height]).toEqual([400, 2 * PAGE_PX]);
    const image = await decode(shot.bytes);
    for (const cssY of [BAR_PX + 10, 4_095, 4_097, 8_190, 8_194, 16_380, 16_390, 29_990]) {
      expect({ cssY, ok: near(image.at(200, cssY * 2), bandAt(cssY), 12) }).toEqual({ cssY, ok: true });
    }
  });

  it('a 100vh section keeps the viewport height (the page is laid out once, not at the capture height)', async () => {
    const shot = await renderScreenshot(payload({ url: `http://127.0.0.1:${pages.port}/hero` }), context());
    expect([shot.width, shot.height]).toEqual([300, 600 + 7 * BAND_PX]);
    const image = await decode(shot.bytes);
    expect(image.at(150, 599)).toEqual([0, 0, 0]);
    for (const y of [600, 8_191, 8_192, 16_383, 16_384, 21_599])
      expect({ y, colour: image.at(150, y) }).toEqual({ y, colour: bandAt(y - 600) });
  });

  it('transparent: the default background stays off in every tile', async () => {
    const shot = await renderScreenshot(payload({ url: `http://127.0.0.1:${pages.port}/clear`, transparent: true }), context());
    expect([shot.width, shot.height]).toEqual([300, 20_010]);
    const { data, info } = await sharp(shot.bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const alpha = (y: number) => data[(y * info.width + 150) * 4 + 3];
    expect([0, 8_191, 8_192, 16_384, 19_999].map(alpha)).toEqual([0, 0, 0, 0, 0]);
    expect(alpha(20_005)).toBe(255);
  });

  it('cuts at the configured height and says so (PAGE_CUT)', async () => {
    const shot = await renderScreenshot(payload(), context({ maxHeight: 20_000, maxPixels: 100_000_000 }));
    expect([shot.width, shot.height]).toEqual([300, 20_000]);
    expect(shot.warnings).toEqual([
      {
        code: 'PAGE_CUT',
        message: 'The page is 30,000 CSS px tall; it was cut at 20,000 CSS px, the tallest full page this server captures',
      },
    ]);
    const image = await decode(shot.bytes);
    expect(image.at(150, 19_999)).toEqual(bandAt(19_999));
  });

  it('cuts a WebP at the tallest image WebP can hold', async () => {
    const shot = await renderScreenshot(payload({ format: 'webp' }), context());
    expect([shot.width, shot.height]).toEqual([300, 16_383]);
    expect(shot.warnings?.[0]?.code).toBe('PAGE_CUT');
    expect(shot.warnings?.[0]?.message).toContain('the tallest image the format holds');
  });

  it('plans: the whole page, else the lowest of height, pixel budget and format', () => {
    const limits = { maxHeight: 40_000, maxPixels: 1280 * 40_000 };
    const desktop = { width: 1280, height: 800, scale: 1 };
    expect(planFullPage(500, desktop, 'png', limits)).toEqual({ height: 800 });
    expect(planFullPage(30_000.4, desktop, 'png', limits)).toEqual({ height: 30_001 });
    expect(planFullPage(50_000, desktop, 'png', limits)).toEqual({ height: 40_000, cutFrom: 50_000, cutBy: 'height' });
    // iPhone: 390 CSS px at scale 3 → 51.2 MP / (390 × 9) = 14,586 CSS px.
    expect(planFullPage(50_000, { width: 390, height: 844, scale: 3 }, 'png', limits)).toEqual({
      height: 14_586,
      cutFrom: 50_000,
      cutBy: 'pixels',
    });
    expect(planFullPage(30_000, desktop, 'jpeg', limits)).toEqual({ height: 30_000 });
    expect(planFullPage(30_000, { ...desktop, scale: 2 }, 'jpeg', limits)).toEqual({ height: 10_000, cutFrom: 30_000, cutBy: 'pixels' });
    expect(planFullPage(30_000, { width: 300, height: 600, scale: 3 }, 'jpeg', { ...limits, maxPixels: 10 ** 9 })).toEqual({
      height: 21_845,
      cutFrom: 30_000,
      cutBy: 'format',
    });
    expect(planFullPage(20_000, desktop, 'avif', limits)).toEqual({ height: 16_384, cutFrom: 20_000, cutBy: 'format' });
  });
});

describe('content that appears on scroll', () => {
  const lazy = (extra: Partial<ScreenshotRenderPayload> = {}) => payload({ url: `http://127.0.0.1:${pages.port}/lazy`, ...extra });

  it('a full page is scrolled through first: the lazy image and the box revealed on scroll are in the capture', async () => {
    const shot = await renderScreenshot(lazy(), context());
    expect([shot.width, shot.height]).toEqual([300, 11_000]);
    const image = await decode(shot.bytes);
    if (SHOTS_DIR) {
      mkdirSync(SHOTS_DIR, { recursive: true });
      await sharp(shot.bytes).resize({ height: 1_500 }).png().toFile(`${SHOTS_DIR}/full-page-lazy.png`);
    }
    expect(image.at(150, LAZY_IMAGE_Y + 100)).toEqual([255, 0, 0]);
    expect(near(image.at(150, REVEAL_Y + 100), [0, 192, 0])).toBe(true);
    // Back at the top when captured: the page starts with its own first screen.
    expect(image.at(150, 10)).toEqual([255, 255, 255]);
  });

  it('a page that broke requestAnimationFrame is still captured from the top, within the render budget', async () => {
    const shot = await renderScreenshot(payload({ url: `http://127.0.0.1:${pages.port}/frozen` }), context());
    expect([shot.width, shot.height]).toEqual([300, 4_000]);
    const image = await decode(shot.bytes);
    expect(near(image.at(150, 5), [0, 0, 0])).toBe(true); // the fixed bar where the page puts it: at the top
    expect(near(image.at(150, 600 + 5), [255, 255, 255])).toBe(true); // not one screen down
  }, 20_000);

  it('waits for what the scroll set off, and scrolls on through what it added, until nothing new loads', async () => {
    const shot = await renderScreenshot(payload({ url: `http://127.0.0.1:${pages.port}/growing` }), context());
    // 3,010 px, then two loads of 2,000 px (and a 10 px marker): the second was only reachable once the first had arrived.
    expect([shot.width, shot.height]).toEqual([300, 7_020]);
    const image = await decode(shot.bytes);
    expect(image.at(150, 3_010 + 100)).toEqual([255, 0, 0]);
    expect(image.at(150, 5_020 + 100)).toEqual([255, 0, 0]);
  });

  it('fullPageScroll: false captures the page as it loaded, without what only scrolling brings', async () => {
    const shot = await renderScreenshot(lazy({ fullPageScroll: false }), context());
    const image = await decode(shot.bytes);
    expect(image.at(150, LAZY_IMAGE_Y + 100)).not.toEqual([255, 0, 0]);
    expect(image.at(150, REVEAL_Y + 100)).toEqual([255, 255, 255]);
  });
});
