import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { inject } from 'vitest';

export const baseUrl = () => inject('baseUrl');
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };
export const ARTIFACTS = join(import.meta.dirname, '..', '..', 'e2e-artifacts');

let browser: Browser | undefined;

/** Debian's Chromium, never a downloaded one (CHROMIUM_PATH overrides). */
export async function getBrowser(): Promise<Browser> {
  browser ??= await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: ['--no-sandbox'] });
  return browser;
}

export async function closeBrowser() {
  await browser?.close();
  browser = undefined;
}

export interface TrackedPage {
  page: Page;
  context: BrowserContext;
  /** Uncaught exceptions and console errors seen so far. */
  errors: string[];
  /** Every URL the page requested. */
  requests: string[];
}

/** A fresh context (own storage) with the language preset, errors and requests recorded. */
export async function openPage(
  options: { viewport?: { width: number; height: number }; language?: 'en' | 'fr' } = {},
): Promise<TrackedPage> {
  const context = await (await getBrowser()).newContext({
    viewport: options.viewport ?? DESKTOP,
    locale: options.language === 'fr' ? 'fr-FR' : 'en-US',
    acceptDownloads: true,
  });
  const page = await context.newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('request', (request) => requests.push(request.url()));
  untilLive(page);
  return { page, context, errors, requests };
}

export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: options.fullPage ?? true });
}

/** Waits until the app has attached its handlers (a prerendered page shows its content before that). */
export const waitForApp = (page: Page) => page.waitForSelector('html[data-hydrated]', { state: 'attached' });

/**
 * `page.goto` of an app page returns once the page is live, as a reader's first click would need: a
 * prerendered page (the playgrounds, the public pages) shows its fields and buttons before React has
 * attached their handlers, and what is typed or clicked before then is lost. Other documents (an image,
 * an API answer) return as Playwright gives them.
 */
function untilLive(page: Page) {
  const goto = page.goto.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    if (response?.headers()['content-type']?.startsWith('text/html')) await waitForApp(page);
    return response;
  };
}

/** True when the page is wider than its viewport (horizontal scrolling). */
export const overflowsHorizontally = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1);
