import { ChartDefaults, type ChartLibrary, type ChartRenderPayload, type HighchartsConstructor, isCssColor } from '@render/contracts';
import { ChartConfigError, isPlainObject, mergeJson, sanitizeChartValue } from './chart-sanitize.ts';
import { sanitizeChartJsData } from './chartjs-data.ts';

/** What `window.__renderChart` receives (see page/main.ts): plain JSON, sanitised. */
export interface PageChartConfig {
  library: ChartLibrary;
  chartType: string;
  format: ChartRenderPayload['format'];
  width: number;
  height: number;
  background: string;
  colors: string[];
  responsiveWidth: boolean;
  /** JPEG quality 1–100, for charts the page exports itself. */
  quality: number;
  data?: unknown;
  options: unknown;
  /** Highcharts only: the constructor (the export server's `constr`); `chart` when absent. */
  constr?: HighchartsConstructor;
  /**
   * Tests only: which route Highcharts PNG/JPEG takes (the page paints the SVG itself when it can, else
   * draws it as an image); never set for jobs.
   */
  exportVia?: 'paint' | 'image';
}

export const DARK_BACKGROUND = '#1f1f23';

/** Highcharts has no built-in dark theme that avoids global setOptions (and web fonts); this is ours. */
const axisDark = {
  gridLineColor: '#3a3a3f',
  lineColor: '#707073',
  minorGridLineColor: '#505053',
  tickColor: '#707073',
  labels: { style: { color: '#e0e0e3' } },
  title: { style: { color: '#a0a0a3' } },
};
export const highchartsDarkTheme = {
  colors: ['#2b908f', '#90ee7e', '#f45b5b', '#7798bf', '#aaeeee', '#ff0066', '#eeaaee', '#55bf3b', '#df5353', '#7798bf'],
  chart: { backgroundColor: DARK_BACKGROUND, plotBorderColor: '#606063', style: { color: '#e0e0e3' } },
  title: { style: { color: '#e0e0e3' } },
  subtitle: { style: { color: '#c0c0c3' } },
  xAxis: axisDark,
  yAxis: axisDark,
  legend: { itemStyle: { color: '#e0e0e3' }, itemHiddenStyle: { color: '#606063' }, title: { style: { color: '#c0c0c3' } } },
  plotOptions: { series: { dataLabels: { color: '#f0f0f3' }, marker: { lineColor: '#333' } } },
  credits: { style: { color: '#8a8a8e' } },
  labels: { style: { color: '#c0c0c3' } },
};

/** Opaque colours need no transparent screenshot (which costs two extra CDP calls). */
export const isOpaque = (color: string) =>
  /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(color) || (/^[a-z]+$/i.test(color) && color.toLowerCase() !== 'transparent');

const asObject = (value: unknown, what: string): Record<string, unknown> => {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value)) throw new ChartConfigError(`Invalid chart ${what} format`);
  return value;
};

function highchartsOptions(payload: ChartRenderPayload, chartType: string, background: string, colors: string[]) {
  const user = asObject(sanitizeChartValue(payload.chartOptions), 'options');
  const data = sanitizeChartValue(payload.chartData);
  const dataPart = Array.isArray(data) ? { series: data } : asObject(data, 'data');
  const dark = payload.theme === 'dark';
  let options = mergeJson(user, dataPart) as Record<string, unknown>;
  if (dark) {
    options = mergeJson(highchartsDarkTheme, options) as Record<string, unknown>;
    // Several axes come as an array, which replaces the theme's single axis: theme each one instead.
    for (const key of ['xAxis', 'yAxis']) {
      const axes = options[key];
      if (Array.isArray(axes)) options[key] = axes.map((axis) => mergeJson(axisDark, axis));
    }
  }
  const chart = isPlainObject(options.chart) ? options.chart : {};
  const plotOptions = isPlainObject(options.plotOptions) ? options.plotOptions : {};
  const seriesDefaults = isPlainObject(plotOptions.series) ? plotOptions.series : {};
  const series = Array.isArray(options.series) ? options.series : [];
  return {
    ...options,
    ...(colors.length ? { colors } : {}),
    chart: {
      ...chart,
      type: chartType,
      // The image is exactly width×height; responsiveWidth lets Highcharts take the container's width.
      width: payload.responsiveWidth ? null : payload.width,
      height: payload.height,
      backgroundColor: background,
      animation: false,
      reflow: false,
    },
    plotOptions: {
      ...plotOptions,
      series: { ...seriesDefaults, animation: false },
      // The organization series alone defaults to HTML labels; like every useHTML, they are turned off.
      ...(chartType === 'organization' || series.some((s) => isPlainObject(s) && s.type === 'organization')
        ? { organization: mergeJson(plotOptions.organization, { dataLabels: { useHTML: false } }) }
        : {}),
    },
    series: series.map((s) => (isPlainObject(s) ? settled({ ...s, animation: false }, chartType) : s)),
    // The accessibility module is not loaded; enabled, Highcharts would only log a warning per chart.
    accessibility: { ...(isPlainObject(options.accessibility) ? options.accessibility : {}), enabled: false },
    ...(chart.styledMode === true ? { palette: styledPalette(options.palette, payload.theme) } : {}),
  };
}

/** Series types laid out by a force simulation, which Highcharts animates over frames unless told not to. */
const SIMULATED_LAYOUTS = new Set(['networkgraph', 'packedbubble']);

/** A force-directed series computes its whole layout while the chart is drawn, so the image shows it settled. */
function settled(series: Record<string, unknown>, chartType: string): Record<string, unknown> {
  const type = typeof series.type === 'string' ? series.type : chartType;
  if (!SIMULATED_LAYOUTS.has(type)) return series;
  const layout = isPlainObject(series.layoutAlgorithm) ? series.layoutAlgorithm : {};
  return { ...series, layoutAlgorithm: { ...layout, enableSimulation: false } };
}

/**
 * Styled mode colours come from Highcharts' CSS (loaded by the page for such charts), whose light-dark()
 * colours follow the colour scheme: pin it to the requested theme rather than the page's preference.
 */
function styledPalette(palette: unknown, theme: ChartRenderPayload['theme']) {
  const own = isPlainObject(palette) ? palette : {};
  const scheme = own.colorScheme === 'light' || own.colorScheme === 'dark' ? own.colorScheme : theme;
  return { ...own, colorScheme: scheme };
}

function chartJsOptions(payload: ChartRenderPayload) {
  const user = asObject(sanitizeChartValue(payload.chartOptions), 'options');
  return {
    ...user,
    animation: false,
    // Fixed-size canvas unless responsiveWidth; either way the chart fills the image, not an aspect ratio.
    responsive: payload.responsiveWidth === true,
    maintainAspectRatio: false,
    // Nothing hovers over a rendered image; without listeners no event can redraw it mid-screenshot.
    events: [],
  };
}

/**
 * Turns a validated job into the page's config: sanitised user JSON plus what this service decides
 * (size, background, palette, animations off). Throws ChartConfigError for a config it cannot use.
 */
export function buildPageConfig(payload: ChartRenderPayload): PageChartConfig {
  const library = payload.library;
  const colors = (payload.colors ?? []).filter(isCssColor);
  const requestedBackground = payload.backgroundColor && isCssColor(payload.backgroundColor) ? payload.backgroundColor.trim() : undefined;
  const userChart = isPlainObject(payload.chartOptions) && isPlainObject(payload.chartOptions.chart) ? payload.chartOptions.chart : {};
  const chartType =
    payload.chartType ??
    (library === 'highcharts'
      ? typeof userChart.type === 'string'
        ? userChart.type
        : ChartDefaults.highchartsType
      : ChartDefaults.chartType);
  const base = {
    library,
    chartType,
    format: payload.format,
    width: payload.width,
    height: payload.height,
    colors,
    responsiveWidth: payload.responsiveWidth === true,
    quality: payload.quality,
  };

  if (library === 'highcharts') {
    const userBackground =
      typeof userChart.backgroundColor === 'string' && isCssColor(userChart.backgroundColor) ? userChart.backgroundColor : undefined;
    const background = requestedBackground ?? userBackground ?? (payload.theme === 'dark' ? DARK_BACKGROUND : '#ffffff');
    const constr = payload.constr && payload.constr !== 'chart' ? { constr: payload.constr } : {};
    return { ...base, ...constr, background, options: highchartsOptions(payload, chartType, background, colors) };
  }
  const background = requestedBackground ?? '#ffffff';
  if (library === 'chartjs') {
    return { ...base, background, data: asObject(sanitizeChartJsData(payload.chartData), 'data'), options: chartJsOptions(payload) };
  }
  return {
    ...base,
    background,
    data: asObject(sanitizeChartValue(payload.chartData), 'data'),
    options: asObject(sanitizeChartValue(payload.chartOptions), 'options'),
  };
}
