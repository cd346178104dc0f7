/*
 * The QuickChart page's own code (quickchart-host.ts inlines it after Chart.js 2.9.4 — kept as
 * `window.Chart2` — with its plugins, then Chart.js 4 with its own). Unlike the chart page, this page
 * EVALUATES the caller's config: QuickChart configs are JavaScript object literals with function
 * callbacks. That happens only here, in Chromium: the page's CSP allows no network (default-src 'none'),
 * every request Chromium makes still goes through the egress proxy, and the renderer resets the page after
 * every job whose config is not plain JSON, so nothing one config leaves behind meets the next job.
 */
import { translateTimeFormats } from './moment-tokens.ts';
import { container, destroy, drawn, isJsonObject, type JsonObject, mimeOf } from './shared.ts';

export interface QuickChartPageConfig {
  chartJs: '2' | '4';
  source: string;
  width: number;
  height: number;
  scale: number;
  background: string;
  /** What the page exports: a raster in one of these, or nothing (the renderer prints a PDF). */
  format: 'png' | 'jpeg' | 'webp' | 'svg' | 'pdf';
  quality: number;
}
export type QuickChartPageResult =
  | { ok: true; image?: string; imageWidth?: number; imageHeight?: number; evaluated: boolean }
  | { ok: false; message: string; evaluated: boolean };

type ChartCtor = new (canvas: HTMLCanvasElement, config: unknown) => { destroy(): void };
declare global {
  interface Window {
    Chart2?: ChartCtor;
  }
}

/** QuickChart's default palette (its `DEFAULT_COLORS`), for datasets that set no colour. */
const PALETTE = [
  'rgba(54, 162, 235, 0.5)',
  'rgba(255, 159, 64, 0.5)',
  'rgba(153, 102, 255, 0.5)',
  'rgba(255, 99, 132, 0.5)',
  'rgba(255, 205, 86, 0.5)',
  'rgba(75, 192, 192, 0.5)',
  'rgba(201, 203, 207, 0.5)',
];
const ROUND = new Set(['pie', 'doughnut', 'polarArea', 'outlabeledPie', 'outlabeledDoughnut']);

/** JSON is parsed; anything else is a JavaScript expression, evaluated here and nowhere else. */
function evaluate(source: string): { chart: unknown; evaluated: boolean } {
  try {
    return { chart: JSON.parse(source), evaluated: false };
  } catch {
    const chart = new Function(`"use strict";\nreturn (\n${source}\n);`)();
    return { chart, evaluated: true };
  }
}

const datasetsOf = (chart: JsonObject): JsonObject[] =>
  isJsonObject(chart.data) && Array.isArray(chart.data.datasets) ? (chart.data.datasets.filter(isJsonObject) as JsonObject[]) : [];

function addPalette(chart: JsonObject, type: string): void {
  datasetsOf(chart).forEach((ds, i) => {
    if (ds.backgroundColor !== undefined) return;
    ds.backgroundColor =
      ROUND.has(type) && Array.isArray(ds.data) ? ds.data.map((_, j) => PALETTE[j % PALETTE.length]) : PALETTE[i % PALETTE.length];
  });
}

/** `holder[key]` as an object, made (an empty one) when it is not one yet. */
function objectIn(holder: JsonObject, key: string): JsonObject {
  const value = holder[key];
  if (isJsonObject(value)) return value;
  const made: JsonObject = {};
  holder[key] = made;
  return made;
}

const numbers = (values: unknown): number[] => (Array.isArray(values) ? values.map(Number).filter(Number.isFinite) : []);

/** QuickChart's `sparkline`: one line, no axes, legend or points. */
function sparkline(chart: JsonObject, options: JsonObject, v2: boolean): void {
  const [first, ...rest] = datasetsOf(chart);
  if (!first || rest.length) throw new Error('"sparkline" needs exactly one dataset; use "line" for several');
  chart.type = 'line';
  const values = numbers(first.data);
  if (isJsonObject(chart.data) && !chart.data.labels) chart.data.labels = values.map(() => '');
  const elements = objectIn(options, 'elements');
  elements.line ??= { borderColor: '#000', borderWidth: 1, fill: false };
  elements.point ??= { radius: 0 };
  const min = Math.min(...values);
  const max = Math.max(...values);
  if (v2) {
    options.legend ??= { display: false };
    const scales = objectIn(options, 'scales');
    scales.xAxes ??= [{ display: false }];
    scales.yAxes ??= [{ display: false, ticks: { min: min - Math.abs(min) * 0.05, max: max + Math.abs(max) * 0.05 } }];
  } else {
    const plugins = objectIn(options, 'plugins');
    plugins.legend ??= { display: false };
    options.scales ??= { x: { display: false }, y: { display: false, min: min - Math.abs(min) * 0.05, max: max + Math.abs(max) * 0.05 } };
  }
}

/** QuickChart's `progressBar`: datasets[0] the value, datasets[1] the maximum (100), drawn as overlapping bars. */
function progressBar(chart: JsonObject, options: JsonObject, v2: boolean): void {
  const sets = datasetsOf(chart);
  const value = sets[0];
  if (!value) throw new Error('"progressBar" needs a dataset with the value');
  const maxSet = sets[1] ?? { data: numbers(value.data).map(() => 100) };
  if (!sets[1] && isJsonObject(chart.data)) (chart.data.datasets as unknown[]).push(maxSet);
  maxSet.backgroundColor ??= 'rgba(201, 203, 207, 0.5)';
  maxSet.datalabels ??= { display: false };
  value.datalabels ??= { display: true, color: '#fff', font: { weight: 'bold' }, anchor: 'center' };
  if (isJsonObject(chart.data) && !chart.data.labels) chart.data.labels = numbers(value.data).map(() => '');
  if (v2) {
    chart.type = 'horizontalBar';
    options.legend ??= { display: false };
    options.scales ??= { xAxes: [{ display: false, stacked: false, ticks: { min: 0 } }], yAxes: [{ display: false, stacked: true }] };
  } else {
    chart.type = 'bar';
    options.indexAxis = 'y';
    const plugins = objectIn(options, 'plugins');
    plugins.legend ??= { display: false };
    options.scales ??= { x: { display: false, min: 0 }, y: { display: false, stacked: true } };
  }
}

/** QuickChart's defaults and chart types on top of what the config says (its lib/charts.js, as documented). */
function applyQuickChartDefaults(chart: JsonObject, v2: boolean): void {
  const options = objectIn(chart, 'options');
  if (chart.type === 'donut') chart.type = 'doughnut';
  if (chart.type === 'sparkline') sparkline(chart, options, v2);
  if (chart.type === 'progressBar') progressBar(chart, options, v2);
  const type = String(chart.type ?? 'bar');
  if (v2 && ['bar', 'line', 'scatter', 'bubble', 'horizontalBar'].includes(type) && !options.scales)
    options.scales = { yAxes: [{ ticks: { beginAtZero: true } }] };
  addPalette(chart, type);
  if (v2 && type === 'line') for (const ds of datasetsOf(chart)) ds.lineTension ??= 0;
  const plugins = objectIn(options, 'plugins');
  // QuickChart labels pie and doughnut slices by default and nothing else.
  const defaultLabels = plugins.datalabels === undefined;
  if (defaultLabels) plugins.datalabels = { display: type === 'pie' || type === 'doughnut' };
  if (v2 && ROUND.has(type)) {
    const outlabels = plugins.outlabels !== undefined || datasetsOf(chart).some((ds) => ds.outlabels !== undefined);
    if (!outlabels) for (const ds of datasetsOf(chart)) ds.outlabels = { display: false };
    else if (defaultLabels) plugins.datalabels = { display: false };
  }
  if (!v2) translateTimeFormats(options);
  options.animation = false;
  options.responsive = false;
  options.devicePixelRatio = 0; // set by the caller below
}

const backgroundPlugin = (background: string, v2: boolean) => ({
  id: '__quickchartBackground',
  beforeDraw(instance: { ctx: CanvasRenderingContext2D; width: number; height: number; chart?: { ctx: CanvasRenderingContext2D } }) {
    if (background === 'transparent') return;
    const ctx = v2 && instance.chart ? instance.chart.ctx : instance.ctx;
    ctx.save();
    ctx.globalCompositeOperation = 'destination-over';
    ctx.fillStyle = background;
    ctx.fillRect(0, 0, ctx.canvas.width, ctx.canvas.height);
    ctx.restore();
  },
});

function draw(config: QuickChartPageConfig, chart: JsonObject): HTMLCanvasElement {
  const v2 = config.chartJs === '2';
  applyQuickChartDefaults(chart, v2);
  (chart.options as JsonObject).devicePixelRatio = config.scale;
  const extra = [backgroundPlugin(config.background, v2)];
  // Chart.js 4 needs plugins handed to the chart (datalabels is not registered globally there).
  if (!v2 && window.ChartDataLabels) extra.push(window.ChartDataLabels as never);
  chart.plugins = [...(Array.isArray(chart.plugins) ? chart.plugins : []), ...extra];
  const canvas = document.createElement('canvas');
  canvas.width = config.width;
  canvas.height = config.height;
  canvas.style.cssText = `display:block;width:${config.width}px;height:${config.height}px`;
  container.append(canvas);
  const Ctor = (v2 ? window.Chart2 : window.Chart) as unknown as ChartCtor | undefined;
  if (!Ctor) throw new Error(`Chart.js ${config.chartJs} is not loaded`);
  // Some Chart.js 2 plugins (outlabels) look up the global `Chart` while drawing: it is Chart.js 2 for the
  // (synchronous, animation-free) drawing of a version 2 chart, and Chart.js 4 again afterwards.
  const chart4 = window.Chart;
  if (v2) (window as unknown as { Chart: unknown }).Chart = Ctor;
  try {
    drawn.current = new Ctor(canvas, chart);
  } finally {
    window.Chart = chart4;
  }
  return canvas;
}

function render(config: QuickChartPageConfig): QuickChartPageResult {
  destroy();
  let evaluated = false;
  try {
    container.style.width = `${config.width}px`;
    container.style.height = `${config.height}px`;
    const parsed = evaluate(config.source);
    evaluated = parsed.evaluated;
    if (!isJsonObject(parsed.chart)) throw new Error('the chart config must be an object, e.g. { type: "bar", data: { … } }');
    const canvas = draw(config, parsed.chart);
    if (config.format === 'pdf') return { ok: true, evaluated };
    const format = config.format === 'svg' ? 'png' : config.format;
    return {
      ok: true,
      evaluated,
      image: canvas.toDataURL(mimeOf(format), config.quality / 100),
      imageWidth: canvas.width,
      imageHeight: canvas.height,
    };
  } catch (err) {
    destroy();
    return { ok: false, evaluated, message: String((err as Error | undefined)?.message || err).slice(0, 300) };
  }
}

Object.defineProperty(window, '__renderQuickChart', { value: render });
Object.defineProperty(window, '__destroyChart', { value: destroy });
