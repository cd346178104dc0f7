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
 * The other shortcuts of the chart page (container box, pointer position, memoised date formats) must
 * answer what Highcharts would have read or computed.
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
function ellipsisChart(fontSize: string): Record<string, unknown> {
  return {
    chart: { type: 'column', style: { fontSize } },
    title: { text: 'Quarterly revenue by region' },
    xAxis: {
      categories: ['North America and Canada', 'Western Europe and the Nordics', 'Asia Pacific and Oceania', 'Latin America'],
      labels: { autoRotation: false, style: { textOverflow: 'ellipsis', whiteSpace: 'nowrap' } },
    },
    series: [{ data: [4, 3, 2, 1] }],
  };
}

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
  // Labels too long for their slots, cut with an ellipsis (getSubStringLength): the same label markup
  // (font-size 0.8em) under two root font sizes, so a width shared across them would cut at the wrong place.
  ellipsisSmall: ellipsisChart('12px'),
  ellipsisLarge: ellipsisChart('18px'),
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
    // The ellipsis charts did cut their labels, differently.
    const cut = (svg: string | undefined) => [...(svg ?? '').matchAll(/>([^<>]*…)</g)].map((m) => m[1]);
    expect(cut(forward.ellipsisSmall).length).toBeGreaterThan(0);
    expect(cut(forward.ellipsisLarge).length).toBeGreaterThan(0);
    expect(cut(forward.ellipsisLarge)).not.toEqual(cut(forward.ellipsisSmall));
  }, 120_000);

  it('reads the container box Highcharts would, and measures the pointer position only when asked', async () => {
    const config = buildPageConfig({ ...payloadOf(fontCharts.plain!), format: 'png' });
    const found = await pages[0]!.evaluate<[], () => unknown>(
      `(async () => {
        await window.__renderChart(${JSON.stringify(config)});
        const chart = Highcharts.charts.find(Boolean);
        const renderTo = chart.renderTo;
        const measured = { width: Highcharts.getStyle(renderTo, 'width', true), height: Highcharts.getStyle(renderTo, 'height', true) };
        const cachedPosition = chart.pointer.chartPosition ?? null;
        const position = chart.pointer.getChartPosition();
        const box = chart.container.getBoundingClientRect();
        const answer = { box: chart.containerBox, measured, cachedPosition, position: [position.left, position.top], page: [box.left, box.top] };
        window.__destroyChart();
        return answer;
      })()`,
    );
    expect(found).toEqual({
      box: { width: 500, height: 300 },
      measured: { width: 500, height: 300 },
      cachedPosition: null,
      position: (found as { page: number[] }).page,
      page: (found as { page: number[] }).page,
    });
  });

  it('formats dates as Intl does for each time zone and locale, whichever came first', async () => {
    const cases = [
      ['UTC', 'en'],
      ['Asia/Tokyo', 'en'],
      ['UTC', 'fr'],
      ['America/New_York', 'de'],
      ['UTC', 'en'],
    ];
    const format = { weekday: 'long', day: 'numeric', month: 'long', hour: 'numeric', minute: 'numeric' };
    const results = await pages[1]!.evaluate<[], () => Array<[string, string, string[]]>>(
      `(() => ${JSON.stringify(cases)}.map(([timezone, locale]) => {
        const time = new Highcharts.Time({ timezone, locale });
        const intl = new Intl.DateTimeFormat(locale, { ...${JSON.stringify(format)}, timeZone: timezone });
        return [
          time.dateFormat(${JSON.stringify(format)}, 1e12) + ' | ' + time.months[0] + ' | ' + time.shortWeekdays[0],
          intl.format(1e12) + ' | ' + new Intl.DateTimeFormat(locale, { month: 'long', timeZone: 'UTC' }).format(0) + ' | ' +
            new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' }).format(3 * 864e5),
        ];
      }))()`,
    );
    for (const [ours, intl] of results) expect(ours).toBe(intl);
    expect(new Set(results.map(([ours]) => ours)).size).toBe(4);
  });
});
