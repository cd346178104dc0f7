import type { RendererContext } from '../page/renderer.ts';
import type { ScreenshotFilters } from './block-lists.ts';
import type { FullPageLimits } from './full-page-capture.ts';
import type { VideoSettingsOfWorker } from './screen-recording.ts';

/**
 * What only the screenshot renderer reads from the worker's config, on top of every renderer's context.
 * It lives here, not in the shared `page/renderer.ts`, so the shared layer imports nothing from a format.
 */
export interface ScreenshotSettings {
  /** Full-page screenshot limits (worker config); absent: the contracts' defaults. */
  fullPage?: FullPageLimits;
  /** Ad, tracker and cookie-notice lists (worker config, read at start); absent: the defaults (block-lists.ts). */
  filters?: ScreenshotFilters;
  /** Videos (mp4, webm, gif): the ffmpeg the worker runs and its size cap (worker config); absent: /usr/bin/ffmpeg. */
  video?: VideoSettingsOfWorker;
}

export type ScreenshotContext = RendererContext & ScreenshotSettings;
