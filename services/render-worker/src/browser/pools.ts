import { prepareChartPage } from '../renderers/chart/chart-host.ts';
import { prepareCodePage } from '../renderers/code/code-host.ts';
import type { PoolName } from '../renderers/renderer.ts';
import type { PagePoolSettings } from './page-pool-concurrency.ts';
import type { RenderClusterOptions } from './render-cluster.ts';

export type PoolDefinition = Pick<PagePoolSettings, 'mode' | 'preparePage'> & Pick<RenderClusterOptions, 'pick'>;

/** How each pool's pages are made; see PoolName. */
export const poolDefinitions: Record<PoolName, PoolDefinition> = {
  generic: { mode: 'warm' },
  chart: { mode: 'warm', preparePage: prepareChartPage, pick: 'most-recent' },
  code: { mode: 'warm', preparePage: prepareCodePage, pick: 'most-recent' },
  screenshot: { mode: 'fresh-context' },
};
