import type { ChartRenderPayload } from '@render/contracts';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPageConfig } from '../src/renderers/chart/chart-config.ts';
import { prepareChartPage } from '../src/renderers/chart/chart-host.ts';
import { launchOfflineBrowser } from './helpers/offline-browser.ts';
import { highchartsSamples } from './highcharts-samples.ts';

/**
 * page/highcharts-layout-cache.ts answers Highcharts' font-size reads from inline styles and shares text
 * boxes between charts. Both must give what the browser would: the font sizes are compared with the
 * computed ones on every element, and each chart's SVG must not depend on which charts came before it
 * (two pages draw the same charts in opposite orders, so each chart meets a different shared cache).
 */
let browser: Browser;
let pages: Page[];

beforeAll(async () => {
  browser = await launchOfflineBrowser();
  pages = [await browser.newPage(), await browser.newPage()];
  for (const page of pages) await prepareChartPage(page);
}, 60_000);

afterAll(() => browser?.close());

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun'];
// The same labels in other fonts and sizes: a box shared across them would come out wrong.
const fontCharts: Record<string, Record<string, unknown>> = {
  plain: { chart: { type: 'column' }, title: { text: 'Sales' }, xAxis: { categories: months }, series: [{ data: [1, 2, 3, 4, 5, 6] }] },
  serif: {
    chart: { type: 'column', style: { fontFamily: 'serif', fontSize: '20px' } },
    title: { text: 'Sales', style: { fontSize: '2em' } },
    xAxis: { categories: months, labels: { rotation: -45, style: { fontSize: '150%' } } },
    yAxis: { labels: { style: { fontSize: '0.5rem', fontWeight: 'bold' } } },
    series: [{ data: [1, 2, 3, 4, 5, 6] }],
  },
  mono: {
    chart: { type: 'bar', style: { fontFamily: 'monospace' } },
    title: { text: 'Sales' },
    xAxis: { categories: months },
    legend: { itemStyle: { fontSize: '1.5em' } },
    series: [{ name: 'Sales', data: [1, 2, 3, 4, 5, 6] }],
  },
};
const charts: Array<[string, Record<string, unknown>]> = [
  ...Object.entries(fontCharts),
  ...Object.entries(highchartsSamples).map(([type, options]): [string, Record<string, unknown>] => [
    type,
    { ...options, chart: { ...((options.chart as object) ?? {}), type } },
  ]),
];

const payloadOf = (options: Record<string, unknown>): ChartRenderPayload =>
  ({
    library: 'highcharts',
    chartType: (options.chart as { type: string }).type,
    chartData: null,
    chartOptions: options,
    format: 'svg',
    width: 500,
    height: 300,
    scale: 1,
    quality: 90,
    theme: 'light',
  }) as ChartRenderPayload;

/** Ids carry a per-page random part and counter; an empty style attribute is no style. */
const normalized = (svg: string) => svg.replace(/highcharts-[a-z0-9]{7}-\d+-?/g, 'highcharts-id-').replace(/ style=""/g, '');

/** Draws the chart and, before clearing it, lists the elements whose patched font size differs from the computed one. */
async function drawAndCheck(page: Page, options: Record<string, unknown>): Promise<{ svg: string; mismatches: string[] }> {
  const config = buildPageConfig(payloadOf(options));
  return page.evaluate<[], () => { svg: string; mismatches: string[] }>(
    `(() => {
      const answer = window.__renderChart(${JSON.stringify(config)});
      const getStyle = window.Highcharts.SVGElement.prototype.getStyle;
      const mismatches = [];
      for (const el of document.querySelectorAll('#chart svg *')) {
        const ours = parseFloat(getStyle.call(el, 'font-size'));
        const browser = parseFloat(getComputedStyle(el).fontSize);
        if (Math.abs(ours - browser) > 0.01) mismatches.push(el.tagName + ' ' + ours + ' ≠ ' + browser);
      }
      window.__destroyChart();
      return { svg: answer.svg || answer.message || '', mismatches };
    })()`,
  );
}

describe('the Highcharts layout cache', () => {
  it('gives every element the font size the browser computes, and each chart the same SVG whatever came before', async () => {
    const forward: Record<string, string> = {};
    for (const [name, options] of charts) {
      const { svg, mismatches } = await drawAndCheck(pages[0]!, options);
      expect(mismatches, name).toEqual([]);
      forward[name] = normalized(svg);
    }
    for (const [name, options] of [...charts].reverse()) {
      const { svg } = await drawAndCheck(pages[1]!, options);
      expect(normalized(svg), name).toBe(forward[name]);
    }
  }, 120_000);
});
