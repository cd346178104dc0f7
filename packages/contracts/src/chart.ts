import { type Static, Type } from 'typebox';
import { QuickChartJob } from './quickchart.ts';
import { cacheField, dimension, formatMessages, optimizeField, outputFields, quality, RasterFormats, scaleField } from './render.ts';
import { conditional, StringEnum, withMessages } from './schema-helpers.ts';
import { webhookField } from './webhook.ts';

export const ChartLibraries = ['chartjs', 'd3', 'highcharts'] as const;
export type ChartLibrary = (typeof ChartLibraries)[number];
export const ChartFormats = [...RasterFormats, 'svg', 'pdf'] as const;
export type ChartFormat = (typeof ChartFormats)[number];
/** Which library draws which format: the schema's messages, which the gateway repeats for what slips past it. */
export const ChartFormatMessages = {
  pdf: `PDF output is only available for Highcharts charts; use ${[...RasterFormats, 'svg'].join(', ')}`,
  svg: `SVG output is only available for D3 and Highcharts charts; Chart.js renders to ${RasterFormats.join(', ')}`,
} as const;
/** docs/spec/validation.md's wording for a chart's data and options, which the gateway prefixes to each more specific reason. */
export const ChartInputMessages = {
  dataJson: 'Please enter valid JSON chart data',
  data: 'Invalid chart data format',
  options: 'Invalid chart options format',
} as const;
export const ChartJsTypes = ['bar', 'line', 'pie', 'doughnut', 'radar', 'polarArea', 'scatter', 'bubble'] as const;
export const D3ChartTypes = ['bar', 'line', 'area', 'pie', 'donut', 'scatter'] as const;
export type D3ChartType = (typeof D3ChartTypes)[number];
/**
 * Series types the worker's Highcharts build draws: core, highcharts-more, highcharts-3d and the series
 * modules of Highcharts (Core) it inlines (heatmap, treemap, sunburst, treegraph, funnel, cylinder,
 * funnel3d, pyramid3d, solid-gauge, sankey, dependency-wheel, organization, arc-diagram, variable-pie,
 * wordcloud, xrange, streamgraph, timeline, item, dumbbell, lollipop, networkgraph, pareto,
 * histogram-bellcurve, vector, windbarb, variwide, venn, bullet, dotplot, pictorial). Force-directed layouts
 * (networkgraph, packedbubble) are computed in one go, not animated. The Stock, Maps and Gantt modules'
 * series (candlestick, map, gantt…) are loaded too, for POST /highcharts only (`HighchartsProductTypes`).
 */
export const HighchartsTypes = [
  'line',
  'spline',
  'area',
  'areaspline',
  'column',
  'bar',
  'pie',
  'scatter',
  'arearange',
  'areasplinerange',
  'columnrange',
  'columnpyramid',
  'boxplot',
  'errorbar',
  'bubble',
  'gauge',
  'packedbubble',
  'polygon',
  'waterfall',
  'scatter3d',
  'heatmap',
  'treemap',
  'sunburst',
  'treegraph',
  'funnel',
  'pyramid',
  'cylinder',
  'funnel3d',
  'pyramid3d',
  'solidgauge',
  'sankey',
  'dependencywheel',
  'organization',
  'arcdiagram',
  'variablepie',
  'wordcloud',
  'xrange',
  'streamgraph',
  'timeline',
  'item',
  'dumbbell',
  'lollipop',
  'networkgraph',
  'pareto',
  'histogram',
  'bellcurve',
  'vector',
  'windbarb',
  'variwide',
  'venn',
  'bullet',
  'dotplot',
  'pictorial',
] as const;
export const ChartTypesByLibrary: Record<ChartLibrary, readonly string[]> = {
  chartjs: ChartJsTypes,
  d3: D3ChartTypes,
  highcharts: HighchartsTypes,
};
export const ChartDefaults = { width: 800, height: 400, quality: 90, chartType: 'bar', highchartsType: 'line' } as const;

/**
 * Bounds that keep one request from occupying a page for long: series (datasets) per chart, points per
 * series (any array in the config), and nesting depth of chartData/chartOptions.
 */
export const ChartLimits = { maxSeries: 50, maxPointsPerSeries: 10_000, maxDepth: 24, maxStringLength: 10_000 } as const;

/**
 * Chart configs are data, never code: the libraries get JSON only, and a string that looks like code is
 * refused at the gateway (and dropped by the worker) so nothing downstream is tempted to evaluate it.
 * Arrow syntax is matched only where a string starts as an arrow function (`x =>`, `(a, b) =>`), so a
 * label like "2023 => 2024" stays legal.
 */
const SCRIPT_LIKE =
  /^\s*(?:async\s+)?function\b|^\s*(?:async\s*)?(?:\([^()]*\)|[A-Za-z_$][\w$]*)\s*=>|javascript\s*:|vbscript\s*:|<\s*script\b/i;
export const isScriptLikeString = (value: string): boolean => SCRIPT_LIKE.test(value);

/**
 * Keys that would let JSON reach object prototypes inside the page's libraries (their deep merges walk
 * user options), which would survive on a warm page into other users' jobs.
 */
export const ForbiddenChartKeys: readonly string[] = ['__proto__', 'constructor', 'prototype'];

/**
 * CSS colours as users write them: hex, a name, or a colour function. Refuses `url(...)`, `var(...)` and
 * anything with quotes or semicolons, so a colour can neither load a resource nor escape its attribute.
 */
const CSS_COLOR =
  /^(?:#[0-9a-f]{3,4}|#[0-9a-f]{6}|#[0-9a-f]{8}|[a-z]{3,30}|(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch)\([-+0-9.,%\s/a-z]*\))$/i;
export const isCssColor = (value: string): boolean => value.length <= 64 && CSS_COLOR.test(value.trim()) && !/url|var/i.test(value);

/**
 * The D3 data shape, close to Chart.js's `data` so a chart can switch library:
 * - bar, line, area, pie, donut: `{ labels: (string|number)[], datasets: [{ label?, data: (number|null)[], color? }] }`
 *   (pie and donut draw the first dataset, one slice per label; values must be ≥ 0)
 * - scatter: `{ datasets: [{ label?, data: [{ x: number, y: number, r?: number }], color? }] }`
 */
export const D3ChartDataPoint = Type.Object({
  x: Type.Number(),
  y: Type.Number(),
  r: Type.Optional(Type.Number({ minimum: 0, maximum: 200 })),
});
export const D3Dataset = Type.Object({
  label: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Number()])),
  data: Type.Array(Type.Union([Type.Number(), Type.Null(), D3ChartDataPoint])),
  color: Type.Optional(Type.String({ maxLength: 64, description: 'CSS colour of this dataset (else the palette)' })),
});
export const D3ChartData = Type.Object(
  {
    labels: Type.Optional(
      Type.Array(Type.Union([Type.String({ maxLength: 200 }), Type.Number()]), { description: 'Category labels (not for scatter)' }),
    ),
    datasets: Type.Array(D3Dataset, { minItems: 1, description: 'One entry per series; pie/donut use the first' }),
  },
  {
    description:
      'D3 data: { labels, datasets: [{ label, data: number[] }] } for bar/line/area/pie/donut; { datasets: [{ label, data: [{ x, y, r? }] }] } for scatter',
  },
);
export type D3ChartData = Static<typeof D3ChartData>;

/** chartOptions for D3: our own small option set (D3 itself has no options object). */
export const D3ChartOptions = Type.Object(
  {
    title: Type.Optional(Type.String({ maxLength: 200 })),
    xAxisLabel: Type.Optional(Type.String({ maxLength: 200 })),
    yAxisLabel: Type.Optional(Type.String({ maxLength: 200 })),
    legend: Type.Optional(Type.Boolean({ description: 'Default: shown when there are several datasets, and for pie/donut' })),
    stacked: Type.Optional(Type.Boolean({ description: 'bar and area: stack datasets instead of grouping/overlapping' })),
    horizontal: Type.Optional(Type.Boolean({ description: 'bar: horizontal bars' })),
    curve: Type.Optional(StringEnum(['linear', 'monotone', 'step', 'natural'] as const, { description: 'line/area interpolation' })),
    innerRadius: Type.Optional(Type.Number({ minimum: 0, maximum: 0.95, description: 'donut hole as a fraction of the radius (0.5)' })),
    showValues: Type.Optional(Type.Boolean({ description: 'Write values on bars and slices' })),
    grid: Type.Optional(Type.Boolean({ description: 'Horizontal grid lines (default true)' })),
    fontSize: Type.Optional(Type.Number({ minimum: 6, maximum: 48 })),
    fontFamily: Type.Optional(Type.String({ maxLength: 200, pattern: '^[^;{}<>]*$' })),
    textColor: Type.Optional(Type.String({ maxLength: 64 })),
  },
  {
    description:
      'D3 options: title, xAxisLabel, yAxisLabel, legend, stacked, horizontal, curve, innerRadius, showValues, grid, fontSize, fontFamily, textColor',
  },
);
export type D3ChartOptions = Static<typeof D3ChartOptions>;

/**
 * `chartData` and `chartOptions` arrive either as objects or as JSON text (the demo pages send what the
 * user typed); the gateway parses and checks them, then queues plain JSON values only — never functions or
 * script strings.
 */
export const ChartConvertBody = Type.Object(
  {
    library: withMessages(StringEnum(ChartLibraries, { description: 'Chart library' }), {
      required: 'library is required (chartjs, d3 or highcharts)',
      enum: 'library must be one of: chartjs, d3, highcharts',
      type: 'library must be one of: chartjs, d3, highcharts',
    }),
    chartType: Type.Optional(
      withMessages(
        Type.String({
          minLength: 1,
          maxLength: 40,
          description:
            `Chart type. chartjs: ${ChartJsTypes.join(', ')} (default bar). d3: ${D3ChartTypes.join(', ')} (default bar). ` +
            'highcharts: a series type (default: chartOptions.chart.type, else line)',
        }),
        { type: 'chartType must be a string', minLength: 'chartType must not be empty', maxLength: 'chartType is too long' },
      ),
    ),
    chartData: Type.Optional(
      Type.Unknown({
        description:
          'Object or JSON text. chartjs: the Chart.js `data` object ({ labels, datasets }). ' +
          'd3: { labels, datasets: [{ label, data: number[] }] } (bar, line, area, pie, donut) or ' +
          '{ datasets: [{ label, data: [{ x, y, r? }] }] } (scatter). ' +
          'highcharts: an array of series, or an object (e.g. { series }) merged over chartOptions.',
      }),
    ),
    chartOptions: Type.Optional(
      Type.Unknown({
        description:
          'Object or JSON text. chartjs: Chart.js `options`. highcharts: Highcharts options. ' +
          'd3: { title, xAxisLabel, yAxisLabel, legend, stacked, horizontal, curve, innerRadius, showValues, grid, fontSize, fontFamily, textColor }. ' +
          'Functions cannot be sent; strings that look like code are refused.',
      }),
    ),
    format: withMessages(
      StringEnum(ChartFormats, { default: 'png', description: 'svg for D3 and Highcharts; pdf for Highcharts only' }),
      formatMessages(ChartFormats),
    ),
    width: dimension('width', ChartDefaults.width),
    height: dimension('height', ChartDefaults.height),
    quality: quality(ChartDefaults.quality),
    optimize: optimizeField(),
    ...outputFields(),
    cache: cacheField(),
    webhook: webhookField(),
    colors: Type.Optional(
      withMessages(
        Type.Array(Type.String({ maxLength: 64 }), {
          maxItems: 64,
          description: 'Palette for series/slices, used where the data sets no colour of its own',
        }),
        { type: 'colors must be an array of CSS colours' },
      ),
    ),
    backgroundColor: Type.Optional(
      withMessages(Type.String({ maxLength: 64, description: 'CSS colour; default white (dark grey for the Highcharts dark theme)' }), {
        type: 'backgroundColor must be a CSS colour',
        maxLength: 'backgroundColor must be a CSS colour',
      }),
    ),
    scale: scaleField(),
    animations: Type.Optional(Type.Boolean({ description: 'Accepted for compatibility; animations are always off while rendering' })),
    responsiveWidth: Type.Optional(
      Type.Boolean({ description: 'Let the chart follow the container width (library responsive mode) instead of a fixed-size canvas' }),
    ),
    theme: withMessages(StringEnum(['light', 'dark'] as const, { default: 'light', description: 'Highcharts theme' }), {
      enum: 'theme must be one of: light, dark',
      type: 'theme must be one of: light, dark',
    }),
  },
  {
    $id: 'ChartConvertBody',
    additionalProperties: true,
    // Which formats each library draws, in the schema so the document and generated clients know it too.
    allOf: [
      conditional(
        // Only for a format that exists at all: an unknown one keeps the general "format must be one of" message.
        { properties: { library: { enum: ['chartjs', 'd3'] }, format: { enum: [...ChartFormats] } }, required: ['library'] },
        {
          properties: {
            format: withMessages(StringEnum([...RasterFormats, 'svg'] as const), {
              enum: ChartFormatMessages.pdf,
            }),
          },
        },
      ),
      conditional(
        { properties: { library: { const: 'chartjs' }, format: { enum: [...ChartFormats] } }, required: ['library'] },
        {
          properties: {
            format: withMessages(StringEnum(RasterFormats), {
              enum: ChartFormatMessages.svg,
            }),
          },
        },
      ),
    ],
  },
);
export type ChartConvertBody = Static<typeof ChartConvertBody>;

/** The Highcharts constructors (the export server's `constr`): Highcharts, Stock, Maps, Gantt. */
export const HighchartsConstructors = ['chart', 'stockChart', 'mapChart', 'ganttChart'] as const;
export type HighchartsConstructor = (typeof HighchartsConstructors)[number];

/** What the worker gets: data and options already parsed to plain JSON values. */
export const ChartRenderPayload = Type.Object(
  {
    library: StringEnum(ChartLibraries),
    chartType: Type.Optional(Type.String()),
    chartData: Type.Unknown(),
    chartOptions: Type.Unknown(),
    format: StringEnum(ChartFormats),
    width: Type.Integer(),
    height: Type.Integer(),
    quality: Type.Integer(),
    optimize: Type.Optional(Type.Boolean()),
    colors: Type.Optional(Type.Array(Type.String())),
    backgroundColor: Type.Optional(Type.String()),
    scale: Type.Number(),
    responsiveWidth: Type.Optional(Type.Boolean()),
    theme: StringEnum(['light', 'dark'] as const),
    /** A QuickChart-compatible call: the config is `quickchart.source`, and chartData/chartOptions are unused. */
    quickchart: Type.Optional(QuickChartJob),
    /** Highcharts only (POST /highcharts): the constructor; `chart` when absent. */
    constr: Type.Optional(StringEnum(HighchartsConstructors)),
  },
  { additionalProperties: false },
);
export type ChartRenderPayload = Static<typeof ChartRenderPayload>;
