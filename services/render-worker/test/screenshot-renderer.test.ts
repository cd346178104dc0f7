import dns from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ScreenshotDevices, type ScreenshotRenderPayload } from '@render/contracts';
import { PNG } from 'pngjs';
import { KnownDevices } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LookupFn, parseAllowlist } from '../src/egress/address-policy.ts';
import { type EgressProxy, startEgressProxy } from '../src/egress/egress-proxy.ts';
import { RenderError } from '../src/renderers/render-error.ts';
import type { RendererContext } from '../src/renderers/renderer.ts';
import { consentVerdict } from '../src/renderers/screenshot/consent-blocker.ts';
import { acceptLanguage, deviceSettings } from '../src/renderers/screenshot/device-profiles.ts';
import { imageSize } from '../src/renderers/screenshot/image-size.ts';
import { blockingRule, isBlockedRequest } from '../src/renderers/screenshot/request-blocker.ts';
import { renderScreenshot } from '../src/renderers/screenshot/screenshot.renderer.ts';
import { parseTrackerDb, trackerFilters } from '../src/renderers/screenshot/tracker-filters.ts';
import { startTestPool, type TestPool } from './helpers/test-pool.ts';

// The renderer on its own, over a real Chromium and the real egress proxy; the proxy gets an injected
// resolver here so a custom host name can point at loopback (the gateway tests cannot inject one).

let proxy: EgressProxy;
let browser: TestPool;
let pages: { server: Server; port: number };
let canary: { server: Server; port: number; hits: string[] };
const adHits: string[] = [];

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

const BANNER_PAGE = `<!doctype html><html><head><meta charset="utf-8"></head>
<body style="margin:0;background:#fff">
  <div id="rejected" style="width:20px;height:20px;background:#fff"></div>
  <div id="onetrust-consent-sdk">
    <div id="onetrust-banner-sdk" style="position:fixed;left:0;right:0;bottom:0;height:200px;background:#ff0000;z-index:10">
      <p>We use cookies to improve your experience.</p>
      <button id="onetrust-accept-btn-handler">Accept All Cookies</button>
      <button id="onetrust-reject-all-handler" onclick="document.getElementById('onetrust-consent-sdk').remove();document.getElementById('rejected').style.background='#00ff00'">Reject All</button>
    </div>
  </div>
</body></html>`;

beforeAll(async () => {
  const hits: string[] = [];
  const canaryServer = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.end('canary');
  });
  canaryServer.on('connection', () => hits.push('connection'));
  canary = { server: canaryServer, port: await listen(canaryServer), hits };

  const pagesServer = createServer((req, res) => {
    const html = (body: string) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    if (req.url === '/banner') return html(BANNER_PAGE);
    if (req.url === '/ads') {
      // A listed ad host and a listed tracker host, both mapped to this server by the lookup below.
      return html(`<body style="margin:0;background:#0000ff">
        <script src="http://ads.doubleclick.net:${pages.port}/ad.js"></script>
        <script src="http://script.hotjar.com:${pages.port}/ga.js"></script></body>`);
    }
    if (req.url === '/ad.js' || req.url === '/ga.js') {
      adHits.push(`${req.headers.host?.split(':')[0]}${req.url}`);
      return res.writeHead(200, { 'content-type': 'text/javascript' }).end('');
    }
    if (req.url === '/language') {
      return html(
        `<body style="margin:0"><script>document.body.style.background = navigator.language === 'ja-JP' && ${JSON.stringify(
          req.headers['accept-language'] ?? '',
        )}.startsWith('ja-JP') ? '#00ff00' : '#ff0000'</script></body>`,
      );
    }
    return html('<body style="margin:0;background:#0000ff"></body>');
  });
  pages = { server: pagesServer, port: await listen(pagesServer) };

  // Only names the tests use; anything else fails like NXDOMAIN so nothing leaves the box.
  const lookup: LookupFn = async (hostname, options) => {
    if (hostname === 'intranet.test') return [{ address: '127.0.0.1', family: 4 }];
    if (hostname === 'ads.doubleclick.net' || hostname === 'script.hotjar.com') return [{ address: '127.0.0.1', family: 4 }];
    if (hostname === 'localhost') return dns.promises.lookup(hostname, options);
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  };
  proxy = await startEgressProxy({
    allowlist: parseAllowlist(`127.0.0.1:${pages.port},ads.doubleclick.net:${pages.port},script.hotjar.com:${pages.port}`),
    lookup,
  });
  browser = await startTestPool('screenshot', proxy.url, 'screenshot-test');
});

afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  pages?.server.closeAllConnections();
  pages?.server.close();
  canary?.server.closeAllConnections();
  canary?.server.close();
});

const ctx: RendererContext = {
  pool: async () => browser.cluster,
  timeoutMs: 10_000,
  // Screenshots fetch no image variables.
  imageFetch: { proxyUrl: 'http://127.0.0.1:9', maxBytes: 1024, timeoutMs: 1_000 },
};

const payload = (url: string, extra: Partial<ScreenshotRenderPayload> = {}): ScreenshotRenderPayload => ({
  url,
  format: 'png',
  deviceType: 'desktop',
  fullPage: false,
  quality: 80,
  language: 'en-US',
  delay: 0,
  hideCookieBanners: true,
  hideScrollbars: true,
  darkMode: false,
  transparent: false,
  waitUntil: 'load',
  blockAds: false,
  blockTrackers: false,
  width: 400,
  height: 300,
  ...extra,
});

const pixel = (bytes: Buffer, x: number, y: number) => {
  const png = PNG.sync.read(bytes);
  const i = (png.width * y + x) * 4;
  return [png.data[i], png.data[i + 1], png.data[i + 2]];
};

const failureOf = async (p: ScreenshotRenderPayload) => {
  const err = await renderScreenshot(p, ctx).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RenderError);
  return err as RenderError;
};

describe('screenshot renderer', () => {
  it('refuses a custom host name that resolves to loopback, naming the reason, and reaches nothing', async () => {
    const err = await failureOf(payload(`http://intranet.test:${canary.port}/`));
    expect(err.message).toBe(
      'Failed to capture screenshot: the address is not allowed (intranet.test points to a private, loopback or reserved network)',
    );
    expect(err.retryable).toBe(false);
    expect(canary.hits).toEqual([]);
  });

  it('explains a refused https address although Chromium only reports a failed tunnel', async () => {
    const err = await failureOf(payload(`https://127.0.0.1:${canary.port}/`));
    expect(err.message).toBe(
      'Failed to capture screenshot: the address is not allowed (127.0.0.1 is in a private, loopback or reserved network)',
    );
    expect(canary.hits).toEqual([]);
  });

  it('rejects the cookie popup of a known consent platform through the autoconsent rules', async () => {
    const url = `http://127.0.0.1:${pages.port}/banner`;
    const hidden = await renderScreenshot(payload(url), ctx);
    expect(pixel(hidden.bytes, 200, 250)).toEqual([255, 255, 255]);
    // The rule clicked "Reject All" (the page's own handler marks it), rather than only hiding the popup.
    expect(pixel(hidden.bytes, 5, 5)).toEqual([0, 255, 0]);
    const shown = await renderScreenshot(payload(url, { hideCookieBanners: false }), ctx);
    expect(pixel(shown.bytes, 200, 250)).toEqual([255, 0, 0]);
  });

  it('sends the language as Accept-Language and navigator.language', async () => {
    const shot = await renderScreenshot(payload(`http://127.0.0.1:${pages.port}/language`, { language: 'ja-JP' }), ctx);
    expect(pixel(shot.bytes, 10, 10)).toEqual([0, 255, 0]);
  });
});

describe('screenshot units', () => {
  it.each([
    [{}, ['ads.doubleclick.net/ad.js', 'script.hotjar.com/ga.js']],
    [{ blockAds: true }, ['script.hotjar.com/ga.js']],
    [{ blockTrackers: true }, ['ads.doubleclick.net/ad.js']],
    [{ blockAds: true, blockTrackers: true }, []],
  ])('%j: requests to listed hosts are blocked before they leave the browser', async (extra, reached) => {
    adHits.length = 0;
    const shot = await renderScreenshot(payload(`http://127.0.0.1:${pages.port}/ads`, extra), ctx);
    expect(pixel(shot.bytes, 10, 10)).toEqual([0, 0, 255]);
    expect([...adHits].sort()).toEqual(reached);
  });

  it('block decisions: a listed domain and its subdomains, not look-alikes, never the page’s own host', () => {
    const ad = (url: string, pageHost = 'example.com', type?: string) => blockingRule(url, ['ads'], pageHost, type)?.filter;
    // ||doubleclick.net^$3p from the installed trackerdb, for the host and any subdomain, case and root dot aside.
    expect(ad('https://doubleclick.net/x')).toBe('||doubleclick.net^$3p');
    expect(ad('https://Stats.G.DoubleClick.NET./x')).toMatch(/doubleclick\.net\^\$3p$/);
    expect(ad('http://ads.doubleclick.net:8080/ad.js')).toMatch(/doubleclick\.net\^\$3p$/);
    expect(ad('https://notdoubleclick.net/')).toBeUndefined();
    expect(ad('https://doubleclick.net.example.com/')).toBeUndefined();
    expect(ad('https://example.com/?u=doubleclick.net')).toBeUndefined();
    // $3p: not from a page of the same site; never the page's own host.
    expect(ad('https://ad.doubleclick.net/x', 'www.doubleclick.net')).toBeUndefined();
    expect(ad('https://doubleclick.net/', 'doubleclick.net')).toBeUndefined();
    expect(ad('data:text/plain,doubleclick.net')).toBeUndefined();
    expect(isBlockedRequest('not a url', ['ads', 'trackers'], 'example.com')).toBe(false);
    // Path filters: Google Analytics' scripts (site_analytics) but not the rest of the host.
    expect(isBlockedRequest('https://www.google-analytics.com/analytics.js', ['trackers'], 'example.com')).toBe(true);
    expect(isBlockedRequest('https://www.google-analytics.com/analytics.js', ['ads'], 'example.com')).toBe(false);
    expect(isBlockedRequest('https://www.google-analytics.com/other.js', ['trackers'], 'example.com')).toBe(false);
    // trackerdb_domain lines only attribute ownership: google.com itself is not blocked, its ad paths are.
    expect(isBlockedRequest('https://www.google.com/maps/embed', ['ads', 'trackers'], 'example.com')).toBe(false);
    expect(isBlockedRequest('https://www.google.com/pagead/lvz?x=1', ['ads'], 'example.com')).toBe(true);
    // Categories left out on purpose: tag managers (utilities), players, chat widgets.
    expect(isBlockedRequest('https://www.googletagmanager.com/gtm.js?id=GTM-1', ['ads', 'trackers'], 'example.com')).toBe(false);
  });

  it('parses trackerdb filters: host rules with separators, wildcards, party and type options; skips the rest', () => {
    const db = parseTrackerDb(
      [
        '! trackerdb_id:a trackerdb_category:advertising trackerdb_filter',
        '||ads.example^$3p',
        '! trackerdb_id:a trackerdb_category:advertising trackerdb_domain',
        '||owner.example^',
        '! trackerdb_id:b trackerdb_category:site_analytics trackerdb_filter',
        '||stats.example/pixel*.gif|',
        '! trackerdb_id:b trackerdb_category:site_analytics trackerdb_filter',
        '||cdn.example/t.js$script',
        '! trackerdb_id:c trackerdb_category:site_analytics trackerdb_filter',
        '/^https:\\/\\/x\\.example\\//',
        '! trackerdb_id:c trackerdb_category:site_analytics trackerdb_filter',
        '||y.example^$domain=z.example',
        '! trackerdb_id:d trackerdb_category:social_media trackerdb_filter',
        '||social.example^',
        '',
      ].join('\n'),
      'inline',
    );
    expect(db.stats.used).toEqual({ ads: 1, trackers: 2 });
    expect(db.stats.skipped).toEqual({ regex: 1, 'not-host-anchored': 0, options: 1, cosmetic: 0 });
    const rule = (url: string, type?: string) => blockingRule(url, ['ads', 'trackers'], 'page.test', type, db)?.filter;
    expect(rule('https://a.ads.example/')).toBe('||ads.example^$3p');
    expect(rule('https://owner.example/')).toBeUndefined();
    expect(rule('https://stats.example/pixel-1.gif')).toBe('||stats.example/pixel*.gif|');
    expect(rule('https://stats.example/pixel-1.gif?x')).toBeUndefined();
    expect(rule('https://cdn.example/t.js', 'Script')).toBe('||cdn.example/t.js$script');
    expect(rule('https://cdn.example/t.js', 'Image')).toBeUndefined();
    expect(rule('https://social.example/')).toBeUndefined();
  });

  it('loads the installed trackerdb once, with thousands of rules in each category', () => {
    expect(trackerFilters.stats.source).toMatch(/@ghostery[\\/]trackerdb[\\/]dist[\\/]trackerdb\.txt$/);
    expect(trackerFilters.stats.used.ads).toBeGreaterThan(1_000);
    expect(trackerFilters.stats.used.trackers).toBeGreaterThan(500);
  });

  it('device numbers shared with the gateway match puppeteer’s device table', () => {
    for (const device of Object.values(ScreenshotDevices)) {
      if (!device.emulates) continue;
      const known = KnownDevices[device.emulates].viewport;
      expect([known.width, known.height, known.deviceScaleFactor]).toEqual([device.width, device.height, device.deviceScaleFactor]);
    }
  });

  it('device settings: mobile keeps its nature when the size is overridden', () => {
    const mobile = deviceSettings('mobile', { width: 500 });
    expect(mobile.viewport).toMatchObject({ width: 500, height: 844, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
    expect(mobile.userAgent).toMatch(/iPhone/);
    expect(mobile.platform).toBe('iPhone');
    expect(deviceSettings('tablet', {}).platform).toBe('iPad');
    expect(deviceSettings('desktop', { scale: 2 })).toEqual({
      viewport: { width: 1280, height: 800, deviceScaleFactor: 2, isMobile: false, hasTouch: false, isLandscape: false },
      userAgent: undefined,
      platform: undefined,
    });
  });

  it('accept-language lists the region, then the bare language', () => {
    expect(acceptLanguage('fr-FR')).toBe('fr-FR,fr');
    expect(acceptLanguage('zh-CN')).toBe('zh-CN,zh');
  });

  it('reads image sizes from PNG, JPEG and WebP headers', () => {
    const png = new PNG({ width: 7, height: 3 });
    expect(imageSize(PNG.sync.write(png))).toEqual({ width: 7, height: 3 });
    // Minimal JPEG: SOI, an APP0 segment, then SOF0 with height 5 and width 9.
    const jpeg = Buffer.from([
      0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x0b, 0x08, 0x00, 0x05, 0x00, 0x09, 0x01, 0x01, 0x11, 0x00,
    ]);
    expect(imageSize(jpeg)).toEqual({ width: 9, height: 5 });
    expect(imageSize(Buffer.from('not an image at all, just text....'))).toBeUndefined();
  });

  it('consent verdicts: waits while a popup is being handled, stops when done or nothing was found', () => {
    const base = {
      lifecycle: 'started' as const,
      prehideOn: true,
      findCmpAttempts: 1,
      detectedCmps: [] as string[],
      detectedPopups: [] as string[],
      heuristicPatterns: [],
      heuristicSnippets: [],
      selfTest: null,
      clicks: 0,
      startTime: 0,
      endTime: 0,
    };
    expect(consentVerdict(undefined)).toBeUndefined();
    expect(consentVerdict(base)).toBeUndefined();
    expect(consentVerdict({ ...base, findCmpAttempts: 2 })?.outcome).toEqual({ status: 'none' });
    expect(
      consentVerdict({ ...base, lifecycle: 'runningOptOut', detectedCmps: ['Onetrust'], detectedPopups: ['Onetrust'] }),
    ).toBeUndefined();
    expect(consentVerdict({ ...base, lifecycle: 'done', detectedPopups: ['Onetrust'], clicks: 1 })).toEqual({
      outcome: { status: 'handled', cmp: 'Onetrust' },
      clicked: true,
    });
    expect(consentVerdict({ ...base, lifecycle: 'cmpDetected', detectedCmps: ['x'], prehideOn: false })?.outcome).toEqual({
      status: 'none',
    });
  });
});
