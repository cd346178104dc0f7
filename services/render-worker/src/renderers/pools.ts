import type { PoolDefinition } from '../browser/render-cluster.ts';
import { prepareChartPage } from './chart/chart-host.ts';
import { prepareQuickChartPage } from './chart/quickchart-host.ts';
import { prepareCodePage } from './code/code-host.ts';
import type { PoolName } from './page/renderer.ts';
import { prepareScreenshotPage } from './screenshot/prepared-page.ts';

/** How each pool's pages are made; see PoolName. render.worker.ts hands these to the browser layer. */
export const poolDefinitions: Record<PoolName, PoolDefinition> = {
  generic: { mode: 'warm' },
  chart: { mode: 'warm', preparePage: prepareChartPage, pick: 'most-recent' },
  // QuickChart-compatible charts: Chart.js 2 and 4 on a page that may evaluate a config's JavaScript.
  quickchart: { mode: 'warm', preparePage: prepareQuickChartPage, pick: 'most-recent' },
  code: { mode: 'warm', preparePage: prepareCodePage, pick: 'most-recent' },
  // A caller's next screenshot reuses one of its last (wiped) contexts: no new renderer process (~50–80 ms of
  // CPU). Two per caller, so that one is wiped while the other serves (the next job does not wait for the
  // wipe). At most 4 callers keep theirs (each context holds an idle renderer, ~30–50 MB: at most 8), for 50
  // jobs, 10 min, or 1 idle min.
  screenshot: {
    mode: 'fresh-context',
    preparePage: prepareScreenshotPage,
    affinity: { maxJobs: 50, maxAgeMs: 10 * 60_000, idleMs: 60_000, maxKept: 4, contextsPerCaller: 2 },
  },
};
