import { AppError, ChartJsTypes, type ChartLibrary, ChartLimits, D3ChartOptions, HighchartsTypes, isCssColor } from '@render/contracts';
import { Value } from 'typebox/value';

/**
 * Per-library data shapes. Wrong shapes are refused here with a reason a user can act on, instead of
 * reaching the page and failing there as an opaque render error.
 */
type Json = Record<string, unknown>;

const dataError = (reason: string) => new AppError('VALIDATION_ERROR', `Invalid chart data format: ${reason}`);
const optionsError = (reason: string) => new AppError('VALIDATION_ERROR', `Invalid chart options format: ${reason}`);
const tooManySeries = (what: string) =>
  new AppError('VALIDATION_ERROR', `Too many series: at most ${ChartLimits.maxSeries} ${what} are allowed`);

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function datasetsOf(data: unknown, library: string, hint: string): Json[] {
  if (data === undefined || data === null) throw dataError(`chartData is required for ${library} (${hint})`);
  if (!isObject(data)) throw dataError(`chartData must be an object (${hint})`);
  if (!Array.isArray(data.datasets) || data.datasets.length === 0)
    throw dataError(`chartData.datasets must be a non-empty array (${hint})`);
  if (data.datasets.length > ChartLimits.maxSeries) throw tooManySeries('datasets');
  if (data.labels !== undefined && !Array.isArray(data.labels)) throw dataError('chartData.labels must be an array');
  data.datasets.forEach((ds, i) => {
    // Chart.js also takes an object map as data ({ January: 10, February: 20 }): one point per key.
    const mapData = library === 'chartjs' && isObject(ds) && isObject(ds.data);
    if (!isObject(ds) || !(Array.isArray(ds.data) || mapData))
      throw dataError(`chartData.datasets[${i}] must be an object with a data array`);
  });
  return data.datasets as Json[];
}

// ---------------------------------------------------------------- Chart.js

const CHARTJS_HINT = 'the Chart.js data object: { labels, datasets: [{ label, data }] }';

/**
 * Every data form Chart.js documents ("Data structures"): numbers, strings (category values on a category
 * axis, dates on a time axis, numeric text), null, arrays ([x, y], [start, end] floating bars, [x, y, r]
 * bubbles), objects ({ x, y }, { x, y, r } with r optional, or any keys that `parsing` picks, such as
 * xAxisKey/yAxisKey paths), or an object map { label: value } instead of an array. Bubble points may be
 * plain numbers too (Chart.js then uses the dataset's radius). Only other kinds (booleans, nested arrays
 * of objects…) are refused, so a typo still gets a clear answer.
 */
// Any string: Chart.js parses numeric text ("12.5") and skips what is not a number on a value axis.
const chartJsPrimitive = (v: unknown) => v === null || isNum(v) || typeof v === 'string';
const chartJsValue = (v: unknown) =>
  chartJsPrimitive(v) || (Array.isArray(v) && v.length >= 2 && v.length <= 3 && v.every(chartJsPrimitive)) || isObject(v);

function checkChartJs(type: string, data: unknown) {
  const datasets = datasetsOf(data, 'chartjs', CHARTJS_HINT);
  datasets.forEach((ds, i) => {
    const dsType = ds.type === undefined ? type : ds.type;
    if (typeof dsType !== 'string' || !(ChartJsTypes as readonly string[]).includes(dsType)) {
      throw dataError(`chartData.datasets[${i}].type must be one of: ${ChartJsTypes.join(', ')}`);
    }
    const points = Array.isArray(ds.data) ? ds.data : Object.values(ds.data as Json);
    if (points.length > ChartLimits.maxPointsPerSeries)
      throw dataError(`chartData.datasets[${i}].data has more than ${ChartLimits.maxPointsPerSeries} points`);
    const keys = Array.isArray(ds.data) ? points.map((_, j) => `[${j}]`) : Object.keys(ds.data as Json).map((k) => `.${k}`);
    points.forEach((p, j) => {
      if (!chartJsValue(p))
        throw dataError(`chartData.datasets[${i}].data${keys[j]} must be a number, string, null, [x, y] pair or object such as { x, y }`);
    });
  });
}

// ---------------------------------------------------------------- D3

const D3_HINT = '{ labels: [...], datasets: [{ label, data: number[] }] }';
const D3_SCATTER_HINT = '{ datasets: [{ label, data: [{ x, y }] }] }';

function checkD3(type: string, data: unknown, options: Json) {
  const scatter = type === 'scatter';
  const datasets = datasetsOf(data, 'd3', scatter ? D3_SCATTER_HINT : D3_HINT);
  const labels = (data as Json).labels as unknown[] | undefined;
  if (!scatter) {
    if (!labels || labels.length === 0) throw dataError(`chartData.labels must be a non-empty array for ${type} charts (${D3_HINT})`);
    labels.forEach((l, j) => {
      if (typeof l !== 'string' && !isNum(l)) throw dataError(`chartData.labels[${j}] must be a string or number`);
    });
  }
  datasets.forEach((ds, i) => {
    const at = `chartData.datasets[${i}]`;
    if (ds.label !== undefined && typeof ds.label !== 'string' && !isNum(ds.label)) throw dataError(`${at}.label must be a string`);
    if (ds.color !== undefined && (typeof ds.color !== 'string' || !isCssColor(ds.color)))
      throw dataError(`${at}.color must be a CSS colour`);
    const values = ds.data as unknown[];
    if (!scatter && labels && values.length > labels.length) throw dataError(`${at}.data has more values than there are labels`);
    values.forEach((p, j) => {
      if (scatter) {
        if (!(isObject(p) && isNum(p.x) && isNum(p.y) && (p.r === undefined || (isNum(p.r) && p.r >= 0 && p.r <= 200)))) {
          throw dataError(`${at}.data[${j}] must be { x, y } numbers (r optional, 0–200) for scatter charts`);
        }
      } else if (p !== null && !isNum(p)) {
        throw dataError(`${at}.data[${j}] must be a number or null`);
      } else if ((type === 'pie' || type === 'donut') && isNum(p) && p < 0) {
        throw dataError(`${at}.data[${j}] must not be negative in a ${type} chart`);
      }
    });
  });
  if (!Value.Check(D3ChartOptions, options)) {
    const first = Value.Errors(D3ChartOptions, options)[0];
    const field = first?.instancePath ? `chartOptions${first.instancePath.replace(/\//g, '.')}` : 'chartOptions';
    throw optionsError(`${field} ${first?.message.toLowerCase() ?? 'is invalid'}`);
  }
  if (typeof options.textColor === 'string' && !isCssColor(options.textColor))
    throw optionsError('chartOptions.textColor must be a CSS colour');
}

// ---------------------------------------------------------------- Highcharts

function checkHighchartsSeries(series: unknown, at: string, fail: (reason: string) => AppError) {
  if (!Array.isArray(series)) throw fail(`${at} must be an array of series`);
  if (series.length > ChartLimits.maxSeries) throw tooManySeries('series');
  series.forEach((s, i) => {
    if (!isObject(s)) throw fail(`${at}[${i}] must be a series object, e.g. { name, data }`);
    if (s.type !== undefined && (typeof s.type !== 'string' || !(HighchartsTypes as readonly string[]).includes(s.type))) {
      throw fail(`${at}[${i}].type must be one of: ${HighchartsTypes.join(', ')}`);
    }
    if (s.data !== undefined && !Array.isArray(s.data)) throw fail(`${at}[${i}].data must be an array`);
  });
}

function checkHighcharts(data: unknown, options: Json) {
  if (data !== undefined && data !== null) {
    if (Array.isArray(data)) checkHighchartsSeries(data, 'chartData', dataError);
    else if (isObject(data)) {
      if (data.series !== undefined) checkHighchartsSeries(data.series, 'chartData.series', dataError);
    } else throw dataError('chartData must be an array of series or an object such as { series: [...] }');
  }
  if (options.series !== undefined) checkHighchartsSeries(options.series, 'chartOptions.series', optionsError);
  if (options.chart !== undefined && !isObject(options.chart)) throw optionsError('chartOptions.chart must be an object');
}

export function checkChartShape(library: ChartLibrary, chartType: string, data: unknown, options: Json): void {
  if (library === 'chartjs') checkChartJs(chartType, data);
  else if (library === 'd3') checkD3(chartType, data, options);
  else checkHighcharts(data, options);
}
