import { afterAll, describe, expect, it } from 'vitest';
import { baseUrl, closeBrowser, DESKTOP, openPage, PHONE } from './helpers/browser.ts';

// The built app on the real stack, whose account service runs without LAUNCH_UNLIMITED: no page claims the
// launch period, the plans show the Free plan's credits, and the docs give the limits the gateway enforces
// (GET /api/limits), in both languages. The launch-period-on copy is held in test/plan-limits.test.tsx.

afterAll(closeBrowser);

describe('limits in the copy, launch period off', () => {
  for (const language of ['en', 'fr'] as const) {
    it(`says nothing of an unlimited launch, and the docs say the limits in force (${language})`, async () => {
      const limits = (await (await fetch(`${baseUrl()}/api/limits`)).json()).data;
      expect(limits.launchPeriod).toBe(false);
      for (const viewport of [DESKTOP, PHONE]) {
        const tracked = await openPage({ viewport, language });
        const { page } = tracked;
        // Each page reads GET /api/limits; once it has answered (and React drew), the copy is final.
        const visit = async (path: string) => {
          const read = page.waitForResponse((r) => r.url().endsWith('/api/limits'));
          await page.goto(`${baseUrl()}${path}`);
          expect((await read).status()).toBe(200);
          await page.locator('main h1').first().waitFor();
          await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
        };
        await visit('/pricing');
        await expect(page.getByTestId('plan-free').textContent()).resolves.toContain(
          language === 'fr' ? '50 crédits par période glissante de 30 jours' : '50 credits per rolling 30 days',
        );
        expect(await page.getByTestId('launch-note').count()).toBe(0);

        await visit('/');
        expect(await page.getByTestId('hero-launch-note').count()).toBe(0);
        expect(await page.locator('body').textContent()).not.toMatch(language === 'fr' ? /Période de lancement/ : /Launch period/);

        await page.goto(`${baseUrl()}/docs`);
        const section = page.getByTestId('docs-limits');
        const perDay = new Intl.NumberFormat(language).format(limits.anonymous.perDay);
        await expect
          .poll(() => section.textContent(), { timeout: 15_000 })
          .toContain(language === 'fr' ? `et de ${perDay} par jour` : `and ${perDay} a day`);
        expect(tracked.errors).toEqual([]);
        await tracked.context.close();
      }
    });
  }
});
