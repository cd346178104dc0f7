import { afterAll, expect, it } from 'vitest';
import { seriousAxeViolations } from './helpers/axe.ts';
import { baseUrl, closeBrowser, DESKTOP, openPage, overflowsHorizontally, PHONE, screenshot } from './helpers/browser.ts';

afterAll(closeBrowser);

const GUIDES = [
  { tab: 'sdk', heading: { en: 'TypeScript SDK', fr: 'SDK TypeScript' }, text: 'new RenderClient' },
  { tab: 'cli', heading: { en: 'Command line', fr: 'Ligne de commande' }, text: 'renderapi batch jobs.jsonl -o out/' },
  { tab: 'mcp', heading: { en: 'MCP server', fr: 'Serveur MCP' }, text: '/api/mcp' },
] as const;

for (const language of ['en', 'fr'] as const) {
  for (const [device, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`the SDK, CLI and MCP guides read well (${language}, ${device})`, async () => {
      const { page, context, errors } = await openPage({ viewport, language });
      for (const guide of GUIDES) {
        await page.goto(`${baseUrl()}/docs?tab=${guide.tab}`);
        const article = page.getByTestId(`guide-${guide.tab}`);
        await article.waitFor();
        await page.getByRole('heading', { level: 2, name: guide.heading[language] }).waitFor();
        const text = (await article.textContent()) ?? '';
        expect(text).toContain(guide.text);
        // The placeholders are replaced with this site's address.
        expect(text).not.toContain('__ORIGIN__');
        if (guide.tab !== 'cli') expect(text).toContain(baseUrl());
        expect(await overflowsHorizontally(page), `${guide.tab} overflows`).toBe(false);
        expect(await seriousAxeViolations(page), guide.tab).toEqual([]);
        await screenshot(page, `${language}-${device}-docs-${guide.tab}`);
      }
      expect(errors).toEqual([]);
      await context.close();
    });
  }
}

for (const language of ['en', 'fr'] as const) {
  for (const [device, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`the code playground frames the code on a gradient through the real API (${language}, ${device})`, async () => {
      const { page, context, errors } = await openPage({ viewport, language });
      await page.goto(`${baseUrl()}/code-to-image`);
      await page.getByTestId('generate-button').waitFor();
      await page.locator('[name="windowStyle"]').selectOption('mac');
      await page.locator('[name="windowTitle"]').fill('hello.ts');
      await page.locator('[name="backgroundKind"]').selectOption('gradient');
      // The presets are radios: keyboard from the first to the next (ocean).
      await page.locator('[name="gradientPreset"][value="indigo"]').focus();
      await page.keyboard.press('ArrowRight');
      expect(await page.locator('[name="gradientFrom"]').inputValue()).toBe('#0ea5e9');
      await page.locator('[name="shadow"]').check();
      await page.getByTestId('generate-button').click();
      const image = page.getByTestId('result-image');
      await image.waitFor({ timeout: 45_000 });
      // The frame adds the default 48 px outer padding on each side of the 800 px window.
      expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(896);
      await expect
        .poll(() => page.getByTestId('snippet-curl').textContent())
        .toContain('"gradient":{"from":"#0ea5e9","to":"#1e3a8a","angle":135}');
      await page.getByRole('tab', { name: 'SDK' }).click();
      expect(await page.getByTestId('snippet-sdk').textContent()).toContain('await render.code({');
      expect(await overflowsHorizontally(page)).toBe(false);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await screenshot(page, `${language}-${device}-playground-code-gradient`);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
}

it('the HTML and screenshot tabs show their PDF example beside the main one', async () => {
  const { page, context, errors } = await openPage();
  for (const tab of ['html', 'screenshot']) {
    await page.goto(`${baseUrl()}/docs?tab=${tab}`);
    await page.getByRole('heading', { level: 3, name: 'Example: PDF' }).waitFor();
    const pdfSnippet = page.getByRole('complementary').getByTestId('snippet-curl').nth(1);
    expect(await pdfSnippet.textContent()).toContain('"format":"pdf"');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, `en-desktop-docs-${tab}-pdf-example`);
  }
  expect(errors).toEqual([]);
  await context.close();
});
