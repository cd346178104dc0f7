import { prepareChartPage } from '../renderers/chart/chart-host.ts';
import { prepareCodePage } from '../renderers/code/code-host.ts';
import type { PoolName } from '../renderers/renderer.ts';
import type { PagePoolSettings } from './page-pool-concurrency.ts';

export type PoolDefinition = Pick<PagePoolSettings, 'mode' | 'preparePage'>;

/** How each pool's pages are made; see PoolName. */
export const poolDefinitions: Record<PoolName, PoolDefinition> = {
  generic: { mode: 'warm' },
  chart: { mode: 'warm', preparePage: prepareChartPage },
  code: { mode: 'warm', preparePage: prepareCodePage },
  screenshot: { mode: 'fresh-context' },
};
