/**
 * Highcharts on the page: styled mode, SVG output carrying what it inherits, PNG/JPEG painted from the SVG
 * (svg-painter.ts) or drawn through an image of it, and two per-chart costs cut.
 */
import type * as HighchartsApi from 'highcharts';
import { cacheHighchartsLayout, type LayoutInternals, setStyledMode } from './highcharts-layout-cache.ts';
import { container, drawn, isRaster } from './shared.ts';
import { encoded, painted, rasterCanvas } from './svg-painter.ts';
import type { Drawn, PageChartConfig } from './types.ts';

/** The options chart-config.ts builds: Highcharts options, of which the page reads only these. */
interface HighchartsPageOptions {
  chart?: { styledMode?: boolean };
  palette?: { colorScheme?: string };
}

const INHERITED = ['font-family', 'font-size', 'font-style', 'font-weight', 'letter-spacing', 'word-spacing', 'color'];
const attribute = (value: string): string => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

const PALETTE = /<style\b[^>]*class="highcharts-palette"[^>]*>[^<]*<\/style>/;

/*
 * Styled mode: Highcharts draws classes only and leaves every colour, stroke and font size to its style
 * sheet (highcharts.css), inlined by chart-host.ts as a disabled <style>. It is switched on for styled
 * charts only (its rules would override the attributes of ordinary ones), and exported SVG carries it,
 * with the colour scheme the page used, since an SVG without it has black shapes and unsized text.
 */
const stylesheet = document.getElementById('highcharts-css') as HTMLStyleElement | null;
const optionsOf = (config: PageChartConfig) => config.options as HighchartsPageOptions | undefined;
const isStyled = (config: PageChartConfig): boolean => optionsOf(config)?.chart?.styledMode === true;
const styledModeCss = (chart: HighchartsApi.Chart, config: PageChartConfig): string => {
  if (!isStyled(config) || !stylesheet) return '';
  // What the SVG inherits from the chart's container in the page (its font and colour scheme).
  const outer = getComputedStyle(chart.container);
  const scheme = outer.colorScheme === 'light' || outer.colorScheme === 'dark' ? `color-scheme:${outer.colorScheme};` : '';
  const root = `.highcharts-root{${scheme}font-family:${outer.fontFamily};font-size:${outer.fontSize}}`;
  const css = `${stylesheet.textContent}${root}`.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return `<style>${css}</style>`;
};

/**
 * The chart's SVG as a document of its own that renders as it does in the page. In an image the SVG is
 * the root, so whatever it inherited here (chart.style sizes in em, fonts set on the container) and what
 * rem means would be lost: a wrapper root carries the page root's font size (rem), and a group the
 * values the SVG inherits from its parent. The group also carries the palette's colour variables, as
 * computed here: the image then needs no style sheet, which alone would cost it a third of its decoding.
 */
const standaloneSvg = (chart: HighchartsApi.Chart, svg: SVGSVGElement, config: PageChartConfig): string => {
  const inherited = getComputedStyle(svg.parentElement as Element);
  const declarations = INHERITED.map((name) => `${name}:${inherited.getPropertyValue(name)}`);
  let markup = new XMLSerializer().serializeToString(svg);
  const palette = svg.querySelector('style.highcharts-palette');
  if (palette && PALETTE.test(markup)) {
    const own = getComputedStyle(svg);
    for (const name of new Set(palette.textContent?.match(/--[\w-]+/g))) declarations.push(`${name}:${own.getPropertyValue(name)}`);
    markup = markup.replace(PALETTE, '');
  }
  const rootFontSize = getComputedStyle(document.documentElement).fontSize;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${config.width}" height="${config.height}" style="font-size:${attribute(rootFontSize)}">` +
    `${styledModeCss(chart, config)}<g style="${attribute(declarations.join(';'))}">${markup}</g></svg>`
  );
};

/**
 * Raster output from the chart's own SVG, drawn into a canvas as an image and encoded there: the route
 * for charts `paintSvg` declines. A page screenshot costs more CPU in all (a compositor frame, the
 * capture, encoding in the browser). Highcharts has already laid out and measured everything in the page;
 * the image only replays the finished markup with the same local fonts, so it matches a screenshot (only
 * the anti-aliasing of slanted edges may differ by a few levels). Resolves to {} when the page must be
 * captured after all.
 */
const exportSvg = (chart: HighchartsApi.Chart, svg: SVGSVGElement, config: PageChartConfig): Promise<Drawn> => {
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(standaloneSvg(chart, svg, config))}`;
  return image
    .decode()
    .then(() => {
      const { canvas, ctx } = rasterCanvas(config);
      ctx.drawImage(image, 0, 0, canvas.width, canvas.height);
      return encoded(canvas, config);
    })
    .catch(() => ({}));
};

/** Highcharts PNG/JPEG: painted directly when `paintSvg` can, else through an image of its SVG. */
const rasterize = (chart: HighchartsApi.Chart, svg: SVGSVGElement, config: PageChartConfig): Drawn | Promise<Drawn> =>
  painted(svg, config) ?? exportSvg(chart, svg, config).then((result) => (result.image ? { ...result, via: 'image' as const } : result));

/** The two Highcharts internals `speedUpHighcharts` wraps (not in its public types). */
interface HighchartsInternals {
  AST?: { prototype: { parseMarkup?: (this: unknown, markup: unknown) => unknown } };
  Time?: {
    prototype: {
      dateTimeFormat?: (this: TimeInternals, ...args: unknown[]) => unknown;
      dateFormat?: (this: TimeInternals, format: unknown, timestamp: unknown, upperCaseFirst?: unknown) => unknown;
    };
  };
}
interface TimeInternals {
  timezone?: unknown;
  dTLCache?: Record<string, unknown>;
  options?: { locale?: unknown };
  lang?: { locale?: unknown };
}

/** Memoised Intl-formatted dates, bounded: cleared whole past this many (a datetime axis adds one per tick). */
const DATE_MEMO_MAX = 5_000;

/*
 * Every chart makes a Time, whose constructor formats the 12 month and 7 weekday names, long and short
 * (38 Intl formats, ~5% of a column chart's construction), and datetime axes format their ticks the same
 * way. A format given as an Intl options object gives a string that depends only on those options, the
 * timestamp, the time zone and the locale, so the page keeps the answers, keyed by all of them. Only
 * named time zones: a chart without one formats in the page's local offset, which Highcharts computes
 * per timestamp, so those keep its path (as do string formats, which lang options may change).
 */
const memoiseDateFormats = (time: NonNullable<HighchartsInternals['Time']>['prototype']): void => {
  const dateFormat = time.dateFormat;
  if (typeof dateFormat !== 'function') return;
  const memo = new Map<string, unknown>();
  time.dateFormat = function (format, timestamp, upperCaseFirst) {
    if (
      format === null ||
      typeof format !== 'object' ||
      typeof timestamp !== 'number' ||
      !Number.isFinite(timestamp) ||
      typeof this.timezone !== 'string'
    )
      return dateFormat.call(this, format, timestamp, upperCaseFirst);
    const locale = this.options?.locale || this.lang?.locale || '';
    const key = `${JSON.stringify(format)}|${timestamp}|${Boolean(upperCaseFirst)}|${this.timezone}|${JSON.stringify(locale)}`;
    let answer = memo.get(key);
    if (answer === undefined) {
      answer = dateFormat.call(this, format, timestamp, upperCaseFirst);
      if (memo.size >= DATE_MEMO_MAX) memo.clear();
      memo.set(key, answer);
    }
    return answer;
  };
};

/*
 * Two per-chart costs of Highcharts that give the same result for less work (about 1.5 ms of a ~25 ms
 * column chart), installed once per page:
 * - Text without markup: Highcharts parses every label through DOMParser (a new HTML document each time)
 *   to build its text AST. For a string with no '<' or '&' (nor the CR and NUL the HTML parser would
 *   rewrite), that parse can only answer one text node holding the trimmed string, so answer it directly.
 * - Date formats: every chart builds a new Time object whose Intl.DateTimeFormat cache starts empty, and
 *   creating those formatters is slow. Their cache key covers everything but the time zone, so charts
 *   share one cache per time zone.
 */
const speedUpHighcharts = (H: HighchartsInternals | undefined): void => {
  const ast = H?.AST?.prototype;
  if (ast && typeof ast.parseMarkup === 'function') {
    const parseMarkup = ast.parseMarkup;
    ast.parseMarkup = function (markup) {
      // (Highcharts also rewrites ` style="` before parsing, even in plain text; such strings keep its path.)
      if (typeof markup === 'string' && !/[<&\r\0]| style=["']/.test(markup)) {
        const text = markup.trim();
        return text ? [{ tagName: '#text', textContent: text }] : [];
      }
      return parseMarkup.call(this, markup);
    };
  }
  // `Highcharts.Time` is a public subclass of the class charts use: patch where the methods are defined.
  let time = H?.Time?.prototype;
  while (time && !Object.hasOwn(time, 'dateTimeFormat')) time = Object.getPrototypeOf(time);
  if (time && typeof time.dateTimeFormat === 'function') {
    const dateTimeFormat = time.dateTimeFormat;
    const caches = new Map<string, Record<string, unknown>>();
    time.dateTimeFormat = function (...args) {
      const zone = String(this.timezone);
      let cache = caches.get(zone);
      if (!cache) {
        cache = {};
        caches.set(zone, cache);
      }
      this.dTLCache = cache;
      return dateTimeFormat.apply(this, args);
    };
    memoiseDateFormats(time);
  }
};
speedUpHighcharts(window.Highcharts as unknown as HighchartsInternals | undefined);
cacheHighchartsLayout(window.Highcharts as unknown as LayoutInternals | undefined);

export const renderHighcharts = (config: PageChartConfig): Drawn | Promise<Drawn> => {
  const styled = isStyled(config);
  if (stylesheet) stylesheet.media = styled ? 'all' : 'not all';
  setStyledMode(styled);
  // The sheet's light-dark() colours follow these classes (chart-config.ts pins the scheme to the theme).
  const scheme = styled ? optionsOf(config)?.palette?.colorScheme : undefined;
  container.classList.toggle('highcharts-light', scheme === 'light');
  container.classList.toggle('highcharts-dark', scheme === 'dark');
  // The export server's constructors; chart-config.ts passes only these names.
  const constructors = window.Highcharts as unknown as Record<string, typeof HighchartsApi.chart | undefined>;
  const construct = constructors[config.constr ?? 'chart'];
  if (!construct) throw new Error(`Highcharts.${config.constr} is not loaded`);
  const chart = construct(container, config.options as HighchartsApi.Options);
  drawn.current = chart;
  const svg = chart.container.querySelector('svg') as SVGSVGElement;
  if (config.format === 'svg') {
    const markup = new XMLSerializer().serializeToString(svg);
    const css = styledModeCss(chart, config);
    return { svg: css ? markup.replace(/^<svg[^>]*>/, (open) => open + css) : markup };
  }
  const raster = !config.responsiveWidth && isRaster(config.format);
  // HTML labels would sit beside the SVG (the sanitiser turns useHTML off, but to be sure), and an SVG
  // image loads no <image> or foreign content: such charts are captured from the page.
  const selfContained = chart.container.childElementCount === 1 && !svg.querySelector('image, foreignObject');
  return raster && selfContained ? rasterize(chart, svg, config) : {};
};
