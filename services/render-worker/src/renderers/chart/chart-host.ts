import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ChartRenderPayload } from '@render/contracts';
import type { Page } from 'puppeteer-core';
import { buildPageConfig } from './chart-config.ts';
import { chartJsExtensionFiles } from './chartjs-libraries.ts';
import { closedHostHtml } from './closed-host-page.ts';
import { compiledPageScript } from './page-script.ts';

const require = createRequire(import.meta.url);

/**
 * Highcharts modules inlined after the core, in dependency order (each after what its header `@requires`:
 * highcharts-more before solid-gauge, highcharts-3d before cylinder before funnel3d before pyramid3d,
 * sankey before dependency-wheel/organization/arc-diagram, treemap before sunburst/treegraph, datagrouping
 * before windbarb). These are the series modules of Highcharts (Core) itself; `HighchartsTypes` in the
 * contract lists exactly what these draw. Stock, Maps and Gantt follow (`HIGHCHARTS_PRODUCT_MODULES`).
 */
export const HIGHCHARTS_MODULES = [
  'highcharts-more.js',
  'highcharts-3d.js',
  'modules/heatmap.js',
  'modules/treemap.js',
  'modules/sunburst.js',
  'modules/treegraph.js',
  'modules/funnel.js',
  'modules/cylinder.js',
  'modules/funnel3d.js',
  'modules/pyramid3d.js',
  'modules/solid-gauge.js',
  'modules/sankey.js',
  'modules/dependency-wheel.js',
  'modules/organization.js',
  'modules/arc-diagram.js',
  'modules/variable-pie.js',
  'modules/wordcloud.js',
  'modules/xrange.js',
  'modules/streamgraph.js',
  'modules/timeline.js',
  'modules/item-series.js',
  'modules/dumbbell.js',
  'modules/lollipop.js',
  'modules/networkgraph.js',
  'modules/parallel-coordinates.js',
  'modules/pareto.js',
  'modules/histogram-bellcurve.js',
  'modules/vector.js',
  'modules/datagrouping.js',
  'modules/windbarb.js',
  'modules/variwide.js',
  'modules/venn.js',
  'modules/bullet.js',
  'modules/dotplot.js',
  'modules/pictorial.js',
];

/**
 * Highcharts Stock, Maps and Gantt as modules over the core (the `highcharts` package ships them): they
 * add the `stockChart`, `mapChart` and `ganttChart` constructors and their series (candlestick, ohlc,
 * flags; map, mapline, mappoint, mapbubble; gantt), which the Highcharts export server's `constr` asks for
 * (POST /highcharts). Their licence is Highsoft's, like the core's (see 0014).
 */
export const HIGHCHARTS_PRODUCT_MODULES = ['modules/stock.js', 'modules/map.js', 'modules/gantt.js'];

function librarySources(): string[] {
  // chart.js and d3 do not export their UMD bundles; find them next to the entry points they do export.
  const chartJsDir = dirname(require.resolve('chart.js'));
  const d3Dir = dirname(require.resolve('d3'));
  const highchartsDir = dirname(require.resolve('highcharts'));
  const files = [
    join(chartJsDir, 'chart.umd.min.js'),
    ...chartJsExtensionFiles(),
    join(d3Dir, 'd3.min.js'),
    join(highchartsDir, 'highcharts.js'),
    ...HIGHCHARTS_MODULES.map((m) => join(highchartsDir, m)),
    ...HIGHCHARTS_PRODUCT_MODULES.map((m) => join(highchartsDir, m)),
  ];
  return [...files.map((file) => readFileSync(file, 'utf8')), chartPageScript()];
}

/** The chart page's code (`page/`): see page-script.ts. */
const chartPageScript = () =>
  compiledPageScript({
    config: new URL('./chart-page.build.json', import.meta.url),
    built: new URL('./chart-host.browser.js', import.meta.url),
    name: 'the chart page script',
  });

/**
 * Highcharts' style sheet for styled mode (`chart.styledMode`), off (`media="not all"`) until a styled chart
 * switches it on: its rules would override the colours ordinary charts set as attributes.
 */
function highchartsStyledModeCss(): string {
  const css = readFileSync(join(dirname(require.resolve('highcharts')), 'css/highcharts.css'), 'utf8');
  return `<style id="highcharts-css" media="not all">${css.replace(/<\/(style)/gi, '<\\/$1')}</style>`;
}

let cachedHost: string | undefined;

/**
 * The chart page: the libraries inlined (read once per process, never fetched), a fixed container, and
 * the closed page's policy (closed-host-page.ts). So even if a chart library ever turned user text into markup,
 * an inline handler, `javascript:` URL, eval or network request could not run.
 */
export function chartHostHtml(): string {
  cachedHost ??= closedHostHtml({ sources: librarySources(), head: highchartsStyledModeCss() });
  return cachedHost;
}

/**
 * The chart pool's `preparePage`: runs on every new page and after a reset, so jobs find the libraries
 * parsed and `__renderChart` defined and pay only for drawing.
 */
export async function prepareChartPage(page: Page): Promise<void> {
  await page.setContent(chartHostHtml(), { waitUntil: 'load', timeout: 0 });
  const ready = await page.evaluate(
    () =>
      typeof (window as unknown as { __renderChart?: unknown }).__renderChart === 'function' &&
      typeof (window as unknown as { Chart?: unknown }).Chart === 'function' &&
      typeof (window as unknown as { ChartDataLabels?: unknown }).ChartDataLabels === 'object' &&
      typeof (window as unknown as { dateFns?: { locale?: unknown } }).dateFns?.locale === 'object' &&
      typeof (window as unknown as { Highcharts?: unknown }).Highcharts === 'object' &&
      typeof (window as unknown as { d3?: unknown }).d3 === 'object',
  );
  if (!ready) throw new Error('chart host page did not initialise');
  await warmUp(page);
}

const WARM_UP_LABELS = ['a', 'b', 'c', 'd', 'e', 'f'];
const WARM_UP_VALUES = [3, 7, 2, 9, 4, 6];
/** A bar or line chart of the warm-up numbers, for the libraries that take Chart.js-shaped data. */
const warmUpCategories = (library: 'chartjs' | 'd3', chartType: 'bar' | 'line') => ({
  library,
  chartType,
  chartData: { labels: WARM_UP_LABELS, datasets: [{ label: 'x', data: WARM_UP_VALUES }] },
  chartOptions: {},
});
const warmUpConfigs = () =>
  [
    warmUpCategories('chartjs', 'bar'),
    warmUpCategories('chartjs', 'line'),
    warmUpCategories('d3', 'line'),
    warmUpCategories('d3', 'bar'),
    {
      library: 'highcharts',
      chartData: {},
      chartOptions: { chart: { type: 'column' }, xAxis: { categories: WARM_UP_LABELS }, series: [{ name: 'x', data: WARM_UP_VALUES }] },
    },
  ].map((c) =>
    buildPageConfig({ ...c, format: 'png', width: 400, height: 200, quality: 90, scale: 1, theme: 'light' } as ChartRenderPayload),
  );

/**
 * A few throwaway charts per library, so V8 has compiled the libraries' hot paths before the first real
 * job: on a cold page the first renders of a library take 2–4× longer, and a pool has several pages.
 */
async function warmUp(page: Page): Promise<void> {
  for (let round = 0; round < 3; round++) {
    for (const config of warmUpConfigs()) {
      await page.evaluate((c) => (window as unknown as { __renderChart(c: unknown): unknown }).__renderChart(c), config as never);
      await page.evaluate(() => (window as unknown as { __destroyChart(): void }).__destroyChart());
    }
  }
}
