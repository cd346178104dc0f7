import { readFileSync, writeFileSync } from 'node:fs';
import type { ChartRenderPayload } from '@render/contracts';
import { PNG } from 'pngjs';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPageConfig } from '../src/renderers/chart/chart-config.ts';
import { prepareChartPage } from '../src/renderers/chart/chart-host.ts';
import { chartJsExtensionFiles, chartJsFile } from '../src/renderers/chart/chartjs-libraries.ts';
import { oneDataset } from './helpers/chart-data.ts';
import { launchOfflineBrowser } from './helpers/offline-browser.ts';

/**
 * Chart.js fidelity: each config is drawn by our chart page (`__renderChart`, through buildPageConfig as a
 * job would be) and by Chart.js itself in a plain reference page holding the same library files (chart.js,
 * date-fns + locales, the date adapter, annotation, datalabels), at the same size and device pixel ratio
 * with animations off, flattened onto the same white background. At most 0.1 % of pixels may differ.
 */

let browser: Browser;
let ours: Page;
let reference: Page;

/** The reference page's own drawing code: Chart.js as its documentation uses it, nothing of ours. */
const REFERENCE_SCRIPT = `
window.__drawReference = (c) => {
  document.body.replaceChildren();
  const canvas = document.createElement('canvas');
  canvas.width = c.width;
  canvas.height = c.height;
  canvas.style.cssText = 'display:block;width:' + c.width + 'px;height:' + c.height + 'px';
  document.body.append(canvas);
  const options = Object.assign({}, c.options, { animation: false, responsive: false, maintainAspectRatio: false });
  if (c.locale) for (const id of Object.keys(options.scales)) options.scales[id].adapters = { date: { locale: window.dateFns.locale[c.locale] } };
  // Chart.js's documented canvas background recipe ("Canvas background" sample).
  const background = {
    id: 'customCanvasBackgroundColor',
    beforeDraw(chart) {
      const ctx = chart.ctx;
      ctx.save();
      ctx.globalCompositeOperation = 'destination-over';
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(0, 0, chart.width, chart.height);
      ctx.restore();
    },
  };
  const chart = new Chart(canvas, { type: c.type, data: c.data, options, plugins: c.datalabels ? [background, ChartDataLabels] : [background] });
  const image = canvas.toDataURL('image/png');
  chart.destroy();
  return image;
};`;

beforeAll(async () => {
  browser = await launchOfflineBrowser();
  [ours, reference] = await Promise.all([browser.newPage(), browser.newPage()]);
  const scripts = [chartJsFile(), ...chartJsExtensionFiles()].map((f) => `<script>${readFileSync(f, 'utf8')}</script>`).join('\n');
  await Promise.all([
    prepareChartPage(ours),
    reference.setContent(
      `<!doctype html><html><head><meta charset="utf-8"><style>html,body{margin:0;padding:0}</style></head><body></body>${scripts}<script>${REFERENCE_SCRIPT}</script></html>`,
      { waitUntil: 'load' },
    ),
  ]);
}, 60_000);

afterAll(() => browser?.close());

interface Case {
  name: string;
  type: string;
  data: unknown;
  options?: Record<string, unknown>;
  /** date-fns locale key the reference uses; our config names it as a string in adapters.date.locale. */
  locale?: [string, string];
  datalabels?: boolean;
  /** What Chart.js is given instead of `options` (the same chart in date-fns tokens, for moment-token cases). */
  referenceOptions?: Record<string, unknown>;
  scale?: number;
  width?: number;
  height?: number;
}

const decode = (dataUrl: string) => PNG.sync.read(Buffer.from(dataUrl.split(',')[1]!, 'base64'));

async function renderOurs(
  c: Case,
  overrides: Partial<ChartRenderPayload> = {},
): Promise<{ ok: boolean; image?: string; message?: string }> {
  const width = c.width ?? 400;
  const height = c.height ?? 250;
  const scale = c.scale ?? 1;
  let options = c.options ?? {};
  if (c.locale) {
    const scales = Object.fromEntries(
      Object.entries(options.scales as Record<string, object>).map(([id, s]) => [
        id,
        { ...s, adapters: { date: { locale: c.locale![0] } } },
      ]),
    );
    options = { ...options, scales };
  }
  const config = buildPageConfig({
    library: 'chartjs',
    chartType: c.type,
    chartData: structuredClone(c.data),
    chartOptions: structuredClone(options),
    format: 'png',
    width,
    height,
    scale,
    quality: 90,
    theme: 'light',
    ...overrides,
  } as ChartRenderPayload);
  await ours.setViewport({ width, height, deviceScaleFactor: scale });
  const result = await ours.evaluate(
    (cfg) => (window as unknown as { __renderChart(c: unknown): { ok: boolean; image?: string; message?: string } }).__renderChart(cfg),
    config as never,
  );
  await ours.evaluate(() => (window as unknown as { __destroyChart(): void }).__destroyChart());
  return result;
}

async function renderReference(c: Case): Promise<string> {
  const width = c.width ?? 400;
  const height = c.height ?? 250;
  await reference.setViewport({ width, height, deviceScaleFactor: c.scale ?? 1 });
  return reference.evaluate((cfg) => (window as unknown as { __drawReference(c: unknown): string }).__drawReference(cfg), {
    type: c.type,
    data: c.data,
    options: c.referenceOptions ?? c.options ?? {},
    locale: c.locale?.[1],
    datalabels: c.datalabels,
    width,
    height,
  } as never);
}

/** Share of pixels whose colour differs at all (any channel) between two images of the same size. */
function differingShare(a: PNG, b: PNG): number {
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  let differing = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    if (a.data[i] !== b.data[i] || a.data[i + 1] !== b.data[i + 1] || a.data[i + 2] !== b.data[i + 2] || a.data[i + 3] !== b.data[i + 3])
      differing += 1;
  }
  return differing / (a.width * a.height);
}

/** Share of pixels that are not (near) white: how much a chart draws. */
function inkShare(img: PNG, box?: { x0: number; y0: number; x1: number; y1: number }): number {
  const { x0, y0, x1, y1 } = box ?? { x0: 0, y0: 0, x1: img.width, y1: img.height };
  let ink = 0;
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      const i = (y * img.width + x) * 4;
      if (Math.min(img.data[i]!, img.data[i + 1]!, img.data[i + 2]!) < 200) ink += 1;
    }
  return ink / ((x1 - x0) * (y1 - y0));
}

async function compare(c: Case) {
  const result = await renderOurs(c);
  expect(result, result.message).toMatchObject({ ok: true });
  const mine = decode(result.image!);
  const theirs = decode(await renderReference(c));
  const dump = process.env.CHARTJS_FIDELITY_DUMP;
  if (dump) {
    const file = c.name.replace(/[^a-z0-9]+/gi, '-');
    writeFileSync(`${dump}/${file}.ours.png`, PNG.sync.write(mine));
    writeFileSync(`${dump}/${file}.ref.png`, PNG.sync.write(theirs));
  }
  return { mine, theirs, share: differingShare(mine, theirs) };
}

// ---------------------------------------------------------------- configs

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul'];
const series = (seed: number, n = 7) =>
  Array.from({ length: n }, (_, i) => Math.round(((Math.sin(i * 1.3 + seed) + 1.2) * 40 + seed * 3) % 97));
const ds = (label: string, seed: number, extra: Record<string, unknown> = {}) => ({ label, data: series(seed), ...extra });
const cat = (...sets: object[]) => ({ labels: months, datasets: sets });
const xy = (seed: number, n = 12) => Array.from({ length: n }, (_, i) => ({ x: i * 3 - 10 + (seed % 3), y: series(seed, n)[i]! - 40 }));
const days = (n: number, from = Date.UTC(2024, 0, 1), stepDays = 1) =>
  Array.from({ length: n }, (_, i) => new Date(from + i * stepDays * 86_400_000).toISOString().slice(0, 10));
const timePoints = (seed: number, n = 10, stepDays = 1) =>
  days(n, Date.UTC(2024, 0, 1), stepDays).map((x, i) => ({ x, y: series(seed, n)[i]! }));

/** [moment format, date-fns format] pairs as Chart.js's fixtures and docs write them. */
const MOMENT_PAIRS = {
  parser: ['YYYY-MM-DD', 'yyyy-MM-dd'],
  year: ['YYYY', 'yyyy'],
  day: ['MMM D', 'MMM d'],
  tooltip: ['MMM D, YYYY', 'MMM d, yyyy'],
  month: ['MMM YYYY', 'MMM yyyy'],
  dayOrdinal: ['Do MMM', 'do MMM'],
  hour: ['h A', 'h a'],
} as const;
const timeOptions = (side: 0 | 1, unit: string, display: keyof typeof MOMENT_PAIRS, parser = false) => ({
  scales: {
    x: {
      type: 'time',
      time: {
        unit,
        ...(parser ? { parser: MOMENT_PAIRS.parser[side] } : {}),
        tooltipFormat: MOMENT_PAIRS.tooltip[side],
        displayFormats: { [unit]: MOMENT_PAIRS[display][side] },
      },
    },
  },
});
function momentCases(): Case[] {
  const years = { labels: ['2015-01-01', '2016-01-01', '2017-01-01', '2018-01-01'], datasets: [{ label: 'A', data: [3, 9, 4, 7] }] };
  const hours = Array.from({ length: 6 }, (_, i) => ({ x: Date.UTC(2024, 0, 1, i * 3), y: (i * 7) % 5 }));
  return [
    {
      name: 'time (moment tokens): year unit, parser YYYY-MM-DD',
      type: 'line',
      data: years,
      options: timeOptions(0, 'year', 'year', true),
      referenceOptions: timeOptions(1, 'year', 'year', true),
    },
    {
      name: 'time (moment tokens): day unit "MMM D"',
      type: 'line',
      data: oneDataset('A', timePoints(7)),
      options: timeOptions(0, 'day', 'day'),
      referenceOptions: timeOptions(1, 'day', 'day'),
    },
    {
      name: 'time (moment tokens): month unit "MMM YYYY", bar',
      type: 'bar',
      data: oneDataset('A', timePoints(8, 6, 31)),
      options: timeOptions(0, 'month', 'month'),
      referenceOptions: timeOptions(1, 'month', 'month'),
    },
    {
      name: 'time (moment tokens): ordinal "Do MMM"',
      type: 'line',
      data: oneDataset('A', timePoints(9, 8, 2)),
      options: timeOptions(0, 'day', 'dayOrdinal'),
      referenceOptions: timeOptions(1, 'day', 'dayOrdinal'),
    },
    {
      name: 'time (moment tokens): hour "h A"',
      type: 'line',
      data: oneDataset('A', hours),
      options: timeOptions(0, 'hour', 'hour'),
      referenceOptions: timeOptions(1, 'hour', 'hour'),
    },
  ];
}

const CASES: Case[] = [
  // bar
  { name: 'bar: one dataset', type: 'bar', data: cat(ds('Sales', 1)) },
  {
    name: 'bar: two datasets, title and legend bottom',
    type: 'bar',
    data: cat(ds('A', 1), ds('B', 2)),
    options: { plugins: { title: { display: true, text: 'Bars' }, legend: { position: 'bottom' } } },
  },
  {
    name: 'bar: explicit colours and borders',
    type: 'bar',
    data: cat(ds('A', 3, { backgroundColor: 'rgba(255, 99, 132, 0.5)', borderColor: 'rgb(255, 99, 132)', borderWidth: 2 })),
  },
  { name: 'bar: horizontal (indexAxis y)', type: 'bar', data: cat(ds('A', 4), ds('B', 5)), options: { indexAxis: 'y' } },
  {
    name: 'bar: stacked',
    type: 'bar',
    data: cat(ds('A', 1), ds('B', 2), ds('C', 3)),
    options: { scales: { x: { stacked: true }, y: { stacked: true } } },
  },
  {
    name: 'bar: stacked horizontal',
    type: 'bar',
    data: cat(ds('A', 6), ds('B', 7)),
    options: { indexAxis: 'y', scales: { x: { stacked: true }, y: { stacked: true } } },
  },
  {
    name: 'bar: floating [start, end]',
    type: 'bar',
    data: {
      labels: ['a', 'b', 'c', 'd'],
      datasets: [
        {
          label: 'range',
          data: [
            [1, 5],
            [2, 8],
            [-3, 4],
            [0, 9],
          ],
        },
      ],
    },
  },
  {
    name: 'bar: negative values, rounded corners',
    type: 'bar',
    data: cat({ label: 'A', data: [5, -3, 8, -7, 2, 9, -1], borderRadius: 6 }),
  },
  {
    name: 'bar: logarithmic y',
    type: 'bar',
    data: cat({ label: 'A', data: [1, 10, 100, 1000, 50, 5000, 20] }),
    options: { scales: { y: { type: 'logarithmic' } } },
  },
  {
    name: 'bar: object data with x/y',
    type: 'bar',
    data: oneDataset('A', [
      { x: 'one', y: 4 },
      { x: 'two', y: 9 },
      { x: 'three', y: 2 },
    ]),
  },
  { name: 'bar: object map data', type: 'bar', data: oneDataset('A', { January: 10, February: 20, March: 7 }) },
  {
    name: 'bar: parsing xAxisKey/yAxisKey',
    type: 'bar',
    data: oneDataset(
      'A',
      [
        { id: 'Sales', nested: { value: 1500 } },
        { id: 'Purchases', nested: { value: 500 } },
      ],
      { parsing: { xAxisKey: 'id', yAxisKey: 'nested.value' } },
    ),
  },
  {
    name: 'bar: grouped, grid and ticks styled',
    type: 'bar',
    data: cat(ds('A', 8), ds('B', 9)),
    options: { scales: { x: { grid: { display: false } }, y: { beginAtZero: true, ticks: { stepSize: 20, color: '#c00' } } } },
  },
  { name: 'bar: at scale 2', type: 'bar', data: cat(ds('A', 2)), scale: 2 },
  {
    name: 'bar: category y axis',
    type: 'bar',
    data: { labels: ['Mon', 'Tue', 'Wed'], datasets: [{ label: 'state', data: ['Ready', 'Done', 'Todo'] }] },
    options: { scales: { y: { type: 'category', labels: ['Todo', 'Ready', 'Done'] } } },
  },
  // line and area
  { name: 'line: one dataset', type: 'line', data: cat(ds('Visits', 1)) },
  {
    name: 'line: tension, dashed, points styled',
    type: 'line',
    data: cat(ds('A', 2, { tension: 0.4, borderDash: [6, 3], pointStyle: 'rectRot', pointRadius: 6 })),
  },
  { name: 'line: stepped', type: 'line', data: cat(ds('A', 3, { stepped: true })) },
  { name: 'line: area fill origin', type: 'line', data: cat(ds('A', 4, { fill: 'origin' })) },
  {
    name: 'line: stacked areas',
    type: 'line',
    data: cat(ds('A', 1, { fill: true }), ds('B', 2, { fill: '-1' })),
    options: { scales: { y: { stacked: true } } },
  },
  {
    name: 'line: fill between datasets with colours',
    type: 'line',
    data: cat(ds('A', 5, { fill: '+1', backgroundColor: 'rgba(54,162,235,0.3)', borderColor: '#36a2eb' }), ds('B', 6)),
  },
  { name: 'line: spanGaps over null', type: 'line', data: cat({ label: 'A', data: [3, null, 7, 4, null, 9, 2], spanGaps: true }) },
  {
    name: 'line: linear x with {x, y}',
    type: 'line',
    data: oneDataset('A', xy(3)),
    options: { scales: { x: { type: 'linear' } } },
  },
  {
    name: 'line: logarithmic y',
    type: 'line',
    data: cat({ label: 'A', data: [2, 20, 200, 2000, 20000, 200, 2] }),
    options: { scales: { y: { type: 'logarithmic' } } },
  },
  {
    name: 'line: [x, y] arrays on linear x',
    type: 'line',
    data: oneDataset('A', [
      [0, 3],
      [2, 8],
      [5, 1],
      [9, 6],
    ]),
    options: { scales: { x: { type: 'linear' } } },
  },
  { name: 'line: indexAxis y', type: 'line', data: cat(ds('A', 7)), options: { indexAxis: 'y' } },
  {
    name: 'line: category y values',
    type: 'line',
    data: { labels: ['Jan', 'Feb', 'Mar', 'Apr'], datasets: [{ label: 'A', data: ['Low', 'High', 'Mid', 'High'] }] },
    options: { scales: { y: { type: 'category', labels: ['High', 'Mid', 'Low'] } } },
  },
  // arcs
  { name: 'pie', type: 'pie', data: { labels: ['Red', 'Blue', 'Yellow'], datasets: [{ data: [300, 50, 100] }] } },
  {
    name: 'pie: explicit colours, offset',
    type: 'pie',
    data: {
      labels: ['a', 'b', 'c', 'd'],
      datasets: [{ data: [4, 3, 2, 1], backgroundColor: ['#f00', '#0a0', '#00f', '#fa0'], offset: 10 }],
    },
  },
  {
    name: 'pie: parsing key on objects',
    type: 'pie',
    data: {
      labels: ['a', 'b', 'c'],
      datasets: [
        {
          data: [
            { id: 'a', v: { n: 3 } },
            { id: 'b', v: { n: 5 } },
            { id: 'c', v: { n: 2 } },
          ],
          parsing: { key: 'v.n' },
        },
      ],
    },
  },
  {
    name: 'line: object map data',
    type: 'line',
    data: oneDataset('A', { Mon: 3, Tue: 8, Wed: 5, onSale: 6, filter: 2 }),
  },
  { name: 'doughnut', type: 'doughnut', data: { labels: ['a', 'b', 'c'], datasets: [{ data: [10, 20, 30] }] } },
  {
    name: 'doughnut: two rings, cutout, rotation',
    type: 'doughnut',
    data: { labels: ['a', 'b', 'c'], datasets: [{ data: [1, 2, 3] }, { data: [3, 2, 1] }] },
    options: { cutout: '40%', rotation: 45 },
  },
  {
    name: 'doughnut: half (circumference 180)',
    type: 'doughnut',
    data: { labels: ['a', 'b', 'c'], datasets: [{ data: [5, 3, 2] }] },
    options: { rotation: -90, circumference: 180 },
  },
  { name: 'polarArea', type: 'polarArea', data: { labels: ['a', 'b', 'c', 'd', 'e'], datasets: [{ data: [11, 16, 7, 3, 14] }] } },
  {
    name: 'polarArea: radialLinear ticks styled',
    type: 'polarArea',
    data: { labels: ['a', 'b', 'c', 'd'], datasets: [{ data: [4, 8, 2, 6] }] },
    options: { scales: { r: { ticks: { stepSize: 2, backdropColor: '#eee' } } } },
  },
  {
    name: 'radar',
    type: 'radar',
    data: {
      labels: ['Eating', 'Drinking', 'Sleeping', 'Designing', 'Coding', 'Cycling'],
      datasets: [ds('A', 1), ds('B', 2)].map((d) => ({ ...d, data: d.data.slice(0, 6) })),
    },
  },
  {
    name: 'radar: filled, radialLinear min/max, point labels',
    type: 'radar',
    data: { labels: ['a', 'b', 'c', 'd', 'e'], datasets: [{ label: 'A', data: [3, 5, 2, 4, 1], fill: true }] },
    options: { scales: { r: { min: 0, max: 6, pointLabels: { font: { size: 14 } } } } },
  },
  {
    name: 'radar: explicit radialLinear, angle lines, circular grid',
    type: 'radar',
    data: {
      labels: ['a', 'b', 'c', 'd', 'e', 'f'],
      datasets: [
        { label: 'A', data: [3, 5, 2, 4, 1, 6] },
        { label: 'B', data: [2, 2, 5, 3, 4, 1] },
      ],
    },
    options: { scales: { r: { type: 'radialLinear', angleLines: { color: '#f88' }, grid: { circular: true }, beginAtZero: true } } },
  },
  {
    name: 'line: area fill start, at scale 2',
    type: 'line',
    data: cat(ds('A', 6, { fill: 'start' })),
    scale: 2,
  },
  {
    name: 'doughnut: datalabels',
    type: 'doughnut',
    data: { labels: ['a', 'b', 'c', 'd'], datasets: [{ data: [12, 19, 7, 4] }] },
    options: { plugins: { datalabels: { color: '#222', font: { size: 13 } } } },
    datalabels: true,
  },
  // scatter and bubble
  {
    name: 'scatter',
    type: 'scatter',
    data: {
      datasets: [
        { label: 'A', data: xy(1) },
        { label: 'B', data: xy(2) },
      ],
    },
  },
  {
    name: 'scatter: logarithmic x',
    type: 'scatter',
    data: oneDataset(
      'A',
      [1, 3, 10, 30, 100, 300, 1000].map((x, i) => ({ x, y: i * 2 })),
    ),
    options: { scales: { x: { type: 'logarithmic', position: 'bottom' } } },
  },
  { name: 'scatter: showLine', type: 'scatter', data: oneDataset('A', xy(4), { showLine: true }) },
  {
    name: 'scatter: parsing keys',
    type: 'scatter',
    data: oneDataset(
      'A',
      [
        { a: 1, b: 4 },
        { a: 3, b: 1 },
        { a: 6, b: 7 },
      ],
      { parsing: { xAxisKey: 'a', yAxisKey: 'b' } },
    ),
  },
  {
    name: 'bubble',
    type: 'bubble',
    data: oneDataset('A', [
      { x: 20, y: 30, r: 15 },
      { x: 40, y: 10, r: 10 },
      { x: 30, y: 22, r: 25 },
    ]),
  },
  {
    name: 'bubble: without r',
    type: 'bubble',
    data: oneDataset(
      'A',
      [
        { x: 1, y: 2 },
        { x: 3, y: 5 },
        { x: 4, y: 1 },
      ],
      { radius: 8 },
    ),
  },
  { name: 'bubble: plain numbers', type: 'bubble', data: { labels: ['a', 'b', 'c'], datasets: [{ label: 'A', data: [4, 9, 6] }] } },
  // mixed
  { name: 'mixed: bar + line', type: 'bar', data: cat(ds('Bars', 1), ds('Line', 2, { type: 'line' })) },
  {
    name: 'mixed: bar + line on a second y axis',
    type: 'bar',
    data: cat(ds('Bars', 3), { ...ds('Pct', 4, { type: 'line', yAxisID: 'y1' }) }),
    options: { scales: { y1: { position: 'right', grid: { drawOnChartArea: false } } } },
  },
  {
    name: 'mixed: scatter + line',
    type: 'scatter',
    data: {
      datasets: [
        { label: 'pts', data: xy(5) },
        {
          type: 'line',
          label: 'fit',
          data: [
            { x: -10, y: -20 },
            { x: 25, y: 30 },
          ],
        },
      ],
    },
  },
  // time and timeseries
  {
    name: 'time: ISO strings, day unit',
    type: 'line',
    data: oneDataset('A', timePoints(1)),
    options: { scales: { x: { type: 'time', time: { unit: 'day' } } } },
  },
  {
    name: 'time: timestamps, week unit',
    type: 'line',
    data: oneDataset(
      'A',
      days(12, Date.UTC(2024, 0, 1), 5).map((d, i) => ({ x: Date.parse(d), y: i * i })),
    ),
    options: { scales: { x: { type: 'time', time: { unit: 'week' } } } },
  },
  {
    name: 'time: month unit, displayFormats, bar',
    type: 'bar',
    data: { labels: days(6, Date.UTC(2024, 0, 15), 31), datasets: [ds('A', 2).data.slice(0, 6)].map((data) => ({ label: 'A', data })) },
    options: { scales: { x: { type: 'time', time: { unit: 'month', displayFormats: { month: 'MMM yy' } } } } },
  },
  {
    name: 'time: locale fr',
    type: 'line',
    data: oneDataset('A', timePoints(3, 8, 30)),
    options: { scales: { x: { type: 'time', time: { unit: 'month', displayFormats: { month: 'MMMM yyyy' } } } } },
    locale: ['fr', 'fr'],
  },
  // Issue 29 §3: Chart.js's own time-scale fixtures (test/fixtures/scale.time) write moment.js tokens; our page
  // must draw what the same chart in date-fns tokens draws (it answered 422 "Use `yyyy` instead of `YYYY`").
  ...momentCases(),
  {
    name: 'time: locale de, parser',
    type: 'line',
    data: oneDataset('A', [
      { x: '01/02/2024', y: 3 },
      { x: '15/03/2024', y: 7 },
      { x: '02/05/2024', y: 5 },
    ]),
    options: { scales: { x: { type: 'time', time: { parser: 'dd/MM/yyyy', unit: 'month', displayFormats: { month: 'MMMM' } } } } },
    locale: ['de', 'de'],
  },
  {
    name: 'time: locale ja, hour unit',
    type: 'line',
    data: oneDataset(
      'A',
      Array.from({ length: 8 }, (_, i) => ({ x: `2024-03-01T0${i}:00:00`, y: i % 3 })),
    ),
    options: { scales: { x: { type: 'time', time: { unit: 'hour', displayFormats: { hour: 'aaa h時' } } } } },
    locale: ['ja', 'ja'],
  },
  {
    name: 'time: locale zh-CN',
    type: 'bar',
    data: oneDataset('A', timePoints(4, 5, 40)),
    options: { scales: { x: { type: 'time', time: { unit: 'month', displayFormats: { month: 'LLLL' } } } } },
    locale: ['zh-CN', 'zhCN'],
  },
  {
    name: 'timeseries: uneven days',
    type: 'line',
    data: {
      datasets: [
        { label: 'A', data: ['2024-01-01', '2024-01-02', '2024-01-09', '2024-02-20', '2024-02-21'].map((x, i) => ({ x, y: i * 3 + 1 })) },
      ],
    },
    options: { scales: { x: { type: 'timeseries', time: { unit: 'day', displayFormats: { day: 'd MMM' } } } } },
  },
  {
    name: 'timeseries: labels and bars, locale es',
    type: 'bar',
    data: { labels: days(5, Date.UTC(2024, 5, 1), 7), datasets: [{ label: 'A', data: [3, 6, 2, 8, 5] }] },
    options: { scales: { x: { type: 'timeseries', time: { unit: 'week', displayFormats: { week: 'd MMM' } } } } },
    locale: ['es', 'es'],
  },
  // plugins
  {
    name: 'datalabels: bar',
    type: 'bar',
    data: cat(ds('A', 1)),
    options: { plugins: { datalabels: { color: '#000', anchor: 'end', align: 'top' } } },
    datalabels: true,
  },
  {
    name: 'datalabels: pie white bold',
    type: 'pie',
    data: { labels: ['a', 'b', 'c'], datasets: [{ data: [5, 3, 2] }] },
    options: { plugins: { datalabels: { color: '#fff', font: { weight: 'bold', size: 16 } } } },
    datalabels: true,
  },
  {
    name: 'datalabels: per dataset',
    type: 'line',
    data: cat(ds('A', 2, { datalabels: { align: 'end', backgroundColor: '#ffd', borderRadius: 3 } })),
    datalabels: true,
  },
  {
    name: 'annotation: line and box',
    type: 'line',
    data: cat(ds('A', 3)),
    options: {
      plugins: {
        annotation: {
          annotations: {
            limit: {
              type: 'line',
              yMin: 60,
              yMax: 60,
              borderColor: 'rgb(255, 99, 132)',
              borderWidth: 2,
              label: { display: true, content: 'limit' },
            },
            zone: { type: 'box', xMin: 1, xMax: 3, backgroundColor: 'rgba(255, 99, 132, 0.25)' },
          },
        },
      },
    },
  },
  {
    name: 'annotation: label, point, ellipse',
    type: 'bar',
    data: cat(ds('A', 4)),
    options: {
      plugins: {
        annotation: {
          annotations: {
            note: { type: 'label', xValue: 2, yValue: 50, content: ['Peak', 'here'], backgroundColor: 'rgba(245,245,245,0.9)' },
            dot: { type: 'point', xValue: 4, yValue: 30, radius: 8, backgroundColor: 'rgba(0,0,255,0.4)' },
            oval: { type: 'ellipse', xMin: 5, xMax: 6, yMin: 10, yMax: 40 },
          },
        },
      },
    },
  },
  {
    name: 'annotation + datalabels on a time axis',
    type: 'line',
    data: oneDataset('A', timePoints(5, 6, 7)),
    options: {
      scales: { x: { type: 'time', time: { unit: 'week' } } },
      plugins: {
        datalabels: { align: 'top' },
        annotation: {
          annotations: { t: { type: 'line', xMin: '2024-01-15', xMax: '2024-01-15', borderColor: '#080', borderDash: [4, 4] } },
        },
      },
    },
    datalabels: true,
  },
];

describe('Chart.js fidelity: our chart page against Chart.js drawing the same config', () => {
  const worst: { name: string; share: number }[] = [];
  afterAll(() => {
    worst.sort((a, b) => b.share - a.share);
    console.info(`chartjs fidelity: ${worst.length} configs, max differing share ${worst[0]?.share ?? 0} (${worst[0]?.name})`);
  });

  it('has at least 50 configs covering every chart type, scale type and both plugins', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(50);
    const text = JSON.stringify(CASES);
    for (const t of ['bar', 'line', 'pie', 'doughnut', 'polarArea', 'radar', 'scatter', 'bubble'])
      expect(CASES.some((c) => c.type === t)).toBe(true);
    for (const s of ['"linear"', '"logarithmic"', '"category"', '"time"', '"timeseries"']) expect(text).toContain(s);
    expect(text).toContain('"radialLinear"');
    expect(text).toContain('"datalabels"');
    expect(text).toContain('"annotation"');
  });

  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const { share } = await compare(c);
    worst.push({ name: c.name, share });
    expect(share).toBeLessThanOrEqual(0.001);
  });
});

describe('issue 14: what Chart.js accepts and our page used to refuse or drop', () => {
  const render = async (c: Case) => {
    const result = await renderOurs(c);
    expect(result, result.message).toMatchObject({ ok: true });
    return decode(result.image!);
  };
  const timeCase = (locale?: string): Case => ({
    name: 'time',
    type: 'line',
    data: oneDataset('A', [
      { x: '2024-01-10', y: 3 },
      { x: Date.UTC(2024, 2, 5), y: 7 },
      { x: '2024-06-20T12:00:00Z', y: 5 },
    ]),
    options: {
      scales: {
        x: {
          type: 'time',
          time: { unit: 'month', displayFormats: { month: 'MMMM' } },
          ...(locale ? { adapters: { date: { locale } } } : {}),
        },
      },
    },
  });

  it('time scales: ISO strings and timestamps parsed, month unit and displayFormats applied, locale named as a string', async () => {
    const en = await render(timeCase());
    const fr = await render(timeCase('fr'));
    const frCA = await render(timeCase('fr-CA'));
    // The plot is the same; only the month names of the x axis differ ("January" / "janvier").
    expect(differingShare(en, fr)).toBeGreaterThan(0.002);
    expect(differingShare(fr, frCA)).toBeLessThan(differingShare(en, fr));
    // Drawn exactly as Chart.js draws it with date-fns's fr locale object.
    const theirs = decode(await renderReference({ ...timeCase(), locale: ['fr', 'fr'] }));
    expect(differingShare(fr, theirs)).toBe(0);
    // A bare language date-fns only has per region takes its first region ("zh" → zhCN).
    expect(differingShare(await render(timeCase('zh')), await render(timeCase('zh-CN')))).toBe(0);
    const unknown = await renderOurs(timeCase('xx-YY'));
    expect(unknown).toMatchObject({ ok: false, message: expect.stringContaining('unknown date locale') });
  });

  it('timeseries scales draw', async () => {
    const c = timeCase();
    const image = await render({ ...c, options: { scales: { x: { type: 'timeseries', time: { unit: 'month' } } } } });
    expect(inkShare(image)).toBeGreaterThan(0.01);
  });

  it('object-map data keeps every key as a label, including ones shaped like option names (on…, filter)', async () => {
    const values = { Mon: 3, onSale: 8, filter: 5, sort: 2 };
    const asMap = await render({ name: 'map', type: 'bar', data: oneDataset('A', values) });
    const asArray = await render({
      name: 'array',
      type: 'bar',
      data: { labels: Object.keys(values), datasets: [{ label: 'A', data: Object.values(values) }] },
    });
    expect(differingShare(asMap, asArray)).toBe(0);
  });

  it('object-map data of an arc chart gets one palette colour per key', async () => {
    const c: Case = { name: 'polar', type: 'polarArea', data: { labels: ['a', 'b', 'c'], datasets: [{ data: { a: 3, b: 5, c: 4 } }] } };
    const result = await renderOurs(c, { colors: ['#ff0000', '#00aa00', '#0000ff'] } as Partial<ChartRenderPayload>);
    expect(result, result.message).toMatchObject({ ok: true });
    const image = decode(result.image!);
    // polarArea takes the palette at 0.7 alpha: on white, red → (255, 77, 77), green → (77, 196, 77), blue → (77, 77, 255).
    const count = (rgb: number[]) => {
      let n = 0;
      for (let i = 0; i < image.data.length; i += 4) if (rgb.every((v, k) => Math.abs(image.data[i + k]! - v) <= 2)) n += 1;
      return n;
    };
    for (const tint of [
      [255, 77, 77],
      [77, 196, 77],
      [77, 77, 255],
    ])
      expect(count(tint)).toBeGreaterThan(200);
  });

  it('bubble points without r and as plain numbers, category y values: drawn like Chart.js', async () => {
    for (const c of CASES.filter((k) => /bubble: without r|bubble: plain numbers|category y/.test(k.name))) {
      const { mine, share } = await compare(c);
      expect(share).toBe(0);
      expect(inkShare(mine)).toBeGreaterThan(0.01);
    }
  });

  it('datalabels: off unless the config asks for them, then drawn', async () => {
    const plain: Case = { name: 'plain', type: 'bar', data: cat(ds('A', 1)) };
    const off = await render(plain);
    const onByOptions = await render({ ...plain, options: { plugins: { datalabels: { color: '#000' } } } });
    const onByDataset = await render({ ...plain, data: cat(ds('A', 1, { datalabels: { color: '#000' } })) });
    const disabled = await render({ ...plain, options: { plugins: { datalabels: false } } });
    expect(differingShare(off, decode(await renderReference(plain)))).toBe(0);
    expect(differingShare(off, disabled)).toBe(0);
    expect(differingShare(off, onByOptions)).toBeGreaterThan(0.002);
    expect(differingShare(onByOptions, onByDataset)).toBe(0);
  });

  it('annotation: a box and a line configured with data only are drawn where they belong', async () => {
    const box: Case = {
      name: 'box',
      type: 'line',
      data: cat(ds('A', 3)),
      options: {
        plugins: {
          annotation: {
            annotations: {
              zone: { type: 'box', xMin: 1, xMax: 3, yMin: 0, yMax: 100, backgroundColor: 'rgb(0, 200, 0)', borderWidth: 0 },
              limit: { type: 'line', yMin: 50, yMax: 50, borderColor: 'rgb(255, 0, 255)', borderWidth: 4 },
            },
          },
        },
      },
    };
    const image = await render(box);
    const green = (x: number, y: number) => {
      const i = (y * image.width + x) * 4;
      return [image.data[i], image.data[i + 1], image.data[i + 2]];
    };
    // x index 1–3 of 0–6 spans roughly the second and third sixth of the plot: its middle is green.
    expect(green(Math.round(image.width * 0.38), Math.round(image.height * 0.3))).toEqual([0, 200, 0]);
    let magenta = 0;
    for (let i = 0; i < image.data.length; i += 4)
      if (image.data[i] === 255 && image.data[i + 1] === 0 && image.data[i + 2] === 255) magenta += 1;
    expect(magenta).toBeGreaterThan(image.width);
  });
});
