import { afterAll, expect, it } from 'vitest';
import { baseUrl, closeBrowser, openPage, PHONE, screenshot } from './helpers/browser.ts';

afterAll(closeBrowser);

it('opens the mobile menu, navigates, and closes it', async () => {
  const { page, context, errors } = await openPage({ viewport: PHONE });
  await page.goto(`${baseUrl()}/`);
  await page.locator('main h1').waitFor();
  const toggle = page.getByRole('button', { name: 'Open menu' });
  await toggle.click();
  const menu = page.locator('#mobile-menu');
  await menu.waitFor();
  await screenshot(page, 'en-phone-mobile-menu');
  await menu.getByRole('link', { name: 'Code to image' }).click();
  await page.waitForURL(`${baseUrl()}/code-to-image`);
  await menu.waitFor({ state: 'detached' });
  expect(await page.getByRole('button', { name: 'Open menu' }).getAttribute('aria-expanded')).toBe('false');
  expect(errors).toEqual([]);
  await context.close();
});

it('closes the Chart dropdown on outside click and on navigation', async () => {
  const { page, context } = await openPage();
  await page.goto(`${baseUrl()}/`);
  await page.locator('main h1').waitFor();
  await page.getByTestId('nav-chart').click();
  const item = page.getByRole('menuitem', { name: 'D3.js' });
  await item.waitFor();
  await page.mouse.click(640, 600);
  await item.waitFor({ state: 'detached' });

  await page.getByTestId('nav-chart').click();
  await page.getByRole('menuitem', { name: 'Highcharts' }).click();
  await page.waitForURL(`${baseUrl()}/chart-to-image/highcharts`);
  await page.getByRole('menuitem').first().waitFor({ state: 'detached' });
  await context.close();
});

it('hides the logo when it fails to load and keeps the name', async () => {
  const { page, context } = await openPage();
  await page.route('**/logo.svg', (route) => route.fulfill({ status: 404, body: '' }));
  await page.goto(`${baseUrl()}/`);
  await page.locator('main h1').waitFor();
  await page.getByRole('banner').getByTestId('logo').waitFor({ state: 'detached' });
  expect(await page.getByRole('banner').getByRole('link', { name: 'Render API, home' }).isVisible()).toBe(true);
  await context.close();
});
