import { readFileSync } from 'node:fs';
import { afterAll, expect, inject, it } from 'vitest';
import { PLAYGROUND_PATHS } from '../vite/seo-files.plugin.ts';
import { baseUrl, closeBrowser, getBrowser, openPage, overflowsHorizontally, PHONE, screenshot, waitForApp } from './helpers/browser.ts';

afterAll(closeBrowser);

const SIGNATURES: Record<string, number[]> = { png: [0x89, 0x50, 0x4e, 0x47], jpeg: [0xff, 0xd8, 0xff], webp: [0x52, 0x49, 0x46, 0x46] };

for (const path of PLAYGROUND_PATHS) {
  it(`${path} renders a real image and downloads it`, async () => {
    const { page, context, errors } = await openPage();
    await page.goto(`${baseUrl()}${path}`);
    await page.getByTestId('generate-button').waitFor();
    if (path === '/screenshot') await page.locator('[name="url"]').fill(inject('siteUrl'));
    await page.getByTestId('generate-button').click();
    const image = page.getByTestId('result-image');
    await image.waitFor({ timeout: 45_000 });
    const size = await image.evaluate((img: HTMLImageElement) => ({
      w: img.naturalWidth,
      h: img.naturalHeight,
      src: img.src.slice(0, 30),
    }));
    expect(size.w).toBeGreaterThan(40);
    expect(size.h).toBeGreaterThan(40);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-link').click()]);
    const bytes = readFileSync((await download.path())!);
    expect(bytes.length).toBeGreaterThan(100);
    const format = Object.entries(SIGNATURES).find(([, magic]) => magic.every((b, i) => bytes[i] === b))?.[0];
    const isSvg = bytes.subarray(0, 200).toString('utf8').includes('<svg');
    expect(format ?? (isSvg ? 'svg' : 'unknown')).not.toBe('unknown');
    await screenshot(page, `en-desktop-playground-${path.slice(1).replaceAll('/', '-')}`);
    expect(errors).toEqual([]);
    await context.close();
  });
}

it('keeps what was typed into a prerendered playground before it was live', async () => {
  // The app's code is held back until the prerendered fields have been changed, as on a slow phone.
  const context = await (await getBrowser()).newContext({ locale: 'en-US' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/assets/*.js', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`${baseUrl()}/screenshot`, { waitUntil: 'commit' });
  const site = inject('siteUrl');
  await page.locator('[name="url"]').fill(site);
  await page.locator('[name="width"]').fill('777');
  await page.locator('[name="fullPage"]').setChecked(true);
  await expect(page.locator('html[data-hydrated]').count()).resolves.toBe(0);
  release();
  await waitForApp(page);
  // Live, the page holds them: in its fields (React would have put its own values back) and in its request.
  await expect.poll(() => page.getByTestId('snippet-curl').textContent()).toContain(site);
  const snippet = await page.getByTestId('snippet-curl').textContent();
  expect(snippet).toContain('"width":777');
  expect(snippet).toContain('"fullPage":true');
  await expect(page.locator('[name="url"]').inputValue()).resolves.toBe(site);
  await expect(page.locator('[name="width"]').inputValue()).resolves.toBe('777');
  await expect(page.locator('[name="fullPage"]').isChecked()).resolves.toBe(true);
  expect(errors).toEqual([]);
  await context.close();
});

it('asks to sign in when a signed-out visitor chooses to use an API key', async () => {
  const { page, context } = await openPage();
  await page.goto(`${baseUrl()}/html-to-image`);
  await page.getByTestId('generate-button').waitFor();
  await page.locator('[name="useApiKey"]').click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  expect(await dialog.getByRole('heading').first().textContent()).toBe('Sign in required');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  await context.close();
});

it('runs Generate with Ctrl+Enter from inside the editor', async () => {
  const { page, context } = await openPage();
  await page.goto(`${baseUrl()}/svg-to-image`);
  await page.getByTestId('generate-button').waitFor();
  await page.locator('.cm-content').first().click();
  await page.keyboard.press('Control+Enter');
  await page.getByTestId('result-image').waitFor({ timeout: 45_000 });
  await context.close();
});

it('offers the scroll-through for full-page screenshots (on by default) and captures the whole page', async () => {
  for (const [language, viewport, name] of [
    ['en', undefined, 'en-desktop-playground-screenshot-full-page'],
    ['fr', PHONE, 'fr-phone-playground-screenshot-full-page'],
  ] as const) {
    const { page, context, errors } = await openPage({ language, ...(viewport ? { viewport } : {}) });
    await page.goto(`${baseUrl()}/screenshot`);
    await page.getByTestId('generate-button').waitFor();
    await page.locator('[name="url"]').fill(inject('siteUrl'));
    const scroll = page.locator('[name="fullPageScroll"]');
    expect(await scroll.count()).toBe(0);
    await page.locator('[name="fullPage"]').check();
    expect(await scroll.isChecked()).toBe(true);
    await page.getByTestId('generate-button').click();
    await page.getByTestId('result-image').waitFor({ timeout: 45_000 });
    await scroll.scrollIntoViewIfNeeded();
    await screenshot(page, name);
    expect(await overflowsHorizontally(page)).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  }
});
