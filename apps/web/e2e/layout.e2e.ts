import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { baseUrl, closeBrowser, DESKTOP, openPage, PHONE, screenshot } from './helpers/browser.ts';

afterAll(closeBrowser);

type Box = { x: number; y: number; width: number; height: number };
const box = async (locator: Locator): Promise<Box> => {
  const found = await locator.boundingBox();
  if (!found) throw new Error('not laid out');
  return found;
};
/** Whether two boxes share any area (touching edges do not count). */
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

const COPY_BASE64 = { en: 'Copy base64', fr: 'Copier le base64' } as const;

/** An anonymous render over the anonymous pixel cap: the server's real 403, shown as an error toast. */
async function serverErrorToast(page: Page) {
  await page.locator('[name="width"]').fill('3000');
  await page.locator('[name="height"]').fill('2500');
  await page.getByTestId('generate-button').click();
  const error = page.locator('[data-sonner-toast][data-type="error"]');
  await error.waitFor();
  // Sonner pauses its timers while the pointer is over the toasts: the error stays while the next steps run.
  await error.hover();
  return error;
}

describe('toasts and copy buttons keep clear of what they could cover', () => {
  for (const language of ['en', 'fr'] as const) {
    for (const [device, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      it(`${language} ${device}: an error toast, then a success toast, both whole, below the header`, async () => {
        const { page, context, errors } = await openPage({ viewport, language });
        await page.goto(`${baseUrl()}/html-to-image`);
        await page.getByTestId('generate-button').waitFor();
        const error = await serverErrorToast(page);

        // Keyboard and element events only, so the pointer stays over the toasts.
        await page.locator('[name="width"]').fill('600');
        await page.locator('[name="height"]').fill('300');
        await page.getByTestId('generate-button').dispatchEvent('click');
        await page.getByTestId('result-image').waitFor({ timeout: 45_000 });
        await page.getByRole('button', { name: COPY_BASE64[language] }).dispatchEvent('click');
        const success = page.locator('[data-sonner-toast][data-type="success"]');
        await success.waitFor();

        const header = await box(page.locator('header').first());
        const [errorBox, successBox] = [await box(error), await box(success)];
        expect(overlap(errorBox, successBox), 'the error toast lies under the success toast').toBe(false);
        for (const toast of [errorBox, successBox]) {
          expect(overlap(toast, header), 'a toast covers the header (language switch, user menu)').toBe(false);
          expect(toast.x + toast.width).toBeLessThanOrEqual(viewport.width);
        }
        // The viewport as the reader sees it, toasts over the page.
        await screenshot(page, `${language}-${device}-toasts`, { fullPage: false });
        expect(errors.filter((e) => !e.includes('403'))).toEqual([]);
        await context.close();
      });

      it(`${language} ${device}: the docs' Copy button does not cover the code`, async () => {
        const { page, context, errors } = await openPage({ viewport, language });
        await page.goto(`${baseUrl()}/docs?tab=html`);
        const snippet = page.getByTestId('snippet-curl').first();
        await snippet.waitFor();
        const code = await box(snippet.locator('pre'));
        const copy = await box(
          page
            .locator('aside')
            .getByRole('button', { name: language === 'fr' ? 'Copier' : 'Copy' })
            .first(),
        );
        expect(overlap(copy, code)).toBe(false);
        await snippet.scrollIntoViewIfNeeded();
        await screenshot(page, `${language}-${device}-docs-snippet`);
        expect(errors).toEqual([]);
        await context.close();
      });
    }
  }
});
