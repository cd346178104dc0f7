import { afterAll, describe, expect, it } from 'vitest';
import { baseUrl, closeBrowser, openPage, PHONE } from './helpers/browser.ts';
import { observeLayoutShift } from './helpers/layout-shift.ts';
import { PUBLIC_ROUTES } from './helpers/routes.ts';

afterAll(closeBrowser);

describe('no layout shift while a page loads (CLS ≤ 0.02 at 390 px)', () => {
  for (const language of ['en', 'fr'] as const) {
    it(`every public route, ${language}`, async () => {
      const tracked = await openPage({ viewport: PHONE, language });
      await tracked.context.addInitScript(observeLayoutShift);
      const shifts: Record<string, { total: number; sources: string[] }> = {};
      for (const route of PUBLIC_ROUTES) {
        // A fresh load each time (the page's chunk, catalog and data arrive after the shell): what a visitor sees.
        await tracked.page.goto(`${baseUrl()}${route.path}`);
        await tracked.page.locator('main h1').first().waitFor({ state: 'visible', timeout: 20_000 });
        // Everything the page fetches (its data, the hero image, fonts) has arrived, and two frames were drawn.
        await tracked.page.waitForLoadState('networkidle');
        await tracked.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
        shifts[route.path] = await tracked.page.evaluate(() => window.__layoutShift ?? { total: Number.NaN, sources: [] });
      }
      const over = Object.entries(shifts).filter(([, shift]) => !(shift.total <= 0.02));
      expect(over, 'routes whose layout shifted').toEqual([]);
      await tracked.context.close();
    });
  }
});
