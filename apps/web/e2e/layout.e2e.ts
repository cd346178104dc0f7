import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
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

/** A screenshot of a loopback address the workers may not reach: the server's real refusal, as an error toast. */
async function serverErrorToast(page: Page) {
  await page.locator('[name="url"]').fill('http://127.0.0.1:9/');
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
        // chromium-headless-shell refuses clipboard writes unless granted (a user's browser asks or allows).
        await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() });
        await page.goto(`${baseUrl()}/screenshot`);
        await page.getByTestId('generate-button').waitFor();
        const error = await serverErrorToast(page);

        // Keyboard and element events only while the render runs, so the pointer stays over the toasts.
        await page.locator('[name="url"]').fill(inject('siteUrl'));
        await page.getByTestId('generate-button').dispatchEvent('click');
        await page.getByTestId('result-image').waitFor({ timeout: 45_000 });
        // A real click (the clipboard needs a user gesture): the error toast's timer resumes with most of its 5 s left.
        await page.getByRole('button', { name: COPY_BASE64[language] }).click();
        const success = page.locator('[data-sonner-toast][data-type="success"]');
        await success.waitFor();

        // Sonner slides toasts in and moves the older ones: measure once the transitions have ended.
        await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
        // The viewport as the reader sees it, toasts over the page.
        await screenshot(page, `${language}-${device}-toasts`, { fullPage: false });
        const header = await box(page.locator('header').first());
        const [errorBox, successBox] = [await box(error), await box(success)];
        expect(overlap(errorBox, successBox), 'the error toast lies under the success toast').toBe(false);
        for (const toast of [errorBox, successBox]) {
          expect(overlap(toast, header), 'a toast covers the header (language switch, user menu)').toBe(false);
          expect(toast.x + toast.width).toBeLessThanOrEqual(viewport.width);
        }
        // The refused capture's answer is logged by the browser as a failed request, nothing else may be.
        expect(errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
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
        await screenshot(page, `${language}-${device}-docs-snippet`, { fullPage: false });
        expect(errors).toEqual([]);
        await context.close();
      });
    }
  }
});
