import type { CodeRenderPayload } from '@render/contracts';
import { RenderError } from '../render-error.ts';
import type { Renderer } from '../renderer.ts';

// Being built (issue 4); no route enqueues this kind yet.
export const renderCode: Renderer<CodeRenderPayload> = async () => {
  throw new RenderError('code rendering is not available yet', false);
};
