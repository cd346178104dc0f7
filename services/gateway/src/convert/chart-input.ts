import {
  AppError,
  type ChartConvertBody,
  ChartDefaults,
  ChartFormatMessages,
  ChartInputMessages,
  type ChartLibrary,
  ChartLimits,
  type ChartRenderPayload,
  ChartTypesByLibrary,
  ForbiddenChartKeys,
  isCssColor,
  isScriptLikeString,
} from '@render/contracts';
import { assertPixelBudget } from '../images/image-reply.ts';
import { checkChartShape } from './chart-shapes.ts';

/** The wording of docs/spec/validation.md for each input, reused as the prefix of every more specific reason. */
export const ChartMessages = ChartInputMessages;

type Part = 'data' | 'options';

const invalid = (message: string) => new AppError('VALIDATION_ERROR', message);
export const invalidPart = (part: Part, reason?: string) => invalid(reason ? `${ChartMessages[part]}: ${reason}` : ChartMessages[part]);

/** The demo pages send what the user typed, so both fields may be JSON text instead of a JSON value. */
function parsePart(value: unknown, part: Part): unknown {
  if (typeof value !== 'string') return value;
  if (!value.trim()) throw invalid(part === 'data' ? ChartMessages.dataJson : ChartMessages.options);
  try {
    return JSON.parse(value);
  } catch {
    throw invalid(part === 'data' ? ChartMessages.dataJson : ChartMessages.options);
  }
}

const pathOf = (base: string, key: string | number) =>
  typeof key === 'number' ? `${base}[${key}]` : /^[A-Za-z_$][\w$]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;

/**
 * Walks a parsed config once and refuses what must never reach the page: code-like strings (a chart
 * config is data; the worker would also drop them, but a silent drop would hide the user's mistake),
 * prototype keys, and sizes that would hold a render page for long.
 */
export function assertSafeJson(value: unknown, part: Part, path: string, depth = 0): void {
  if (depth > ChartLimits.maxDepth) throw invalidPart(part, `${path} is nested more than ${ChartLimits.maxDepth} levels deep`);
  if (typeof value === 'string') {
    if (isScriptLikeString(value))
      throw invalidPart(part, `${path} looks like code; functions and scripts are not allowed in chart configs`);
    if (value.length > ChartLimits.maxStringLength)
      throw invalidPart(part, `${path} is longer than ${ChartLimits.maxStringLength} characters`);
    return;
  }
  if (Array.isArray(value)) {
    if (value.length > ChartLimits.maxPointsPerSeries)
      throw invalid(`Too many data points: ${path} has ${value.length} items; the limit is ${ChartLimits.maxPointsPerSeries} per series`);
    for (const [i, item] of value.entries()) assertSafeJson(item, part, pathOf(path, i), depth + 1);
    return;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (ForbiddenChartKeys.includes(key)) throw invalidPart(part, `the key "${key}" is not allowed`);
      assertSafeJson(item, part, pathOf(path, key), depth + 1);
    }
  }
}

function resolveChartType(library: ChartLibrary, requested: string | undefined, options: Record<string, unknown>): string {
  const chart = options.chart;
  const fromOptions =
    library === 'highcharts' && chart && typeof chart === 'object' && typeof (chart as { type?: unknown }).type === 'string'
      ? (chart as { type: string }).type
      : undefined;
  const type = requested ?? fromOptions ?? (library === 'highcharts' ? ChartDefaults.highchartsType : ChartDefaults.chartType);
  const supported = ChartTypesByLibrary[library];
  if (!supported.includes(type)) {
    throw invalid(`Unsupported chart type "${type.slice(0, 40)}" for ${library}. Supported types: ${supported.join(', ')}`);
  }
  return type;
}

/**
 * Checks a convert request beyond its schema and turns it into the job payload: parsed, shape-checked,
 * code-free JSON within the pixel budget. Every refusal is a 400 with the spec's message first.
 */
export function toChartRenderPayload(body: ChartConvertBody): ChartRenderPayload {
  const { library, format } = body;
  if (format === 'svg' && library === 'chartjs') throw invalid(ChartFormatMessages.svg);
  if (format === 'pdf' && library !== 'highcharts') throw invalid(ChartFormatMessages.pdf);
  if (body.colors) {
    const bad = body.colors.findIndex((c) => !isCssColor(c));
    if (bad >= 0) throw invalid(`colors must be an array of CSS colours (colors[${bad}] is not one)`);
  }
  if (body.backgroundColor !== undefined && !isCssColor(body.backgroundColor)) throw invalid('backgroundColor must be a CSS colour');

  const chartData = parsePart(body.chartData, 'data');
  const rawOptions = parsePart(body.chartOptions, 'options');
  if (rawOptions !== undefined && rawOptions !== null && (typeof rawOptions !== 'object' || Array.isArray(rawOptions))) {
    throw invalidPart('options');
  }
  const chartOptions = (rawOptions ?? {}) as Record<string, unknown>;
  assertSafeJson(chartData, 'data', 'chartData');
  assertSafeJson(chartOptions, 'options', 'chartOptions');

  const chartType = resolveChartType(library, body.chartType, chartOptions);
  checkChartShape(library, chartType, chartData, chartOptions);
  assertPixelBudget(body.width, body.height, format === 'svg' || format === 'pdf' ? 1 : body.scale);

  return {
    library,
    chartType,
    chartData: chartData ?? null,
    chartOptions,
    format,
    width: body.width,
    height: body.height,
    quality: body.quality,
    ...(body.optimize ? { optimize: true } : {}),
    ...(body.colors ? { colors: body.colors.map((c) => c.trim()) } : {}),
    ...(body.backgroundColor !== undefined ? { backgroundColor: body.backgroundColor.trim() } : {}),
    scale: body.scale,
    ...(body.responsiveWidth !== undefined ? { responsiveWidth: body.responsiveWidth } : {}),
    theme: body.theme,
  };
}
