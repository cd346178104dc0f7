import { createServer, type Server } from 'node:http';
import { parseAllowlist } from '@render/egress-policy';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EgressProxy, startEgressProxy } from '../src/egress/egress-proxy.ts';
import { addCosmeticList, emptyCosmeticFilters, mayMatch } from '../src/renderers/screenshot/cosmetic-filters.ts';
import { applyNoticeHiding, collectPage } from '../src/renderers/screenshot/cosmetic-hiding.ts';
import { closeServers, listen } from './helpers/local-servers.ts';
import { startTestPool, type TestPool } from './helpers/test-pool.ts';

// The cookie-notice hiding just before a capture (cosmetic-hiding.ts), in a real Chromium: a stylesheet only
// when one of its selectors matches an element, since any new sheet makes the capture restyle and repaint the
// whole page. A selector Chromium does not parse must not cost the others their effect.

let proxy: EgressProxy;
let pool: TestPool;
let pages: { server: Server; port: number };

const PLAIN = '<!doctype html><body><header>Shop</header><main class="cards"><p>Nothing to hide here.</p></main></body>';
const NOTICE = '<!doctype html><body><main class="cards"><p>Shop</p></main><div id="cookie-bar">We use cookies</div></body>';

beforeAll(async () => {
  const server = createServer((req, res) =>
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(req.url === '/notice' ? NOTICE : PLAIN),
  );
  pages = { server, port: await listen(server) };
  proxy = await startEgressProxy({ allowlist: parseAllowlist(`127.0.0.1:${pages.port}`) });
  pool = await startTestPool('screenshot', proxy.url, 'cosmetic-hiding-test');
});

afterAll(async () => {
  await pool?.close();
  await proxy?.close();
  closeServers(pages?.server);
});

const filters = (rules: string) => addCosmeticList(emptyCosmeticFilters(), rules, 'test');

/** Loads `path`, hides with `rules`; answers the rules applied and what the page then says about its sheets. */
async function hide(path: string, rules: string, extra: readonly string[] = []) {
  return pool.cluster.run(async ({ page }: { page: Page }) => {
    await page.goto(`http://127.0.0.1:${pages.port}${path}`, { waitUntil: 'load' });
    const session = await page.createCDPSession();
    try {
      const collected = await collectPage(session, undefined);
      if (!collected) throw new Error('the page could not be collected');
      const applied = await applyNoticeHiding(session, filters(rules), collected, { extraSelectors: () => extra });
      const state = await page.evaluate(() => ({
        sheets: document.adoptedStyleSheets.length + document.querySelectorAll('style').length,
        bar: document.getElementById('cookie-bar') ? getComputedStyle(document.getElementById('cookie-bar')!).display : null,
      }));
      return { applied, ...state };
    } finally {
      await session.detach().catch(() => undefined);
    }
  });
}

describe('cookie-notice hiding', () => {
  it('adds no stylesheet to a page none of the rules match', async () => {
    const result = await hide('/', '###cookie-bar\n##[data-cookie-banner]\n##.cards > .consent', ['#onetrust-banner-sdk']);
    expect(result).toEqual({ applied: 0, sheets: 0, bar: null });
  });

  it('hides what matches, with every rule of the list that could match in the sheet', async () => {
    // #onetrust-banner-sdk names an id no element has: left out.
    const result = await hide('/notice', '###cookie-bar\n##[data-cookie-banner]\n##.cards.cookie', ['#onetrust-banner-sdk']);
    expect(result.bar).toBe('none');
    expect(result.sheets).toBe(1);
    expect(result.applied).toBe(2);
  });

  it('still finds and hides a match when a selector Chromium does not parse is in the list', async () => {
    const unparsable = ['div:unknown-pseudo-class(x)', 'p::-moz-selection-x'];
    // Attribute selectors: nothing tells without asking the page that they cannot match.
    const many = Array.from({ length: 120 }, (_, i) => `##[data-not-on-the-page-${i}]`).join('\n');
    const result = await hide('/notice', `${many}\n###cookie-bar`, unparsable);
    expect(result.bar).toBe('none');
    const none = await hide('/', `${many}\n###cookie-bar`, unparsable);
    expect(none).toEqual({ applied: 0, sheets: 0, bar: null });
  });
});

describe('which selectors could match a page (mayMatch)', () => {
  const tokens = new Set(['.card', '#shop', '.cookie-bar']);
  it('needs every id and class the selector names, wherever in the chain', () => {
    expect(mayMatch('.card', tokens)).toBe(true);
    expect(mayMatch('.card.cookie', tokens)).toBe(false);
    expect(mayMatch('#shop > .cookie-bar', tokens)).toBe(true);
    expect(mayMatch('#shop .consent', tokens)).toBe(false);
    expect(mayMatch('DIV.Card', tokens)).toBe(true);
  });
  it('does not count what is inside parentheses or attribute brackets, and gives up on lists and escapes', () => {
    expect(mayMatch('.card:not(.consent)', tokens)).toBe(true);
    expect(mayMatch('.card:is(.a, .b)', tokens)).toBe(true);
    expect(mayMatch('div:has(> .x:not(.y))', tokens)).toBe(true);
    expect(mayMatch('[class*="cookie.notice"]', tokens)).toBe(true);
    expect(mayMatch('[data-x] .missing', tokens)).toBe(false);
    expect(mayMatch('.missing, .card', tokens)).toBe(true);
    expect(mayMatch('.a\\:b', tokens)).toBe(true);
    expect(mayMatch('.card:nth-child(2n+1', tokens)).toBe(true);
  });
});
