import type { ScreenshotRenderPayload } from '@render/contracts';
import type { Page } from 'puppeteer-core';
import type { RenderDiagnostics } from '../page/diagnostics.ts';

/** The warning of a selector that matched nothing when the caller said it need not (`errorOnSelectorNotFound: false`). */
export function selectorNotFound(
  diagnostics: RenderDiagnostics,
  field: 'selector' | 'waitForSelector',
  selector: string,
  what: string,
): void {
  diagnostics.add('SELECTOR_NOT_FOUND', `${field} ${JSON.stringify(selector)}: ${what}`, { selector }, `${field}\n${selector}`);
}

/**
 * With `errorOnSelectorNotFound: false`, an element selector that matches nothing (or nothing visible)
 * captures the viewport instead, with a warning. An invalid selector is still the caller's error: it is
 * left for the element capture to refuse.
 */
export async function withoutMissingSelector(
  page: Page,
  p: ScreenshotRenderPayload,
  diagnostics: RenderDiagnostics,
): Promise<ScreenshotRenderPayload> {
  if (!p.selector || p.errorOnSelectorNotFound !== false) return p;
  let found: boolean;
  try {
    const element = await page.$(p.selector);
    const box = await element?.boundingBox();
    await element?.dispose().catch(() => undefined);
    found = !!box && box.width >= 1 && box.height >= 1;
  } catch {
    return p;
  }
  if (found) return p;
  selectorNotFound(diagnostics, 'selector', p.selector, 'no visible element matched; the viewport was captured instead');
  const { selector: _, ...rest } = p;
  return rest;
}
