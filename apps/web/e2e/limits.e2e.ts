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
        await page.goto(`${baseUrl()}/pricing`);
        await page.getByTestId('plan-free').waitFor();
        await page.waitForResponse((r) => r.url().endsWith('/api/limits')).catch(() => undefined);
        await expect(page.getByTestId('plan-free').textContent()).resolves.toContain(
          language === 'fr' ? '50 crédits par période glissante de 30 jours' : '50 credits per rolling 30 days',
        );
        expect(await page.getByTestId('launch-note').count()).toBe(0);

        await page.goto(`${baseUrl()}/`);
        await page.locator('main h1').first().waitFor();
        await page.waitForLoadState('networkidle');
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
