import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ScreenshotDevices, type ScreenshotRenderPayload } from '@render/contracts';
import { parseAllowlist } from '@render/egress-policy';
import { PNG } from 'pngjs';
import { KnownDevices } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadWorkerConfig } from '../src/config.ts';
import { type EgressProxy, startEgressProxy } from '../src/egress/egress-proxy.ts';
import { RenderError } from '../src/renderers/page/render-error.ts';
import type { RendererContext } from '../src/renderers/page/renderer.ts';
import {
  DEFAULT_BLOCKLIST_DIR,
  defaultScreenshotFilters,
  loadScreenshotFilters,
  packagedCookieList,
  parseBlockListFiles,
} from '../src/renderers/screenshot/block-lists.ts';
import { consentVerdict, nextConsentStep } from '../src/renderers/screenshot/consent-blocker.ts';
import { isConsentRequest } from '../src/renderers/screenshot/consent-scripts.ts';
import {
  addCosmeticList,
  domainKeys,
  emptyCosmeticFilters,
  selectorsFor,
  selectorToken,
} from '../src/renderers/screenshot/cosmetic-filters.ts';
import { acceptLanguage, deviceSettings } from '../src/renderers/screenshot/device-profiles.ts';
import { imageSize } from '../src/renderers/screenshot/image-size.ts';
import { blockingRule, isBlockedRequest } from '../src/renderers/screenshot/request-blocker.ts';
import { renderScreenshot } from '../src/renderers/screenshot/screenshot.renderer.ts';
import { addFilterList, addTrackerDb, emptyFilters, hostsOfLine } from '../src/renderers/screenshot/tracker-filters.ts';
import { type Canary, closeServers, listen, loopbackLookup, startCanary } from './helpers/local-servers.ts';
import { screenshotJob } from './helpers/screenshot-job.ts';
import { startTestPool, type TestPool } from './helpers/test-pool.ts';

// The renderer on its own, over a real Chromium and the real egress proxy; the proxy gets an injected
// resolver here so a custom host name can point at loopback (the gateway tests cannot inject one).

let proxy: EgressProxy;
let browser: TestPool;
let pages: { server: Server; port: number };
let canary: Canary;
const adHits: string[] = [];
/** Where the banner tests save their captures to be looked at, when set (as full-page-capture.test.ts). */
const SHOTS_DIR = process.env.SHOTS_DIR;
const save = (name: string, bytes: Buffer) => SHOTS_DIR && writeFileSync(path.join(SHOTS_DIR, name), bytes);

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

/** CookieYes's markup: a platform autoconsent knows by a rule of its rule set (not by code, as OneTrust). */
const COOKIEYES_PAGE = `<!doctype html><html><head><meta charset="utf-8"></head>
<body style="margin:0;background:#fff">
  <div id="rejected" style="width:20px;height:20px;background:#fff"></div>
  <div class="cky-consent-container" style="position:fixed;left:0;right:0;bottom:0;height:200px;background:#ff0000;z-index:10">
    <p>We value your privacy.</p>
    <button data-cky-tag="accept-button">Accept All</button>
    <button data-cky-tag="reject-button" onclick="document.querySelector('.cky-consent-container').remove();document.getElementById('rejected').style.background='#00ff00'">Reject All</button>
  </div>
</body></html>`;

/** OneTrust's markup, injected by a script: the page's marker turns green when "Reject All" is clicked. */
const INJECT_BANNER = `(() => {
  const markup = ${JSON.stringify(BANNER_PAGE.slice(BANNER_PAGE.indexOf('<div id="onetrust-consent-sdk">'), BANNER_PAGE.lastIndexOf('</body>')))};
  document.body.insertAdjacentHTML('beforeend', markup);
})();`;

/** Scripts each page asks for, as the server saw them. */
const scriptHits: string[] = [];

beforeAll(async () => {
  canary = await startCanary();

  const pagesServer = createServer((req, res) => {
    const html = (body: string) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    if (req.url === '/banner') return html(BANNER_PAGE);
    if (req.url === '/cookieyes') return html(COOKIEYES_PAGE);
    if (req.url === '/late-banner') {
      // The banner comes 150 ms after the load event, as a platform loaded by a tag manager would show it.
      return html(`<body style="margin:0;background:#fff"><div id="rejected" style="width:20px;height:20px;background:#fff"></div>
        <script>addEventListener('load', () => setTimeout(() => { ${INJECT_BANNER} }, 150));</script></body>`);
    }
    if (req.url === '/slow-consent') {
      // The platform's script is added once the page has loaded and takes 600 ms to arrive.
      return html(`<body style="margin:0;background:#fff"><div id="rejected" style="width:20px;height:20px;background:#fff"></div>
        <script>addEventListener('load', () => { const s = document.createElement('script'); s.src = '/consent/otSDKStub.js'; document.head.append(s); });</script></body>`);
    }
    if (req.url === '/consent/otSDKStub.js') {
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/javascript' }).end(INJECT_BANNER), 600);
      return;
    }
    if (req.url === '/frame-after-load') {
      // The load handler changes the page in an animation frame (the capture draws one, nothing else waits).
      return html(`<body style="margin:0;background:#ff0000"><script>addEventListener('load', () => requestAnimationFrame(() => {
        document.body.style.background = '#00ff00'; }));</script></body>`);
    }
    if (req.url === '/cookie-notice') {
      // A notice no consent platform rule knows, in the flow above the content: the cookie-notice list's.
      return html(`<body style="margin:0"><div id="cookie-banner" style="height:100px;background:#ff0000">We use cookies</div>
        <div style="height:400px;background:#00ff00"></div></body>`);
    }
    if (req.url === '/listed') {
      return html(`<body style="margin:0;background:#0000ff"><script src="http://tracker.example:${pages.port}/t.js"></script></body>`);
    }
    if (req.url === '/t.js') {
      scriptHits.push(`${req.headers.host?.split(':')[0]}${req.url}`);
      return res.writeHead(200, { 'content-type': 'text/javascript' }).end('');
    }
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

  const lookup = loopbackLookup(['intranet.test', 'ads.doubleclick.net', 'script.hotjar.com', 'tracker.example']);
  proxy = await startEgressProxy({
    allowlist: parseAllowlist(
      `127.0.0.1:${pages.port},ads.doubleclick.net:${pages.port},script.hotjar.com:${pages.port},tracker.example:${pages.port}`,
    ),
    lookup,
  });
  browser = await startTestPool('screenshot', proxy.url, 'screenshot-test');
});

afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  closeServers(pages?.server, canary?.server);
});

const ctx: RendererContext = {
  pool: async () => browser.cluster,
  timeoutMs: 10_000,
  // Screenshots fetch no image variables.
  imageFetch: { proxyUrl: 'http://127.0.0.1:9', maxBytes: 1024, timeoutMs: 1_000 },
};

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
    const err = await failureOf(screenshotJob(`http://intranet.test:${canary.port}/`));
    expect(err.message).toBe(
      'Failed to capture screenshot: the address is not allowed (intranet.test points to a private, loopback or reserved network)',
    );
    expect(err.retryable).toBe(false);
    expect(canary.hits).toEqual([]);
  });

  it('says a name could not be resolved, over http and https, rather than calling its address not allowed', async () => {
    for (const url of ['http://no-such-host.invalid/', 'https://no-such-host.invalid/']) {
      const err = await failureOf(screenshotJob(url));
      expect(err.message, url).toBe('Failed to capture screenshot: no-such-host.invalid could not be resolved (ENOTFOUND)');
      expect(err.retryable, url).toBe(false);
    }
  });

  it('reaches localhost when 127.0.0.1 is allow-listed on that port (loopback names match the listed address)', async () => {
    const image = await renderScreenshot(screenshotJob(`http://localhost:${pages.port}/`), ctx);
    expect(image.bytes.length).toBeGreaterThan(0);
    // Not on another port of the same address.
    const err = await failureOf(screenshotJob(`http://localhost:${canary.port}/`));
    expect(err.message).toBe(
      'Failed to capture screenshot: the address is not allowed (localhost points to a private, loopback or reserved network)',
    );
    expect(canary.hits).toEqual([]);
  });

  it('explains a refused https address although Chromium only reports a failed tunnel', async () => {
    const err = await failureOf(screenshotJob(`https://127.0.0.1:${canary.port}/`));
    expect(err.message).toBe(
      'Failed to capture screenshot: the address is not allowed (127.0.0.1 is in a private, loopback or reserved network)',
    );
    expect(canary.hits).toEqual([]);
  });

  it('rejects the cookie popup of a known consent platform through the autoconsent rules', async () => {
    const url = `http://127.0.0.1:${pages.port}/banner`;
    const hidden = await renderScreenshot(screenshotJob(url), ctx);
    save('banner-hidden.png', hidden.bytes);
    expect(pixel(hidden.bytes, 200, 250)).toEqual([255, 255, 255]);
    // The rule clicked "Reject All" (the page's own handler marks it), rather than only hiding the popup.
    expect(pixel(hidden.bytes, 5, 5)).toEqual([0, 255, 0]);
    const shown = await renderScreenshot(screenshotJob(url, { hideCookieBanners: false }), ctx);
    save('banner-shown.png', shown.bytes);
    expect(pixel(shown.bytes, 200, 250)).toEqual([255, 0, 0]);
  });

  it('rejects a popup through a rule of the rule set, sent to the page among the few it shows a sign of', async () => {
    const hidden = await renderScreenshot(screenshotJob(`http://127.0.0.1:${pages.port}/cookieyes`), ctx);
    save('cookieyes-hidden.png', hidden.bytes);
    expect(pixel(hidden.bytes, 200, 250)).toEqual([255, 255, 255]);
    expect(pixel(hidden.bytes, 5, 5)).toEqual([0, 255, 0]);
  });

  it('hides a banner that appears after the load event (the cookie-notice list, applied just before the capture)', async () => {
    const url = `http://127.0.0.1:${pages.port}/late-banner`;
    const hidden = await renderScreenshot(screenshotJob(url, { delay: 500 }), ctx);
    expect(pixel(hidden.bytes, 200, 250)).toEqual([255, 255, 255]);
    const shown = await renderScreenshot(screenshotJob(url, { delay: 500, hideCookieBanners: false }), ctx);
    expect(pixel(shown.bytes, 200, 250)).toEqual([255, 0, 0]);
  });

  it('waits for a consent platform whose script is still loading, then rejects its popup', async () => {
    const shot = await renderScreenshot(screenshotJob(`http://127.0.0.1:${pages.port}/slow-consent`), ctx);
    save('slow-consent.png', shot.bytes);
    expect(pixel(shot.bytes, 200, 250)).toEqual([255, 255, 255]);
    // Clicked, not only hidden: the script arrived 600 ms after the load event and the capture waited for it.
    expect(pixel(shot.bytes, 5, 5)).toEqual([0, 255, 0]);
  });

  it('hides a notice only the cookie-notice list knows, taking it out of the layout', async () => {
    const url = `http://127.0.0.1:${pages.port}/cookie-notice`;
    const hidden = await renderScreenshot(screenshotJob(url), ctx);
    save('cookie-notice-hidden.png', hidden.bytes);
    expect(pixel(hidden.bytes, 390, 50)).toEqual([0, 255, 0]);
    const shown = await renderScreenshot(screenshotJob(url, { hideCookieBanners: false }), ctx);
    save('cookie-notice-shown.png', shown.bytes);
    expect(pixel(shown.bytes, 390, 50)).toEqual([255, 0, 0]);
  });

  it('blocks a host listed in a BLOCKLIST_FILES file (hosts syntax), which the default lists let through', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'blocklist-')), 'hosts.txt');
    writeFileSync(file, '# trackers\n127.0.0.1 localhost\n0.0.0.0 tracker.example\n');
    const filters = loadScreenshotFilters({ files: [{ category: 'trackers', path: file }], trackerDb: false, cookieFiles: [] });
    const url = `http://127.0.0.1:${pages.port}/listed`;
    scriptHits.length = 0;
    const blocked = await renderScreenshot(screenshotJob(url, { blockTrackers: true }), { ...ctx, filters });
    expect(pixel(blocked.bytes, 10, 10)).toEqual([0, 0, 255]);
    expect(scriptHits).toEqual([]);
    await renderScreenshot(screenshotJob(url, { blockTrackers: true }), ctx);
    expect(scriptHits).toEqual(['tracker.example/t.js']);
  });

  it('runs the consent rule set only on a page that shows a sign of a platform (its element, or its request)', async () => {
    const decisions: unknown[] = [];
    const logger = { isLevelEnabled: () => true, debug: (fields: { consent?: string }) => decisions.push(fields.consent) };
    const logged = { ...ctx, logger } as unknown as RendererContext;
    for (const page of ['/frame-after-load', '/banner', '/slow-consent', '/'])
      await renderScreenshot(screenshotJob(`http://127.0.0.1:${pages.port}${page}`), logged);
    await renderScreenshot(screenshotJob(`http://127.0.0.1:${pages.port}/banner`, { hideCookieBanners: false }), logged);
    // Plain pages: no script; OneTrust's markup, and a platform's script requested after the load event:
    // the script ran; banners kept: nothing to decide.
    expect(decisions).toEqual(['not needed', 'ran', 'ran', 'not needed', undefined]);
    // Five captures, one of them waiting for a slow consent script: ~1.5 s alone, past 5 s on a loaded machine.
  }, 20_000);

  it('captures what the load event left for the next animation frame', async () => {
    for (const hideCookieBanners of [true, false]) {
      const shot = await renderScreenshot(screenshotJob(`http://127.0.0.1:${pages.port}/frame-after-load`, { hideCookieBanners }), ctx);
      expect(pixel(shot.bytes, 10, 10)).toEqual([0, 255, 0]);
    }
  });

  it('sends the language as Accept-Language and navigator.language', async () => {
    const shot = await renderScreenshot(screenshotJob(`http://127.0.0.1:${pages.port}/language`, { language: 'ja-JP' }), ctx);
    expect(pixel(shot.bytes, 10, 10)).toEqual([0, 255, 0]);
  });
});

/** Autoconsent's state after its first look at a page found nothing yet. */
const STARTED_CONSENT = {
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

describe('screenshot units', () => {
  it.each([
    [{}, ['ads.doubleclick.net/ad.js', 'script.hotjar.com/ga.js']],
    [{ blockAds: true }, ['script.hotjar.com/ga.js']],
    [{ blockTrackers: true }, ['ads.doubleclick.net/ad.js']],
    [{ blockAds: true, blockTrackers: true }, []],
  ])('%j: requests to listed hosts are blocked before they leave the browser', async (extra, reached) => {
    adHits.length = 0;
    const shot = await renderScreenshot(screenshotJob(`http://127.0.0.1:${pages.port}/ads`, extra), ctx);
    expect(pixel(shot.bytes, 10, 10)).toEqual([0, 0, 255]);
    expect([...adHits].sort()).toEqual(reached);
  });

  it('block decisions with the default lists: a listed domain and its subdomains, not look-alikes, never the page’s own host', () => {
    const ad = (url: string, pageHost = 'example.com', type?: string) => blockingRule(url, ['ads'], pageHost, type)?.filter;
    expect(ad('https://doubleclick.net/x')).toBe('||doubleclick.net^');
    expect(ad('https://Stats.G.DoubleClick.NET./x')).toBe('||doubleclick.net^');
    expect(ad('http://ads.doubleclick.net:8080/ad.js')).toBe('||doubleclick.net^');
    expect(ad('https://notdoubleclick.net/')).toBeUndefined();
    expect(ad('https://doubleclick.net.example.com/')).toBeUndefined();
    expect(ad('https://example.com/?u=doubleclick.net')).toBeUndefined();
    expect(ad('https://doubleclick.net/', 'doubleclick.net')).toBeUndefined();
    expect(ad('data:text/plain,doubleclick.net')).toBeUndefined();
    expect(isBlockedRequest('not a url', ['ads', 'trackers'], 'example.com')).toBe(false);
    // Analytics are trackers, not ads.
    expect(isBlockedRequest('https://www.google-analytics.com/analytics.js', ['trackers'], 'example.com')).toBe(true);
    expect(isBlockedRequest('https://www.google-analytics.com/analytics.js', ['ads'], 'example.com')).toBe(false);
    // Path filters: google.com itself is not blocked, its ad paths are.
    expect(isBlockedRequest('https://www.google.com/maps/embed', ['ads', 'trackers'], 'example.com')).toBe(false);
    expect(isBlockedRequest('https://www.google.com/pagead/lvz?x=1', ['ads'], 'example.com')).toBe(true);
    // Left out on purpose: tag managers, which may load page content.
    expect(isBlockedRequest('https://www.googletagmanager.com/gtm.js?id=GTM-1', ['ads', 'trackers'], 'example.com')).toBe(false);
    // The defaults are the project's own files, and nothing else.
    expect(defaultScreenshotFilters().network.stats.sources).toEqual([
      path.join(DEFAULT_BLOCKLIST_DIR, 'ads.txt'),
      path.join(DEFAULT_BLOCKLIST_DIR, 'trackers.txt'),
    ]);
    expect(defaultScreenshotFilters().network.stats.used.ads).toBeGreaterThan(50);
    expect(defaultScreenshotFilters().network.stats.used.trackers).toBeGreaterThan(50);
  });

  it('parses adblock filters: host rules with separators, wildcards, party and type options, exceptions; skips the rest', () => {
    const list = addFilterList(
      emptyFilters(),
      [
        '[Adblock Plus 2.0]',
        '! a comment',
        '||ads.example^$3p',
        '||stats.example/pixel*.gif|',
        '||cdn.example/t.js$script',
        '/^https:\\/\\/x\\.example\\//',
        '||y.example^$domain=z.example',
        '/banner/ads/*',
        'example.org##.ad',
        '||allowed.example^',
        '@@||allowed.example/ok.js',
      ].join('\n'),
      'ads',
      'inline',
    );
    expect(list.stats.used).toEqual({ ads: 4, trackers: 0 });
    expect(list.stats.skipped).toEqual({ regex: 1, 'not-host-anchored': 1, options: 1, cosmetic: 1 });
    const rule = (url: string, type?: string, pageHost = 'page.test') =>
      blockingRule(url, ['ads', 'trackers'], pageHost, type, list)?.filter;
    expect(rule('https://a.ads.example/')).toBe('||ads.example^$3p');
    expect(rule('https://a.ads.example/', undefined, 'www.ads.example')).toBeUndefined(); // $3p: same site
    expect(rule('https://stats.example/pixel-1.gif')).toBe('||stats.example/pixel*.gif|');
    expect(rule('https://stats.example/pixel-1.gif?x')).toBeUndefined();
    expect(rule('https://cdn.example/t.js', 'Script')).toBe('||cdn.example/t.js$script');
    expect(rule('https://cdn.example/t.js', 'Image')).toBeUndefined();
    expect(rule('https://allowed.example/other.js')).toBe('||allowed.example^');
    expect(rule('https://allowed.example/ok.js')).toBeUndefined(); // the @@ exception
    // An exception only lifts rules of its own category.
    addFilterList(list, '||allowed.example^', 'trackers', 'inline 2');
    expect(blockingRule('https://allowed.example/ok.js', ['trackers'], 'page.test', undefined, list)?.filter).toBe('||allowed.example^');
  });

  it('parses hosts files and plain domain lists: every name on a line, not the machine’s own names', () => {
    expect(hostsOfLine('0.0.0.0 tracker.example')).toEqual(['tracker.example']);
    expect(hostsOfLine('127.0.0.1\tone.example  two.example # trailing comment')).toEqual(['one.example', 'two.example']);
    expect(hostsOfLine('127.0.0.1 localhost')).toEqual([]);
    expect(hostsOfLine('::1 ip6-localhost')).toEqual([]);
    expect(hostsOfLine('Plain.Example.')).toEqual(['plain.example']);
    expect(hostsOfLine('# 0.0.0.0 commented.example')).toEqual([]);
    expect(hostsOfLine('||anchored.example^')).toEqual([]);
    const hosts = addFilterList(
      emptyFilters(),
      '# a hosts file\n127.0.0.1 localhost\n0.0.0.0 tracker.example\n0.0.0.0 ads.example cdn.ads.example\nlisted.example\n',
      'trackers',
      'hosts',
    );
    expect(hosts.stats.used.trackers).toBe(4);
    const blocked = (url: string) => isBlockedRequest(url, ['trackers'], 'page.test', undefined, hosts);
    expect(blocked('https://sub.tracker.example/x.js')).toBe(true);
    expect(blocked('https://listed.example/')).toBe(true);
    expect(blocked('http://localhost/')).toBe(false);
    expect(isBlockedRequest('https://tracker.example/', ['ads'], 'page.test', undefined, hosts)).toBe(false);
  });

  it('reads trackerdb only when chosen, mapping its categories', () => {
    // trackerdb.txt: each filter under a header naming its tracker, category and kind (filter or domain).
    const entry = ([id, category, kind, filter]: string[]) =>
      `! trackerdb_id:${id} trackerdb_category:${category} trackerdb_${kind}\n${filter}\n`;
    const text = [
      ['a', 'advertising', 'filter', '||ads.example^$3p'],
      ['a', 'advertising', 'domain', '||owner.example^'],
      ['b', 'site_analytics', 'filter', '||stats.example/pixel*.gif|'],
      ['d', 'social_media', 'filter', '||social.example^'],
    ]
      .map(entry)
      .join('');
    const db = addTrackerDb(emptyFilters(), text, 'inline');
    expect(db.stats.used).toEqual({ ads: 1, trackers: 1 });
    const rule = (url: string) => blockingRule(url, ['ads', 'trackers'], 'page.test', undefined, db)?.filter;
    expect(rule('https://owner.example/')).toBeUndefined();
    expect(rule('https://social.example/')).toBeUndefined();
    expect(defaultScreenshotFilters().network.stats.sources).not.toContain('@ghostery/trackerdb');
    const chosen = loadScreenshotFilters({ files: [], trackerDb: true, cookieFiles: [] });
    expect(chosen.network.stats.sources.at(-1)).toBe('@ghostery/trackerdb');
    expect(chosen.network.stats.used.ads).toBeGreaterThan(1_000);
  });

  it('BLOCKLIST_FILES: ads=/trackers= entries; a malformed entry or an unreadable file is a clear error at start', () => {
    expect(parseBlockListFiles(' ads=/a/easylist.txt, trackers=/b/easyprivacy.txt ,')).toEqual([
      { category: 'ads', path: '/a/easylist.txt' },
      { category: 'trackers', path: '/b/easyprivacy.txt' },
    ]);
    expect(() => parseBlockListFiles('/a/easylist.txt')).toThrow('BLOCKLIST_FILES: "/a/easylist.txt" is not ads=<file> or trackers=<file>');
    expect(() => loadWorkerConfig({ BLOCKLIST_FILES: 'malware=/x' })).toThrow(/BLOCKLIST_FILES: "malware=\/x" is not/);
    const config = loadWorkerConfig({ BLOCKLIST_FILES: 'ads=/x/a.txt', BLOCKLIST_TRACKERDB: 'true', COOKIE_LIST_FILES: '/c.txt' });
    expect(config.BLOCKLISTS).toEqual({ files: [{ category: 'ads', path: '/x/a.txt' }], trackerDb: true, cookieFiles: ['/c.txt'] });
    expect(loadWorkerConfig({}).BLOCKLISTS).toEqual({ files: [], trackerDb: false, cookieFiles: [] });
    expect(() =>
      loadScreenshotFilters({ files: [{ category: 'ads', path: '/nonexistent/list.txt' }], trackerDb: false, cookieFiles: [] }),
    ).toThrow('BLOCKLIST_FILES: cannot read /nonexistent/list.txt (ENOENT)');
  });

  it('cosmetic rules: generic selectors indexed by their leading id or class, domain rules, exceptions; procedural rules skipped', () => {
    expect(selectorToken('#Cookie-Bar > .x')).toBe('#cookie-bar');
    expect(selectorToken('.cc-window')).toBe('.cc-window');
    expect(selectorToken('[data-cookie-banner]')).toBeUndefined();
    expect(selectorToken('#\\5f cookie')).toBeUndefined();
    expect(selectorToken('.a, .b')).toBeUndefined();
    expect(domainKeys('shop.example.co.uk')).toEqual(
      expect.arrayContaining(['shop.example.co.uk', 'example.co.uk', 'example.co.*', 'example.*', 'co.uk', 'uk']),
    );
    const list = addCosmeticList(
      emptyCosmeticFilters(),
      [
        '! comment',
        '###cookie-bar',
        '##.cc-window',
        '##[data-cookie-banner]',
        'example.com##.site-notice',
        'shop.*##.shop-notice',
        'example.com#@#.cc-window',
        'example.com##.x:has-text(cookies)',
        'example.com##+js(set-cookie, a, b)',
        'example.com#?#.y:-abp-has(.z)',
        '##.evil{background:red}',
        '||blocked.example^',
      ].join('\n'),
      'inline',
    );
    expect(list.stats).toMatchObject({ generic: 3, specific: 2, skipped: 3 });
    expect(selectorsFor(list, 'other.org', ['#cookie-bar', '.unrelated']).sort()).toEqual(['#cookie-bar', '[data-cookie-banner]']);
    expect(selectorsFor(list, 'www.example.com', ['#cookie-bar', '.cc-window']).sort()).toEqual([
      '#cookie-bar',
      '.site-notice',
      '[data-cookie-banner]',
    ]);
    expect(selectorsFor(list, 'shop.co.uk', [])).toEqual(expect.arrayContaining(['.shop-notice']));
    // The packaged EasyList Cookie: thousands of rules, OneTrust's container among them.
    const packaged = defaultScreenshotFilters().cosmetic;
    expect(packaged.stats.sources).toEqual([packagedCookieList()]);
    expect(packaged.stats.generic).toBeGreaterThan(10_000);
    expect(packaged.byToken.get('#onetrust-consent-sdk')).toContain('#onetrust-consent-sdk');
  });

  it('consent requests: hosted platforms by host, self-hosted ones by script name', () => {
    expect(isConsentRequest('https://cdn.cookielaw.org/scripttemplates/otSDKStub.js', 'script')).toBe(true);
    expect(isConsentRequest('https://geolocation.onetrust.com/cookieconsentpub/v1/geo/location', 'fetch')).toBe(true);
    expect(isConsentRequest('https://shop.example/assets/otSDKStub.js?v=2', 'script')).toBe(true);
    expect(isConsentRequest('https://shop.example/assets/otSDKStub.js', 'image')).toBe(false);
    expect(isConsentRequest('https://shop.example/app.js', 'script')).toBe(false);
    expect(isConsentRequest('https://notcookielaw.org/x.js', 'script')).toBe(false);
    expect(isConsentRequest('not a url', 'script')).toBe(false);
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
    const base = STARTED_CONSENT;
    expect(consentVerdict(undefined)).toBeUndefined();
    expect(consentVerdict(base)).toBeUndefined();
    // A second pass running says nothing by itself: the passes that ended are counted apart (nextConsentStep).
    expect(consentVerdict({ ...base, findCmpAttempts: 2 })).toBeUndefined();
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

  it('consent steps: the capture waits only for a platform being handled, a consent request loading, or the pass over the document', () => {
    const state = STARTED_CONSENT;
    const facts = { state, passesEnded: 1, passesNeeded: 1, consentLoading: false };
    expect(nextConsentStep({ ...facts, state: undefined })).toEqual({ done: { status: 'none' } }); // no script here
    expect(nextConsentStep(facts)).toEqual({ done: { status: 'none' } }); // looked, found nothing: at once
    expect(nextConsentStep({ ...facts, passesEnded: 0 })).toEqual({ wait: 'detecting' });
    expect(nextConsentStep({ ...facts, consentLoading: true })).toEqual({ wait: 'loading' });
    expect(nextConsentStep({ ...facts, passesNeeded: 2 })).toEqual({ wait: 'detecting' });
    expect(nextConsentStep({ ...facts, state: { ...state, lifecycle: 'runningOptOut', detectedCmps: ['Onetrust'] } })).toEqual({
      wait: 'handling',
    });
    expect(nextConsentStep({ ...facts, state: { ...state, lifecycle: 'done', detectedPopups: ['Onetrust'], clicks: 1 } })).toEqual({
      done: { status: 'handled', cmp: 'Onetrust' },
    });
    // Detection starts at DOMContentLoaded: a document still being parsed is captured as it is.
    const initialized = { ...state, lifecycle: 'initialized' as const, findCmpAttempts: 0 };
    expect(nextConsentStep({ ...facts, passesEnded: 0, state: initialized, documentLoading: true })).toEqual({ done: { status: 'none' } });
    expect(nextConsentStep({ ...facts, passesEnded: 0, state: initialized, documentLoading: false })).toEqual({ wait: 'detecting' });
  });
});
