import { afterAll, expect, it } from 'vitest';
import { baseUrl, closeBrowser, openPage, waitForApp } from './helpers/browser.ts';

afterAll(closeBrowser);

it('switches to French, stores it under `language`, and keeps it across a reload', async () => {
  const { page, context, errors } = await openPage({ language: 'en' });
  await page.goto(`${baseUrl()}/pricing`);
  await page.getByRole('heading', { level: 1, name: 'Simple pricing' }).waitFor();
  expect(await page.getByTestId('price-pro').textContent()).toBe('$49');
  expect(await page.locator('html').getAttribute('lang')).toBe('en');

  // The prerendered page shows the switch before it works: a reader's choice comes once the app is live.
  await waitForApp(page);
  await page.getByLabel('Language').first().selectOption('fr');
  await page.getByRole('heading', { level: 1, name: 'Des tarifs simples' }).waitFor();
  expect(await page.locator('html').getAttribute('lang')).toBe('fr');
  expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('fr');

  await page.reload();
  await page.getByRole('heading', { level: 1, name: 'Des tarifs simples' }).waitFor();
  expect((await page.getByTestId('price-pro').textContent())?.replace(/\s/g, ' ')).toBe('49 €');
  expect(await page.locator('html').getAttribute('lang')).toBe('fr');
  expect(errors).toEqual([]);
  await context.close();
});

it('detects French from the browser when nothing is stored, and falls back to English otherwise', async () => {
  const french = await openPage({ language: 'fr' });
  await french.page.goto(`${baseUrl()}/`);
  await french.page.locator('main h1').waitFor();
  expect(await french.page.locator('html').getAttribute('lang')).toBe('fr');
  await french.context.close();

  const german = await (await import('./helpers/browser.ts')).getBrowser().then((b) => b.newContext({ locale: 'de-DE' }));
  const page = await german.newPage();
  await page.goto(`${baseUrl()}/`);
  await page.locator('main h1').waitFor();
  expect(await page.locator('html').getAttribute('lang')).toBe('en');
  await german.close();
});
