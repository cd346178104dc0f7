import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { chartJsExtensionFiles, chartJsFile } from './chartjs-libraries.ts';
import { closedHostHtml } from './closed-host-page.ts';
import { compiledPageScript } from './page-script.ts';

const require = createRequire(import.meta.url);

/**
 * Chart.js 2.9.4 (the bundle, with its moment.js) and the plugins QuickChart ships for Chart.js 2, in load
 * order: each UMD build registers itself on the global `Chart` of the moment, so these come before the
 * script that keeps that Chart as `window.Chart2` and before Chart.js 4 takes the name.
 */
function chartJs2Files(): string[] {
  const dir = (name: string) => dirname(require.resolve(`${name}/package.json`));
  return [
    join(dir('chartjs2'), 'dist/Chart.bundle.min.js'),
    join(dir('chartjs2-plugin-datalabels'), 'dist/chartjs-plugin-datalabels.min.js'),
    join(dir('chartjs2-plugin-annotation'), 'chartjs-plugin-annotation.min.js'),
    join(dir('chartjs-plugin-piechart-outlabels'), 'dist/chartjs-plugin-piechart-outlabels.min.js'),
    join(dir('chartjs-plugin-doughnutlabel'), 'dist/chartjs-plugin-doughnutlabel.js'),
  ];
}

/** Between the two versions: Chart.js 2 keeps its own name; datalabels 0.7 registered itself globally there. */
const KEEP_CHART_2 = 'window.Chart2 = window.Chart; window.ChartDataLabels2 = window.ChartDataLabels; window.Chart = undefined;';

/** The QuickChart page's code (`page/quickchart.ts`): see page-script.ts. */
const pageScript = () =>
  compiledPageScript({
    config: new URL('./quickchart-page.build.json', import.meta.url),
    built: new URL('./quickchart-host.browser.js', import.meta.url),
    name: 'the QuickChart page script',
  });

let cachedHost: string | undefined;

/**
 * The QuickChart page. Its policy differs from the chart page's in one thing: 'unsafe-eval', because QuickChart
 * configs are JavaScript (page/quickchart.ts evaluates them). Everything else is as closed (closed-host-page.ts),
 * so a config's code can fetch nothing.
 */
export function quickChartHostHtml(): string {
  cachedHost ??= closedHostHtml({
    allowEval: true,
    sources: [
      // window.name outlives a navigation: whatever a previous job's code left there is gone before any job.
      'window.name = "";',
      ...chartJs2Files().map((file) => readFileSync(file, 'utf8')),
      KEEP_CHART_2,
      readFileSync(chartJsFile(), 'utf8'),
      ...chartJsExtensionFiles().map((file) => readFileSync(file, 'utf8')),
      pageScript(),
    ],
  });
  return cachedHost;
}

/** The QuickChart pool's `preparePage`: on every new page and after every reset (each job that ran code). */
export async function prepareQuickChartPage(page: Page): Promise<void> {
  await page.setContent(quickChartHostHtml(), { waitUntil: 'load', timeout: 0 });
  const ready = await page.evaluate(() => {
    const w = window as unknown as Record<string, unknown>;
    return typeof w.__renderQuickChart === 'function' && typeof w.Chart2 === 'function' && typeof w.Chart === 'function';
  });
  if (!ready) throw new Error('QuickChart host page did not initialise');
}
