import type { ScreenshotRenderPayload } from '@render/contracts';
import { RenderError } from '../render-error.ts';
import type { Renderer } from '../renderer.ts';

// Being built (issue 4); no route enqueues this kind yet.
export const renderScreenshot: Renderer<ScreenshotRenderPayload> = async () => {
  throw new RenderError('screenshot rendering is not available yet', false);
};
