/** Chart.js on the page: the palette, date locales, opt-in data labels, and the canvas exported as is. */
import type { Chart, ChartConfiguration, Plugin } from 'chart.js';
import { translateTimeFormats } from './moment-tokens.ts';
import { container, drawn, isJsonObject, type JsonObject, mimeOf, withAlpha } from './shared.ts';
import type { Drawn, PageChartConfig } from './types.ts';

/** A dataset as the sanitised JSON holds it (chartjs-data.ts): only what the page reads or fills in. */
interface Dataset {
  type?: string;
  data?: unknown;
  backgroundColor?: unknown;
  borderColor?: unknown;
  pointBackgroundColor?: unknown;
  datalabels?: unknown;
}
interface ChartJsData {
  datasets?: unknown;
}

const ARC_TYPES = new Set(['pie', 'doughnut', 'polarArea']);
const FILL_TYPES = new Set(['line', 'radar']);

/** The palette fills in only what a dataset leaves unset, so explicit dataset colours still win. */
const applyChartJsPalette = (type: string, data: ChartJsData, colors: readonly string[]): void => {
  if (!colors.length || !Array.isArray(data.datasets)) return;
  (data.datasets as Dataset[]).forEach((ds, i) => {
    const dsType = ds.type || type;
    const c = colors[i % colors.length] as string;
    if (ARC_TYPES.has(dsType)) {
      if (ds.backgroundColor === undefined) {
        // data may also be an object map ({ label: value }), one slice per key.
        const n = Array.isArray(ds.data) ? ds.data.length : ds.data && typeof ds.data === 'object' ? Object.keys(ds.data).length : 0;
        ds.backgroundColor = Array.from({ length: n }, (_, j) => {
          const slice = colors[j % colors.length] as string;
          return dsType === 'polarArea' ? withAlpha(slice, 0.7) : slice;
        });
      }
    } else if (FILL_TYPES.has(dsType)) {
      if (ds.borderColor === undefined) ds.borderColor = c;
      if (ds.backgroundColor === undefined) ds.backgroundColor = withAlpha(c, 0.4);
      if (ds.pointBackgroundColor === undefined) ds.pointBackgroundColor = c;
    } else {
      if (ds.backgroundColor === undefined) ds.backgroundColor = c;
      if (ds.borderColor === undefined) ds.borderColor = c;
    }
  });
};

/**
 * Time scales use the inlined date-fns adapter (chart-host.ts). JSON cannot hold date-fns's locale object,
 * so a config names it (`scales.<id>.adapters.date.locale: "fr"`, "de-AT", "zh_CN", "en"); it is looked up
 * among date-fns's own locales by exact code, else by language (else that language's first region); an
 * unknown name fails the chart with a clear message. Nothing is evaluated.
 */
const DATE_LOCALES: Record<string, unknown> = window.dateFns?.locale ?? {};
const dateLocale = (name: string): unknown => {
  const [lang = '', ...parts] = name.trim().split(/[-_]/);
  const region = parts.map((p) => (p.length === 4 ? (p[0] ?? '').toUpperCase() + p.slice(1).toLowerCase() : p.toUpperCase())).join('');
  const language = lang.toLowerCase();
  const key =
    [language + region, language, `${language}US`].find((k) => Object.hasOwn(DATE_LOCALES, k)) ??
    // A bare language date-fns only has per region ("zh" → zhCN): its first region.
    Object.keys(DATE_LOCALES).find((k) => language && k.startsWith(language) && /^[A-Z]/.test(k.slice(language.length)));
  if (!key) throw new Error(`unknown date locale "${name.slice(0, 40)}"`);
  return DATE_LOCALES[key];
};
const applyDateLocales = (options: JsonObject): void => {
  if (!isJsonObject(options.scales)) return;
  for (const scale of Object.values(options.scales)) {
    const date = isJsonObject(scale) && isJsonObject(scale.adapters) ? scale.adapters.date : undefined;
    if (isJsonObject(date) && typeof date.locale === 'string') date.locale = dateLocale(date.locale);
  }
};

/**
 * chartjs-plugin-datalabels is opt-in: registered globally it would label every chart. It is attached to a
 * chart only when the config configures it: `options.plugins.datalabels` or a dataset's `datalabels` set
 * (to anything but false). chartjs-plugin-annotation registers itself and draws only configured annotations.
 */
const wantsDataLabels = (data: ChartJsData, options: JsonObject): boolean => {
  const configured = (v: unknown) => v !== undefined && v !== false;
  if (isJsonObject(options.plugins) && configured(options.plugins.datalabels)) return true;
  return Array.isArray(data.datasets) && data.datasets.some((ds) => isJsonObject(ds) && configured(ds.datalabels));
};

/** The canvas: fixed to the image's size, or (responsive mode) in a box that is exactly the image. */
const chartCanvas = (config: PageChartConfig): HTMLCanvasElement => {
  const canvas = document.createElement('canvas');
  if (config.responsiveWidth) {
    // Responsive mode sizes the canvas from its parent: give it one that is exactly the image.
    const box = document.createElement('div');
    box.style.cssText = `position:relative;width:100%;height:${config.height}px`;
    box.append(canvas);
    container.append(box);
  } else {
    canvas.width = config.width;
    canvas.height = config.height;
    canvas.style.cssText = `display:block;width:${config.width}px;height:${config.height}px`;
    container.append(canvas);
  }
  return canvas;
};

export const renderChartJs = (config: PageChartConfig): Drawn => {
  const options = config.options as JsonObject;
  const data = config.data as ChartJsData;
  applyDateLocales(options);
  translateTimeFormats(options);
  const canvas = chartCanvas(config);
  applyChartJsPalette(config.chartType, data, config.colors);
  // The background is painted into the canvas itself, so the canvas alone is the finished image.
  const background: Plugin = {
    id: '__renderBackground',
    beforeDraw(chart: Chart) {
      if (config.background === 'transparent') return;
      const { ctx, width, height } = chart;
      ctx.save();
      ctx.globalCompositeOperation = 'destination-over';
      ctx.fillStyle = config.background;
      ctx.fillRect(0, 0, width, height);
      ctx.restore();
    },
  };
  const plugins = wantsDataLabels(data, options) && window.ChartDataLabels ? [background, window.ChartDataLabels] : [background];
  drawn.current = new window.Chart(canvas, { type: config.chartType, data, options, plugins } as unknown as ChartConfiguration);
  // A fixed-size canvas is exported here: encoding the drawn canvas is cheaper than a page screenshot,
  // which must first get the canvas through the compositor. Chart.js sizes the backing store by the
  // device pixel ratio, i.e. the requested scale.
  const exportable =
    !config.responsiveWidth &&
    (config.format === 'png' || config.format === 'webp' || (config.format === 'jpeg' && config.background !== 'transparent'));
  if (!exportable) return {};
  return { image: canvas.toDataURL(mimeOf(config.format), config.quality / 100), imageWidth: canvas.width, imageHeight: canvas.height };
};
