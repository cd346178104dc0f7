import type { RendererContext } from '../page/renderer.ts';
import type { ScreenshotFilters } from './block-lists.ts';
import type { FullPageLimits } from './full-page-capture.ts';

/**
 * What only the screenshot renderer reads from the worker's config, on top of every renderer's context.
 * It lives here, not in the shared `page/renderer.ts`, so the shared layer imports nothing from a format.
 */
export interface ScreenshotSettings {
  /** Full-page screenshot limits (worker config); absent: the contracts' defaults. */
  fullPage?: FullPageLimits;
  /** Ad, tracker and cookie-notice lists (worker config, read at start); absent: the defaults (block-lists.ts). */
  filters?: ScreenshotFilters;
}

export type ScreenshotContext = RendererContext & ScreenshotSettings;
