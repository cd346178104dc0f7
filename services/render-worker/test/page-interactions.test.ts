import { createServer, type Server } from 'node:http';
import type { ScreenshotRenderPayload } from '@render/contracts';
import { parseAllowlist } from '@render/egress-policy';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EgressProxy, startEgressProxy } from '../src/egress/egress-proxy.ts';
import { RenderError } from '../src/renderers/page/render-error.ts';
import { renderScreenshot } from '../src/renderers/screenshot/screenshot.renderer.ts';
import type { ScreenshotContext } from '../src/renderers/screenshot/screenshot-settings.ts';
import { closeServers, listen } from './helpers/local-servers.ts';
import { screenshotJob } from './helpers/screenshot-job.ts';
import { startTestPool, type TestPool } from './helpers/test-pool.ts';

// hideSelectors, click, scrollTo, timezone, geolocation, failOnHttpStatus, failOnConsoleError and
// blockRequests (renderers/screenshot/page-interactions.ts), each proven by the captured pixels or by the
// failure, over a real Chromium and the real egress proxy, with the pages served on 127.0.0.1.

const RED = [255, 0, 0];
const GREEN = [0, 255, 0];
const BLUE = [0, 0, 255];
const WHITE = [255, 255, 255];

let proxy: EgressProxy;
let pool: TestPool;
let pages: { server: Server; port: number };
/** Requests for the image that blockRequests refuses, as the server saw them. */
const imageHits: string[] = [];

const square = (id: string, left: number) =>
  `<div id="${id}" style="position:absolute;left:${left}px;top:0;width:50px;height:50px;background:#808080"></div>`;

/** Three squares: the time zone (green for Tokyo), the geolocation permission and position (green when granted and at Paris), the image (green when it loaded). */
const STATE_PAGE = `<body style="margin:0;background:#fff">${square('tz', 0)}${square('geo', 60)}
  <img id="img" src="/green.svg?x=1" style="position:absolute;left:120px;top:0;width:50px;height:50px">
  <script>
    const paint = (id, ok) => { document.getElementById(id).style.background = ok ? '#00ff00' : '#ff0000'; };
    paint('tz', Intl.DateTimeFormat().resolvedOptions().timeZone === 'Asia/Tokyo' && new Date(Date.UTC(2026, 0, 15, 12)).getTimezoneOffset() === -540);
    const done = () => { const d = document.createElement('div'); d.id = 'done'; document.body.append(d); };
    navigator.permissions.query({ name: 'geolocation' }).then((status) => {
      if (status.state !== 'granted') { paint('geo', false); return done(); }
      navigator.geolocation.getCurrentPosition(
        (p) => { paint('geo', Math.abs(p.coords.latitude - 48.8566) < 1e-6 && Math.abs(p.coords.longitude - 2.3522) < 1e-6 && p.coords.accuracy === 25); done(); },
        () => { paint('geo', false); done(); },
      );
    });
  </script></body>`;

beforeAll(async () => {
  const server = createServer((req, res) => {
    const html = (body: string, status = 200) => res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    const url = req.url ?? '/';
    if (url === '/hide') {
      return html(`<body style="margin:0;background:#fff">
        <div class="ad" style="position:absolute;left:0;top:0;width:100px;height:100px;background:#ff0000"></div>
        <div id="later-slot"></div>
        <script>setTimeout(() => { document.getElementById('later-slot').innerHTML = '<div class="popup" style="position:absolute;left:200px;top:0;width:100px;height:100px;background:#0000ff"></div>'; }, 200)</script></body>`);
    }
    if (url === '/click') {
      // #second shows only once #first was clicked: clicking them in order turns the page green.
      return html(`<body style="margin:0;background:#0000ff">
        <button id="first" style="position:absolute;left:0;top:0;width:100px;height:40px" onclick="document.getElementById('second').style.display='block'">1</button>
        <button id="second" style="display:none;position:absolute;left:0;top:2000px;width:100px;height:40px" onclick="document.body.style.background='#00ff00'">2</button>
        <div style="height:3000px"></div></body>`);
    }
    if (url === '/scroll') {
      return html(`<body style="margin:0"><div style="height:1000px;background:#ff0000"></div><div style="height:1000px;background:#00ff00"></div>
        <div id="target" style="height:1000px;background:#0000ff"></div></body>`);
    }
    if (url === '/state') return html(STATE_PAGE);
    if (url.startsWith('/green.svg')) {
      imageHits.push(url);
      return res
        .writeHead(200, { 'content-type': 'image/svg+xml' })
        .end('<svg xmlns="http://www.w3.org/2000/svg" width="50" height="50"><rect width="50" height="50" fill="#00ff00"/></svg>');
    }
    if (url === '/missing') return html('<body style="margin:0;background:#0000ff">Not here</body>', 404);
    if (url === '/console')
      return html(`<body style="margin:0;background:#00ff00"><script>console.error('boom ' + 'x'.repeat(500))</script></body>`);
    if (url === '/throws') return html(`<body style="margin:0;background:#00ff00"><script>throw new Error('kaput')</script></body>`);
    if (url === '/quiet')
      return html(`<body style="margin:0;background:#00ff00"><img src="/nowhere.png"><script>console.log('fine')</script></body>`);
    return html('not found', 404);
  });
  pages = { server, port: await listen(server) };
  proxy = await startEgressProxy({ allowlist: parseAllowlist(`127.0.0.1:${pages.port}`) });
  pool = await startTestPool('screenshot', proxy.url, 'page-interactions-test');
});

afterAll(async () => {
  await pool?.close();
  await proxy?.close();
  closeServers(pages?.server);
});

const ctx = (caller?: string): ScreenshotContext => ({
  pool: async () => pool.cluster,
  timeoutMs: 10_000,
  imageFetch: { proxyUrl: 'http://127.0.0.1:9', maxBytes: 1024, timeoutMs: 1_000 },
  ...(caller ? { caller } : {}),
});

const at = (path: string) => `http://127.0.0.1:${pages.port}${path}`;

async function shot(path: string, extra: Partial<ScreenshotRenderPayload>, caller?: string) {
  const image = await renderScreenshot(screenshotJob(at(path), extra), ctx(caller));
  const png = PNG.sync.read(image.bytes);
  return {
    image,
    pixel: (x: number, y: number) => {
      const i = (png.width * y + x) * 4;
      return [png.data[i], png.data[i + 1], png.data[i + 2]];
    },
  };
}

async function failureOf(path: string, extra: Partial<ScreenshotRenderPayload>): Promise<RenderError> {
  const err = await renderScreenshot(screenshotJob(at(path), extra), ctx()).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RenderError);
  expect((err as RenderError).retryable).toBe(false);
  return err as RenderError;
}

describe('screenshot page interactions', () => {
  it('hideSelectors hides the matching elements, also one that appears after the load', async () => {
    const shown = await shot('/hide', { delay: 400 });
    expect(shown.pixel(50, 50)).toEqual(RED);
    expect(shown.pixel(250, 50)).toEqual(BLUE);
    const hidden = await shot('/hide', { delay: 400, hideSelectors: ['.ad', '.popup', '#nothing-matches'] });
    expect(hidden.pixel(50, 50)).toEqual(WHITE);
    expect(hidden.pixel(250, 50)).toEqual(WHITE);
  });

  it('hideSelectors names an invalid selector', async () => {
    const err = await failureOf('/hide', { hideSelectors: ['.ad', 'div[['] });
    expect(err.message).toBe('Failed to capture screenshot: hideSelectors: "div[[" is not a valid CSS selector');
  });

  it('click clicks in order (the second button exists only after the first) and scrolls back to where the page was', async () => {
    expect((await shot('/click', {})).pixel(200, 200)).toEqual(BLUE);
    const clicked = await shot('/click', { click: ['#first', '#second'] });
    expect(clicked.pixel(200, 200)).toEqual(GREEN);
    // The top of the page, with the first button: scrolled back after the second click (2,000 px down).
    expect(clicked.pixel(50, 20)).not.toEqual(GREEN);
  });

  it('click fails naming a selector that matches nothing, or an element that cannot be clicked', async () => {
    expect((await failureOf('/click', { click: ['#first', '#third'] })).message).toBe(
      'Failed to capture screenshot: click: no element matches selector "#third"',
    );
    expect((await failureOf('/click', { click: ['#second'] })).message).toBe(
      'Failed to capture screenshot: click: the element matching selector "#second" cannot be clicked (hidden, or without a size)',
    );
  });

  it('scrollTo moves the viewport to a y offset or to an element, and names a selector that matches nothing', async () => {
    expect((await shot('/scroll', {})).pixel(10, 10)).toEqual(RED);
    expect((await shot('/scroll', { scrollTo: 1000 })).pixel(10, 10)).toEqual(GREEN);
    expect((await shot('/scroll', { scrollTo: '#target' })).pixel(10, 10)).toEqual(BLUE);
    expect((await failureOf('/scroll', { scrollTo: '#nowhere' })).message).toBe(
      'Failed to capture screenshot: scrollTo: no element matches selector "#nowhere"',
    );
  });

  it('timezone, geolocation and blockRequests are what the page sees, and none of them reaches the next job in the same context', async () => {
    const options: Partial<ScreenshotRenderPayload> = {
      timezone: 'Asia/Tokyo',
      geolocation: { latitude: 48.8566, longitude: 2.3522, accuracy: 25 },
      blockRequests: ['*/green.svg?x=*'],
      waitForSelector: '#done',
    };
    imageHits.length = 0;
    const set = await shot('/state', options, 'caller-a');
    expect(set.pixel(25, 25)).toEqual(GREEN);
    expect(set.pixel(85, 25)).toEqual(GREEN);
    expect(set.pixel(145, 25)).toEqual(WHITE);
    expect(imageHits).toEqual([]);
    // The same caller's next jobs run in the context the first one left (wiped), or its second one.
    for (let i = 0; i < 3; i++) {
      const next = await shot('/state', { waitForSelector: '#done' }, 'caller-a');
      expect(next.pixel(25, 25), `job ${i}`).toEqual(RED);
      expect(next.pixel(85, 25), `job ${i}`).toEqual(RED);
      expect(next.pixel(145, 25), `job ${i}`).toEqual(GREEN);
    }
    expect(imageHits.length).toBe(3);
  });

  it('blockRequests works beside blockAds (each with its own interception) and leaves the rest of the page alone', async () => {
    imageHits.length = 0;
    const both = await shot('/state', { blockRequests: ['http://127.0.0.1:*/green.svg*'], blockAds: true, waitForSelector: '#done' });
    expect(both.pixel(145, 25)).toEqual(WHITE);
    expect(both.pixel(25, 25)).toEqual(RED);
    expect(imageHits).toEqual([]);
    const other = await shot('/state', { blockRequests: ['*/other.svg'], blockAds: true, waitForSelector: '#done' });
    expect(other.pixel(145, 25)).toEqual(GREEN);
    expect(imageHits.length).toBe(1);
  });

  it('failOnHttpStatus fails on a listed status of the page itself, and captures on any other', async () => {
    expect((await failureOf('/missing', { failOnHttpStatus: [404, 500] })).message).toBe(
      'Failed to capture screenshot: the page answered HTTP 404, which failOnHttpStatus lists',
    );
    expect((await shot('/missing', { failOnHttpStatus: [500] })).pixel(10, 10)).toEqual(BLUE);
  });

  it('failOnConsoleError fails quoting the first error (cut), an uncaught one too; a page without one is captured', async () => {
    const err = await failureOf('/console', { failOnConsoleError: true });
    expect(err.message).toMatch(
      /^Failed to capture screenshot: the page logged an error \(failOnConsoleError\): console\.error: boom x+…$/,
    );
    expect(err.message.length).toBeLessThan(300);
    expect((await failureOf('/throws', { failOnConsoleError: true })).message).toBe(
      'Failed to capture screenshot: the page logged an error (failOnConsoleError): Uncaught error: kaput',
    );
    // A failed image is a resource warning, not a console error.
    expect((await shot('/quiet', { failOnConsoleError: true })).pixel(300, 200)).toEqual(GREEN);
    expect((await shot('/console', {})).pixel(10, 10)).toEqual(GREEN);
  });

  it('names a time zone the browser does not know rather than retrying', async () => {
    expect((await failureOf('/quiet', { timezone: 'Mars/Olympus_Mons' })).message).toBe(
      'Failed to capture screenshot: timezone "Mars/Olympus_Mons" is not known to the browser',
    );
  });
});
