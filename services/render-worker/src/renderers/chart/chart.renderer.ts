import type { ChartRenderPayload } from '@render/contracts';
import { RenderError } from '../render-error.ts';
import type { Renderer } from '../renderer.ts';

// Being built (issue 4); no route enqueues this kind yet.
export const renderChart: Renderer<ChartRenderPayload> = async () => {
  throw new RenderError('chart rendering is not available yet', false);
};
