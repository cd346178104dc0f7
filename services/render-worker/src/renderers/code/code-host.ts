import type { Page } from 'puppeteer-core';
import { codeCanvasSource } from './code-canvas.ts';
import { CODE_FONT_FAMILY } from './code-font.ts';
import { codeHostHtml } from './code-page.ts';

let hostHtml: string | undefined;

/**
 * Prepares a code pool page: the host document with every font face declared, scripts off (nothing of the
 * user's ever runs here: code arrives as JSON data or escaped text), `window.__drawCode` installed (the
 * canvas route, code-canvas.browser.js), a transparent default background so the DOM route's PNG/WebP
 * corners stay clear without a per-screenshot override, and the common face decoded up front.
 */
export async function prepareCodePage(page: Page): Promise<void> {
  hostHtml ??= codeHostHtml();
  await page.setJavaScriptEnabled(false);
  // Emulation overrides live as long as the DevTools session that set them, so this one stays attached
  // for the page's life (it closes with the page).
  const cdp = await page.createCDPSession();
  await cdp.send('Emulation.setDefaultBackgroundColorOverride', { color: { r: 0, g: 0, b: 0, a: 0 } });
  await page.setContent(hostHtml, { waitUntil: 'load', timeout: 0 });
  await page.evaluate((family) => document.fonts.load(`14px '${family}'`).then(() => undefined), CODE_FONT_FAMILY);
  // DevTools evaluation runs with page scripts off; the function it defines stays for the page's life.
  await page.evaluate(codeCanvasSource());
  if (!(await page.evaluate(() => typeof (window as unknown as { __drawCode?: unknown }).__drawCode === 'function'))) {
    throw new Error('code host page did not initialise');
  }
}
