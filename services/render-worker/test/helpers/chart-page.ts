import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll } from 'vitest';
import { prepareChartPage } from '../../src/renderers/chart/chart-host.ts';
import { launchOfflineBrowser } from './offline-browser.ts';

/**
 * For a test file drawing on the chart pool's page: before its tests, the page is opened in an offline
 * Chromium and prepared as the pool prepares it, then handed to `use`; after them, the browser closes.
 * `beforePrepare` sees the page first, e.g. to watch its requests from the start.
 */
export function useChartPage(use: (page: Page) => void, beforePrepare?: (page: Page) => void): void {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchOfflineBrowser();
    const page = await browser.newPage();
    beforePrepare?.(page);
    await prepareChartPage(page);
    use(page);
  }, 60_000);
  afterAll(() => browser?.close());
}
