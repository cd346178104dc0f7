import { readFileSync } from 'node:fs';
import { afterAll, expect, inject, it } from 'vitest';
import { baseUrl, closeBrowser, openPage, screenshot } from './helpers/browser.ts';

afterAll(closeBrowser);

/** Page count and each page's size in points, read from the PDF's page dictionaries. */
function pdfFacts(bytes: Buffer) {
  const text = bytes.toString('latin1');
  const sizes = [...text.matchAll(/\/MediaBox\s*\[\s*([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s*\]/g)].map((m) => [
    Math.round(Number(m[3]) - Number(m[1])),
    Math.round(Number(m[4]) - Number(m[2])),
  ]);
  return { magic: text.slice(0, 5), pages: text.match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0, sizes };
}

it('the HTML playground prints a PDF with the chosen page options, to open and download', async () => {
  const { page, context, errors } = await openPage();
  await page.goto(`${baseUrl()}/html-to-image`);
  await page.getByTestId('generate-button').waitFor();
  await page.locator('[name="format"]').selectOption('pdf');
  await page.locator('[name="pageSize"]').selectOption('Letter');
  await page.locator('[name="landscape"]').check();
  await page.locator('[name="margin"]').fill('1cm');
  await page.getByTestId('generate-button').click();
  await page.getByTestId('result-pdf').waitFor({ timeout: 45_000 });
  expect(await page.getByTestId('open-pdf').getAttribute('href')).toMatch(/^blob:/);
  await expect.poll(() => page.getByTestId('snippet-curl').textContent()).toContain('"landscape":true');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-link').click()]);
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  const facts = pdfFacts(readFileSync((await download.path())!));
  expect(facts.magic).toBe('%PDF-');
  expect(facts.sizes[0]).toEqual([792, 612]);
  await screenshot(page, 'en-desktop-playground-html-pdf');
  expect(errors).toEqual([]);
  await context.close();
});

it('the screenshot playground prints a web page as one page fitted to its content', async () => {
  const { page, context, errors } = await openPage();
  await page.goto(`${baseUrl()}/screenshot`);
  await page.getByTestId('generate-button').waitFor();
  await page.locator('[name="url"]').fill(inject('siteUrl'));
  await page.locator('[name="format"]').selectOption('pdf');
  await page.locator('[name="fitToContent"]').check();
  await page.getByTestId('generate-button').click();
  await page.getByTestId('result-pdf').waitFor({ timeout: 45_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-link').click()]);
  const facts = pdfFacts(readFileSync((await download.path())!));
  expect(facts.pages).toBe(1);
  // Laid out at the 1280 px viewport: 960 pt wide.
  expect(facts.sizes[0]?.[0]).toBe(960);
  await screenshot(page, 'en-desktop-playground-screenshot-pdf');
  expect(errors).toEqual([]);
  await context.close();
});

it('the docs tab of the HTML call lists the PDF options with their descriptions', async () => {
  const { page, context, errors } = await openPage();
  await page.goto(`${baseUrl()}/docs?tab=html`);
  const panel = page.locator('main');
  await panel.getByText('fitToContent', { exact: true }).first().waitFor();
  for (const name of ['pageSize', 'landscape', 'margin.top', 'printBackground', 'pageRanges', 'headerTemplate']) {
    expect(await panel.getByText(name, { exact: true }).count(), name).toBeGreaterThan(0);
  }
  expect(await panel.textContent()).toContain('One page exactly the size of the content');
  await screenshot(page, 'en-desktop-docs-html-pdf');
  expect(errors).toEqual([]);
  await context.close();
});
