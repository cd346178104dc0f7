import { afterAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations } from './helpers/axe.ts';
import { baseUrl, closeBrowser, DESKTOP, openPage, overflowsHorizontally, PHONE, screenshot } from './helpers/browser.ts';
import { MAIN_PAGES, PUBLIC_ROUTES } from './helpers/routes.ts';

afterAll(closeBrowser);

/** Loads a route and waits for its heading (every screen has one h1 once its chunk and catalog loaded). */
async function load(tracked: Awaited<ReturnType<typeof openPage>>, path: string) {
  await tracked.page.goto(`${baseUrl()}${path}`);
  await tracked.page.locator('main h1').first().waitFor({ state: 'visible', timeout: 20_000 });
}

describe('every public route', () => {
  for (const route of PUBLIC_ROUTES) {
    it(`${route.path} renders without errors, fits a phone, passes axe`, async () => {
      const desktop = await openPage({ viewport: DESKTOP });
      await load(desktop, route.path);
      const serious = await seriousAxeViolations(desktop.page);
      expect(serious, 'axe serious/critical violations').toEqual([]);
      expect(desktop.errors, 'page errors').toEqual([]);
      await desktop.context.close();

      const phone = await openPage({ viewport: PHONE });
      await load(phone, route.path);
      expect(await overflowsHorizontally(phone.page), 'horizontal scroll at 390 px').toBe(false);
      expect(phone.errors, 'page errors (phone)').toEqual([]);
      await phone.context.close();
    });
  }

  it('answers the not-found screen with a way home for an unknown path', async () => {
    const tracked = await openPage();
    await load(tracked, '/definitely/not/here');
    await expect(tracked.page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Page not found');
    await tracked.page.getByRole('link', { name: 'Go to the home page' }).click();
    await tracked.page.waitForURL(`${baseUrl()}/`);
    await tracked.context.close();
  });
});

describe('screenshots of the main pages (e2e-artifacts/)', () => {
  for (const language of ['en', 'fr'] as const) {
    it(`desktop and phone, ${language}`, async () => {
      for (const [label, viewport] of [
        ['desktop', DESKTOP],
        ['phone', PHONE],
      ] as const) {
        const tracked = await openPage({ viewport, language });
        for (const path of MAIN_PAGES) {
          await load(tracked, path);
          // The landing demo and playground previews are real renders: let them arrive.
          await tracked.page.waitForLoadState('networkidle');
          await screenshot(tracked.page, `${language}-${label}-${path === '/' ? 'landing' : path.slice(1).replaceAll('/', '-')}`);
        }
        expect(tracked.errors).toEqual([]);
        await tracked.context.close();
      }
    });
  }
});
