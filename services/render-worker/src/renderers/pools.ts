import type { PoolDefinition } from '../browser/render-cluster.ts';
import { prepareChartPage } from './chart/chart-host.ts';
import { prepareCodePage } from './code/code-host.ts';
import type { PoolName } from './renderer.ts';
import { prepareScreenshotPage } from './screenshot/prepared-page.ts';

/** How each pool's pages are made; see PoolName. render.worker.ts hands these to the browser layer. */
export const poolDefinitions: Record<PoolName, PoolDefinition> = {
  generic: { mode: 'warm' },
  chart: { mode: 'warm', preparePage: prepareChartPage, pick: 'most-recent' },
  code: { mode: 'warm', preparePage: prepareCodePage, pick: 'most-recent' },
  screenshot: { mode: 'fresh-context', preparePage: prepareScreenshotPage },
};
