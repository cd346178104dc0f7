import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RenderWorkerHandle } from '@render/render-worker';
import { decodeJpeg, decodePng, near, webpSize } from '@render/test-stack/images';
import { closeInOrder } from '@render/test-stack/teardown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCanary, type TestServer } from './helpers/servers.ts';
import { startGateway, startWorker, type TestGateway, uniquePrefix } from './helpers/stack.ts';
import { missingTextCases } from './helpers/validation-cases.ts';

// The canary is an ordinary loopback service that must see nothing; the pages server is the one
// allow-listed origin and serves the test pages below.
let gateway: TestGateway;
let worker: RenderWorkerHandle;
let canary: TestServer;
let pages: { server: Server; port: number; origin: string };
let deadPort: number;
/** What the test site saw of each /echo request. */
const seen: { headers: IncomingMessage['headers'] }[] = [];

const ROUTE = '/api/screenshot/convert';
const GREEN = [0, 255, 0, 255];
const RED = [255, 0, 0, 255];

const BANNER_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title></head>
<body style="margin:0;background:#fff">
  <div id="rejected" style="width:20px;height:20px;background:#fff"></div>
  <h1 style="margin:0;font:20px sans-serif">Welcome</h1>
  <!-- OneTrust's markup, as consent platforms inject it; autoconsent knows this platform. -->
  <div id="onetrust-consent-sdk">
    <div id="onetrust-banner-sdk" role="region" style="position:fixed;left:0;right:0;bottom:0;height:220px;background:#ff0000;z-index:1000">
      <p>We use cookies to personalise content and ads.</p>
      <button id="onetrust-accept-btn-handler">Accept All Cookies</button>
      <button id="onetrust-reject-all-handler"
        onclick="document.getElementById('onetrust-consent-sdk').remove(); document.getElementById('rejected').style.background = '#00ff00'">Reject All</button>
    </div>
  </div>
</body></html>`;

function page(req: IncomingMessage, res: ServerResponse) {
  const html = (body: string, status = 200) => res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  const canaryUrl = `http://127.0.0.1:${canary.port}`;
  switch (req.url) {
    case '/banner':
      return html(BANNER_PAGE);
    case '/long':
      // 20,000 px: red top, blue middle, green last 1,000 px.
      return html(`<body style="margin:0">
        <div style="height:1000px;background:#ff0000"></div><div style="height:18000px;background:#0000ff"></div>
        <div style="height:1000px;background:#00ff00"></div></body>`);
    case '/lazy':
      // A lazy image 5,000 px down: Chromium loads those up to 3,000 px ahead of the viewport, so only a scroll brings it.
      return html(`<body style="margin:0;background:#fff"><div style="height:5000px"></div>
        <img loading="lazy" src="/lazy.svg" style="display:block;width:100px;height:100px" alt=""><div style="height:100px"></div></body>`);
    case '/lazy.svg':
      return res
        .writeHead(200, { 'content-type': 'image/svg+xml' })
        .end('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><rect width="100" height="100" fill="#00ff00"/></svg>');
    case '/medium':
      return html(
        '<body style="margin:0"><div style="height:1500px;background:#ff0000"></div><div style="height:1500px;background:#00ff00"></div></body>',
      );
    case '/element':
      // Below the 300 px viewport, so the capture has to reach beyond it.
      return html(`<body style="margin:0;background:#fff"><div style="height:1000px"></div>
        <div id="box" style="margin-left:37px;width:123px;height:45px;background:#00ff00"></div>
        <div id="hidden" style="display:none">x</div></body>`);
    case '/responsive':
      return html(`<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1">
        <style>body{margin:0;background:#ff0000} @media (max-width: 500px) { body { background: #00ff00 } }</style></head>
        <body><script>if (!/iPhone/.test(navigator.userAgent) || !('ontouchstart' in window)) document.body.style.background = '#0000ff'</script></body></html>`);
    case '/tablet':
      return html(`<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1"></head>
        <body style="margin:0"><script>document.body.style.background = /iPad/.test(navigator.userAgent) && innerWidth === 1024 ? '#00ff00' : '#ff0000'</script></body></html>`);
    case '/language': {
      // The server reflects the Accept-Language header into the background; a script checks navigator.
      const header = String(req.headers['accept-language'] ?? '');
      const background = header.startsWith('fr-FR') ? '#00ff00' : '#ff0000';
      return html(`<body style="margin:0;background:${background}"><div id="nav" style="width:50px;height:50px"></div>
        <script>document.getElementById('nav').style.background =
          navigator.language === 'fr-FR' && navigator.languages[0] === 'fr-FR' ? '#0000ff' : '#ffff00'</script></body>`);
    }
    case '/dark':
      return html(
        '<style>body{margin:0;background:#ffffff} @media (prefers-color-scheme: dark) { body { background: #000000 } }</style><body></body>',
      );
    case '/later':
      return html(
        '<body style="margin:0;background:#ff0000"><script>setTimeout(() => { document.body.style.background = "#00ff00" }, 300)</script></body>',
      );
    case '/appears':
      return html(`<body style="margin:0;background:#ff0000"><script>setTimeout(() => {
        const d = document.createElement('div'); d.id = 'late'; document.body.appendChild(d); document.body.style.background = '#00ff00' }, 300)</script></body>`);
    case '/missing':
      return html('<body style="margin:0;background:#0000ff"><h1>Not here</h1></body>', 404);
    case '/echo':
      seen.push({ headers: req.headers });
      return html('<body style="margin:0;background:#00ff00"></body>');
    case '/plain':
      return html('<body style="margin:0"><div style="width:50px;height:50px;background:#0000ff"></div></body>');
    case '/redirect':
      return res.writeHead(302, { location: `${canaryUrl}/redirected` }).end();
    case '/subresources':
      return html(`<!doctype html><html><head>
          <link rel="stylesheet" href="${canaryUrl}/link.css">
          <style>@import url("${canaryUrl}/import.css");</style>
        </head><body style="margin:0;background:#00ff00">
          <img src="${canaryUrl}/img.png">
          <script>
            fetch("${canaryUrl}/fetch").catch(() => {});
            try { new WebSocket("ws://127.0.0.1:${canary.port}/ws"); } catch (e) {}
          </script></body></html>`);
    case '/endless':
      return html('<body style="background:#ff0000"><script>for (;;) {}</script></body>');
    case '/navigate-away':
      return html(`<body style="margin:0;background:#00ff00"><script>location = "${canaryUrl}/navigated";</script></body>`);
    default:
      return html('not found', 404);
  }
}

beforeAll(async () => {
  canary = await startCanary();
  const server = createServer(page);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  pages = { server, port, origin: `http://127.0.0.1:${port}` };
  // An allow-listed port nobody listens on: "could not be reached" rather than "not allowed".
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  deadPort = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));

  const prefix = uniquePrefix('screenshot');
  worker = await startWorker({
    QUEUE_PREFIX: prefix,
    RENDER_QUEUES: 'screenshot',
    RENDER_TIMEOUT_MS: '6000',
    RENDER_EGRESS_ALLOWLIST: `127.0.0.1:${port},127.0.0.1:${deadPort}`,
    // A smaller full-page budget than the default 51.2 MP, so the cut below stays quick to capture.
    SCREENSHOT_MAX_PIXELS: '16000000',
  });
  gateway = await startGateway({ QUEUE_PREFIX: prefix });
});

afterAll(async () => {
  await closeInOrder(gateway, worker, canary);
  pages?.server.closeAllConnections();
  await new Promise((resolve) => pages?.server.close(resolve));
});

const shot = (body: Record<string, unknown>) => gateway.post(ROUTE, body);

async function png(body: Record<string, unknown>) {
  const res = await shot(body);
  if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${await res.text()}`);
  expect(res.headers.get('content-type')).toBe('image/png');
  return decodePng(Buffer.from(await res.arrayBuffer()));
}

async function failure(body: Record<string, unknown>, status = 422) {
  const res = await shot(body);
  const json = (await res.json()) as { success: boolean; message: string; code: string };
  expect(res.status, json.message).toBe(status);
  expect(json.success).toBe(false);
  return json;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe('screenshot input validation', () => {
  it.each([
    ...missingTextCases('url', 'Please enter a URL'),
    [{ url: 'example.com' }, 'Please enter a valid URL (including http:// or https://)'],
    [{ url: 'ftp://example.com/file' }, 'Please enter a valid URL (including http:// or https://)'],
    [{ url: 'file:///etc/passwd' }, 'Please enter a valid URL (including http:// or https://)'],
    [{ url: 'javascript:alert(1)' }, 'Please enter a valid URL (including http:// or https://)'],
    [{ url: 'http://' }, 'Please enter a valid URL (including http:// or https://)'],

    [{ url: 'https://example.com', deviceType: 'watch' }, 'deviceType must be one of: desktop, mobile, tablet'],
    [
      { url: 'https://example.com', format: 'bmp' },
      'format must be one of: png, jpeg, webp, avif, pdf, mp4, webm, gif, markdown, html, text',
    ],
    [{ url: 'https://example.com', delay: 10_001 }, 'delay must be between 0 and 10000 ms'],
    [{ url: 'https://example.com', delay: -1 }, 'delay must be between 0 and 10000 ms'],
    [{ url: 'https://example.com', language: 'xx-XX' }, expect.stringMatching(/^language must be one of: en-US, en-GB, fr-FR/)],
    [{ url: 'https://example.com', width: 49 }, 'width must be between 50 and 4000'],
    [{ url: 'https://example.com', scale: 4 }, 'scale must be between 0.1 and 3'],
    [{ url: 'https://example.com', fullPage: 'yes' }, 'fullPage must be true or false'],
    [{ url: 'https://example.com', fullPage: true, fullPageScroll: 'no' }, 'fullPageScroll must be true or false'],
    [{ url: 'https://example.com', selector: '' }, 'selector must not be empty'],
    [{ url: 'https://example.com', selector: '   ' }, 'selector must not be empty'],
    [{ url: 'https://example.com', width: 4000, height: 4000, scale: 2 }, 'width × height × scale² must not exceed 16000000 pixels'],
    [{ url: 'https://example.com', outputType: 'xml' }, 'outputType must be one of: json, binary'],
  ])('%j → 400 %s', async (body, message) => {
    const json = await failure(body, 400);
    expect(json).toMatchObject({ code: 'VALIDATION_ERROR', message });
  });

  it('a URL longer than 2048 characters → 400', async () => {
    const json = await failure({ url: `https://example.com/${'a'.repeat(2100)}` }, 400);
    expect(json.message).toBe('Please enter a valid URL (including http:// or https://)');
  });
});

describe('screenshot egress policy', () => {
  it.each(['127.0.0.1', 'localhost', '[::1]', '2130706433', '0x7f000001', '[::ffff:127.0.0.1]'])(
    'a URL pointing at a loopback service as %s is refused and reaches nothing',
    async (host) => {
      const json = await failure({ url: `http://${host}:${canary.port}/secret?token=abc` });
      expect(json.code).toBe('RENDER_FAILED');
      expect(json.message).toMatch(/^Failed to capture screenshot: the address is not allowed \(.+\)$/);
      await settle();
      expect(canary.requests).toEqual([]);
    },
  );

  it('an https URL pointing at loopback is refused with the reason and reaches nothing', async () => {
    const json = await failure({ url: `https://127.0.0.1:${canary.port}/` });
    expect(json.message).toBe(
      'Failed to capture screenshot: the address is not allowed (127.0.0.1 is in a private, loopback or reserved network)',
    );
    expect(canary.requests).toEqual([]);
  });

  it('an allow-listed page redirecting (302) to the loopback service is refused', async () => {
    const json = await failure({ url: `${pages.origin}/redirect` });
    expect(json.message).toBe(
      'Failed to capture screenshot: the address is not allowed (127.0.0.1 is in a private, loopback or reserved network)',
    );
    await settle();
    expect(canary.requests).toEqual([]);
  });

  it('an allow-listed page whose <img>, @import, stylesheet, fetch() and WebSocket point at loopback renders, and none reach it', async () => {
    const img = await png({ url: `${pages.origin}/subresources`, width: 200, height: 200 });
    expect(near(img.pixel(150, 150), GREEN)).toBe(true);
    await settle();
    expect(canary.requests).toEqual([]);
  });

  it('an allow-listed page sending itself to loopback (location = …) is refused and reaches nothing', async () => {
    // The script's navigation is refused by the proxy; the top frame then shows the refusal, not a page.
    const json = await failure({ url: `${pages.origin}/navigate-away`, width: 200, height: 200 });
    expect(json.message).toBe(
      'Failed to capture screenshot: the address is not allowed (127.0.0.1 is in a private, loopback or reserved network)',
    );
    await settle();
    expect(canary.requests).toEqual([]);
  });

  it('an allow-listed address that refuses connections gives a clear 422', async () => {
    const json = await failure({ url: `http://127.0.0.1:${deadPort}/` });
    expect(json.message).toBe(`Failed to capture screenshot: 127.0.0.1:${deadPort} could not be reached (ECONNREFUSED)`);
  });
});

describe('POST /api/screenshot/convert', () => {
  it('captures the desktop viewport (1280×800) by default', async () => {
    const img = await png({ url: `${pages.origin}/plain` });
    expect([img.width, img.height]).toEqual([1280, 800]);
    expect(near(img.pixel(10, 10), [0, 0, 255, 255])).toBe(true);
    expect(near(img.pixel(100, 100), [255, 255, 255, 255])).toBe(true);
  });

  it('hides a consent popup by rejecting it when hideCookieBanners is on (the default), and leaves it when off', async () => {
    const url = `${pages.origin}/banner`;
    const hidden = await png({ url, width: 400, height: 400 });
    expect(near(hidden.pixel(200, 350), [255, 255, 255, 255])).toBe(true);
    expect(near(hidden.pixel(5, 5), GREEN)).toBe(true); // the rule set clicked "Reject All"
    const shown = await png({ url, width: 400, height: 400, hideCookieBanners: false });
    expect(near(shown.pixel(200, 350), RED)).toBe(true);
    expect(near(shown.pixel(5, 5), [255, 255, 255, 255])).toBe(true);
  });

  it('fullPage captures the whole page when it fits', async () => {
    const img = await png({ url: `${pages.origin}/medium`, width: 300, height: 200, fullPage: true });
    expect([img.width, img.height]).toEqual([300, 3000]);
    expect(near(img.pixel(10, 10), RED)).toBe(true);
    expect(near(img.pixel(10, 2990), GREEN)).toBe(true);
  });

  it('fullPage scrolls through the page first, so lazy images are in it; fullPageScroll: false leaves them out', async () => {
    const body = { url: `${pages.origin}/lazy`, width: 200, height: 200, fullPage: true, hideCookieBanners: false };
    const scrolled = await png(body);
    expect([scrolled.width, scrolled.height]).toEqual([200, 5200]);
    expect(near(scrolled.pixel(50, 5050), GREEN)).toBe(true);
    const asLoaded = await png({ ...body, fullPageScroll: false });
    expect(near(asLoaded.pixel(50, 5050), GREEN)).toBe(false);
  });

  it('fullPage captures a page taller than 16,384 px whole, in stitched tiles', async () => {
    const res = await shot({ url: `${pages.origin}/long`, width: 200, height: 200, fullPage: true, hideCookieBanners: false });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-render-warnings')).toBe('0');
    const img = decodePng(Buffer.from(await res.arrayBuffer()));
    expect([img.width, img.height]).toEqual([200, 20_000]);
    expect(near(img.pixel(10, 10), RED)).toBe(true);
    for (const y of [8_191, 8_192, 16_380, 16_384, 18_999]) expect(near(img.pixel(10, y), [0, 0, 255, 255])).toBe(true);
    expect(near(img.pixel(10, 19_990), GREEN)).toBe(true);
  });

  it('fullPage cuts at the worker’s pixel budget including scale², and says so', async () => {
    // 1000 px wide at scale 2 with SCREENSHOT_MAX_PIXELS 16,000,000: 16,000,000 / (1000 × 4) = 4,000 CSS px
    // = 8,000 device px.
    const res = await shot({
      url: `${pages.origin}/long`,
      width: 1000,
      height: 200,
      scale: 2,
      fullPage: true,
      format: 'jpeg',
      outputType: 'json',
    });
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: { image: string; warnings: { code: string; message: string }[] } };
    const img = decodeJpeg(Buffer.from(data.image, 'base64'));
    expect([img.width, img.height]).toEqual([2000, 8000]);
    expect(data.warnings).toEqual([
      {
        code: 'PAGE_CUT',
        message: 'The page is 20,000 CSS px tall; it was cut at 4,000 CSS px, the pixel budget (width × height × scale²) of this server',
      },
    ]);
  });

  it('selector captures just that element, even below the viewport', async () => {
    const img = await png({ url: `${pages.origin}/element`, width: 400, height: 300, selector: '#box' });
    expect([img.width, img.height]).toEqual([123, 45]);
    expect(near(img.pixel(1, 1), GREEN)).toBe(true);
    expect(near(img.pixel(121, 43), GREEN)).toBe(true);
  });

  it('selector sizes scale with the device scale factor', async () => {
    const img = await png({ url: `${pages.origin}/element`, width: 400, height: 300, selector: '#box', scale: 2 });
    expect([img.width, img.height]).toEqual([246, 90]);
  });

  it.each([
    ['#nope', 'Failed to capture screenshot: no element matches selector "#nope"'],
    ['#hidden', 'Failed to capture screenshot: the element matching selector "#hidden" is not visible'],
    ['div[', 'Failed to capture screenshot: "div[" is not a valid CSS selector'],
  ])('selector %s → 422 %s', async (selector, message) => {
    const json = await failure({ url: `${pages.origin}/element`, selector, hideCookieBanners: false });
    expect(json).toMatchObject({ code: 'RENDER_FAILED', message });
  });

  it('mobile emulates an iPhone 12 Pro: 390×844 at scale 3, mobile layout, user agent and touch', async () => {
    const img = await png({ url: `${pages.origin}/responsive`, deviceType: 'mobile' });
    expect([img.width, img.height]).toEqual([1170, 2532]);
    expect(near(img.pixel(500, 1200), GREEN)).toBe(true);
  });

  it('desktop gets the wide layout of the same page', async () => {
    // Wider than 500 px and no iPhone user agent: the page's script paints it blue.
    const img = await png({ url: `${pages.origin}/responsive`, width: 800, height: 200 });
    expect(near(img.pixel(100, 100), [0, 0, 255, 255])).toBe(true);
  });

  it('tablet emulates an iPad Pro: 1024×1366 at scale 2 with its user agent', async () => {
    const img = await png({ url: `${pages.origin}/tablet`, deviceType: 'tablet', hideCookieBanners: false });
    expect([img.width, img.height]).toEqual([2048, 2732]);
    expect(near(img.pixel(1000, 1000), GREEN)).toBe(true);
  });

  it('width, height and scale override the device viewport', async () => {
    const img = await png({ url: `${pages.origin}/responsive`, deviceType: 'mobile', width: 360, height: 640, scale: 1 });
    expect([img.width, img.height]).toEqual([360, 640]);
    expect(near(img.pixel(100, 100), GREEN)).toBe(true);
  });

  it('language is sent as Accept-Language and reported by navigator.language', async () => {
    const fr = await png({ url: `${pages.origin}/language`, language: 'fr-FR', width: 200, height: 200 });
    expect(near(fr.pixel(150, 150), GREEN)).toBe(true); // header
    expect(near(fr.pixel(10, 10), [0, 0, 255, 255])).toBe(true); // navigator
    const en = await png({ url: `${pages.origin}/language`, width: 200, height: 200 });
    expect(near(en.pixel(150, 150), RED)).toBe(true);
    expect(near(en.pixel(10, 10), [255, 255, 0, 255])).toBe(true);
  });

  it('darkMode emulates prefers-color-scheme: dark', async () => {
    const dark = await png({ url: `${pages.origin}/dark`, darkMode: true, width: 100, height: 100 });
    expect(near(dark.pixel(50, 50), [0, 0, 0, 255])).toBe(true);
    const light = await png({ url: `${pages.origin}/dark`, width: 100, height: 100 });
    expect(near(light.pixel(50, 50), [255, 255, 255, 255])).toBe(true);
  });

  it('transparent leaves the default background transparent in PNG', async () => {
    const img = await png({ url: `${pages.origin}/plain`, transparent: true, width: 100, height: 100 });
    expect(img.pixel(80, 80)[3]).toBe(0);
    expect(near(img.pixel(10, 10), [0, 0, 255, 255])).toBe(true);
  });

  it('delay waits after load before capturing', async () => {
    const img = await png({ url: `${pages.origin}/later`, delay: 1500, width: 100, height: 100 });
    expect(near(img.pixel(50, 50), GREEN)).toBe(true);
  });

  it('waitForSelector waits for the element to appear', async () => {
    const img = await png({ url: `${pages.origin}/appears`, waitForSelector: '#late', width: 100, height: 100 });
    expect(near(img.pixel(50, 50), GREEN)).toBe(true);
  });

  it('waitForSelector gives a clear 422 when the element never appears', async () => {
    const json = await failure({ url: `${pages.origin}/appears`, waitForSelector: '#never', width: 100, height: 100 });
    expect(json.message).toMatch(/^Failed to capture screenshot: no element matching selector "#never" appeared within [\d.]+ s$/);
  });

  it('captures a page answered with an HTTP error status, as a browser shows it', async () => {
    const img = await png({ url: `${pages.origin}/missing`, width: 100, height: 100 });
    expect(near(img.pixel(90, 90), [0, 0, 255, 255])).toBe(true);
  });

  it('a page stuck in an endless script fails within the render time limit, and the next capture works', async () => {
    const json = await failure({ url: `${pages.origin}/endless`, width: 100, height: 100 });
    expect(json.message).toMatch(/^Failed to capture screenshot: rendering timed out after 6000 ms/);
    const img = await png({ url: `${pages.origin}/plain`, width: 100, height: 100 });
    expect(near(img.pixel(10, 10), [0, 0, 255, 255])).toBe(true);
  });

  it('answers JSON with base64 when outputType is json, and WebP/JPEG in the right size', async () => {
    const res = await shot({ url: `${pages.origin}/plain`, outputType: 'json', format: 'webp', width: 300, height: 200 });
    expect(res.status).toBe(200);
    const json = (await res.json()) as { success: boolean; data: { image: string; mimeType: string; width: number; height: number } };
    expect(json).toMatchObject({ success: true, data: { mimeType: 'image/webp', width: 300, height: 200 } });
    expect(webpSize(Buffer.from(json.data.image, 'base64'))).toEqual({ width: 300, height: 200 });

    const jpeg = await shot({ url: `${pages.origin}/plain`, format: 'jpeg', quality: 50, width: 320, height: 240 });
    expect(jpeg.headers.get('content-type')).toBe('image/jpeg');
    const img = decodeJpeg(Buffer.from(await jpeg.arrayBuffer()));
    expect([img.width, img.height]).toEqual([320, 240]);
  });
});

describe('screenshot page options', () => {
  const base = () => ({ url: `${pages.origin}/echo`, width: 100, height: 100 });

  it.each([
    [{ headers: { Host: 'evil.example' } }, 'headers: Host cannot be set'],
    [{ headers: { cookie: 'a=b' } }, 'headers: cookie cannot be set (use cookies)'],
    [{ headers: { Connection: 'close' } }, 'headers: Connection cannot be set'],
    [{ headers: { 'Transfer-Encoding': 'chunked' } }, 'headers: Transfer-Encoding cannot be set'],
    [{ headers: { 'Proxy-Authorization': 'Basic x' } }, 'headers: Proxy-Authorization cannot be set'],
    [{ headers: { 'User-Agent': 'x' } }, 'headers: User-Agent cannot be set here (use userAgent)'],
    [{ headers: { 'bad name': 'x' } }, 'headers: "bad name" is not a valid header name'],
    [{ headers: { 'X-A': 'one\r\nX-B: two' } }, 'headers: the value of X-A must be text on one line'],
    [{ headers: { 'X-A': 'a'.repeat(2049) } }, 'headers: the value of X-A must be at most 2048 characters'],
    [{ headers: { 'X-A': '1', 'x-a': '2' } }, 'headers: x-a is given twice'],
    [{ cookies: [{ name: 'a', value: 'b', domain: 'other.example' }] }, 'cookies[0].domain must be 127.0.0.1 or a parent domain of it'],
    [{ cookies: [{ name: 'a b', value: 'b' }] }, 'cookies[0].name is not a valid cookie name'],
    [{ cookies: [{ name: 'a', value: 'b;c' }] }, 'cookies[0].value must not contain spaces, quotes, commas, semicolons or backslashes'],
    [{ cookies: [{ name: 'a', value: 'b', path: 'x' }] }, 'cookies[0].path must start with /'],
    [{ userAgent: '' }, 'userAgent must not be empty'],
    [{ userAgent: 'a'.repeat(513) }, 'userAgent must be at most 512 characters'],
    [{ userAgent: 'a\nb' }, 'userAgent must be text on one line'],
    [{ waitUntil: 'never' }, 'waitUntil must be one of: load, domcontentloaded, networkidle'],
    [{ clip: { x: 0, y: 0, width: 10 } }, 'clip needs x, y, width and height'],
    [{ cookies: [{ name: 'a' }] }, 'each cookie needs a name and a value'],
    [{ clip: { x: -1, y: 0, width: 10, height: 10 } }, 'clip.x must be between 0 and 16384'],
    [{ clip: { x: 0, y: 0, width: 0, height: 10 } }, 'clip.width must be between 1 and 4000'],
    [{ clip: { x: 0, y: 0, width: 10, height: 10 }, selector: '#box' }, 'clip and selector cannot be used together'],
    [
      { clip: { x: 0, y: 0, width: 10, height: 10 }, format: 'pdf' },
      'clip captures part of the page as an image: it cannot be used with format pdf',
    ],
    [{ css: 'a'.repeat(100_001) }, 'css must be at most 100000 characters'],
    [{ js: 42 }, 'js must be a string'],
    [{ blockAds: 'yes' }, 'blockAds must be true or false'],
    [{ blockTrackers: 1 }, 'blockTrackers must be true or false'],
    [{ omitBackground: 'no' }, 'omitBackground must be true or false'],
  ])('page option case %# → 400 %s', async (extra, message) => {
    const json = await failure({ ...base(), ...extra }, 400);
    expect(json).toMatchObject({ code: 'VALIDATION_ERROR', message });
  });

  it('too many headers or cookies → 400', async () => {
    const headers = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-H${i}`, 'v']));
    expect((await failure({ ...base(), headers }, 400)).code).toBe('VALIDATION_ERROR');
    const cookies = Array.from({ length: 21 }, (_, i) => ({ name: `c${i}`, value: 'v' }));
    expect((await failure({ ...base(), cookies }, 400)).code).toBe('VALIDATION_ERROR');
  });

  it('headers, cookies and userAgent are what the site sees', async () => {
    seen.length = 0;
    await png({
      ...base(),
      headers: { 'X-Render-Test': 'hello', Authorization: 'Bearer t0k' },
      cookies: [
        { name: 'session', value: 'abc123' },
        { name: 'other', value: 'x', domain: '127.0.0.1', path: '/echo' },
      ],
      userAgent: 'RenderTestAgent/1.0',
    });
    const request = seen.at(-1);
    expect(request?.headers['x-render-test']).toBe('hello');
    expect(request?.headers.authorization).toBe('Bearer t0k');
    expect(request?.headers['user-agent']).toBe('RenderTestAgent/1.0');
    expect(String(request?.headers.cookie).split('; ').sort()).toEqual(['other=x', 'session=abc123']);
  });

  it('by default the site sees no extra header or cookie', async () => {
    seen.length = 0;
    await png(base());
    expect(seen.at(-1)?.headers.cookie).toBeUndefined();
    expect(seen.at(-1)?.headers['user-agent']).toMatch(/Chrome\//);
  });

  it.each(['load', 'domcontentloaded', 'networkidle'])('waitUntil %s is accepted', async (waitUntil) => {
    const img = await png({ ...base(), waitUntil });
    expect(near(img.pixel(50, 50), GREEN)).toBe(true);
  });

  it('css is injected before the capture', async () => {
    const img = await png({ url: `${pages.origin}/plain`, width: 100, height: 100, css: 'body { background: #ff0000 !important }' });
    expect(near(img.pixel(80, 80), RED)).toBe(true);
    expect(near(img.pixel(10, 10), [0, 0, 255, 255])).toBe(true);
  });

  it('js runs in the page before the capture, and a returned promise is awaited', async () => {
    const js = 'new Promise((resolve) => setTimeout(() => { document.body.style.background = "#ff0000"; resolve(); }, 200))';
    const img = await png({ url: `${pages.origin}/plain`, width: 100, height: 100, js });
    expect(near(img.pixel(80, 80), RED)).toBe(true);
  });

  it('js is held to the egress policy: a fetch to a loopback service reaches nothing', async () => {
    const js = `fetch("http://127.0.0.1:${canary.port}/from-js").then(() => { document.body.style.background = "#ff0000" }, () => {})`;
    const img = await png({ ...base(), js });
    expect(near(img.pixel(50, 50), GREEN)).toBe(true);
    await settle();
    expect(canary.requests).toEqual([]);
  });

  it('js stuck in an endless loop fails within the render time limit, and the next capture works', async () => {
    const json = await failure({ ...base(), js: 'for (;;) {}' });
    expect(json.code).toBe('RENDER_FAILED');
    expect(json.message).toMatch(/^Failed to capture screenshot: /);
    const img = await png(base());
    expect(near(img.pixel(50, 50), GREEN)).toBe(true);
  });

  it('a js error is a clear 422', async () => {
    const json = await failure({ ...base(), js: 'throw new Error("boom")' });
    expect(json.message).toBe('Failed to capture screenshot: the js failed: Error: boom');
  });

  it('omitBackground leaves the default background transparent (alpha 0) in PNG', async () => {
    const img = await png({ url: `${pages.origin}/plain`, omitBackground: true, width: 100, height: 100 });
    expect(img.pixel(80, 80)[3]).toBe(0);
    expect(near(img.pixel(10, 10), [0, 0, 255, 255])).toBe(true);
  });

  it('clip captures that rectangle, cut to the page', async () => {
    const img = await png({ url: `${pages.origin}/plain`, width: 200, height: 200, clip: { x: 25, y: 30, width: 60, height: 40 } });
    expect([img.width, img.height]).toEqual([60, 40]);
    expect(near(img.pixel(5, 5), [0, 0, 255, 255])).toBe(true);
    expect(near(img.pixel(40, 30), [255, 255, 255, 255])).toBe(true);
    const cut = await png({ url: `${pages.origin}/plain`, width: 200, height: 200, clip: { x: 150, y: 0, width: 100, height: 20 } });
    expect([cut.width, cut.height]).toEqual([50, 20]);
    const outside = await failure({ url: `${pages.origin}/plain`, width: 200, height: 200, clip: { x: 500, y: 0, width: 10, height: 10 } });
    expect(outside.message).toBe('Failed to capture screenshot: clip starts outside the page (the page is 200×200)');
  });

  it('blockAds and blockTrackers are accepted and leave the page itself alone', async () => {
    const img = await png({ ...base(), blockAds: true, blockTrackers: true });
    expect(near(img.pixel(50, 50), GREEN)).toBe(true);
  });
});
