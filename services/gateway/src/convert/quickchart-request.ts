import {
  AppError,
  type ChartRenderPayload,
  isCssColor,
  type QuickChartBody,
  QuickChartDefaults,
  type QuickChartFormat,
  QuickChartFormats,
  QuickChartLimits,
  RenderLimits,
} from '@render/contracts';
import { assertPixelBudget } from '../images/image-reply.ts';

/** QuickChart's parameters as one record: a GET's query, or a POST's body (long and short names). */
export type QuickChartParameters = QuickChartBody;

const invalid = (message: string) => new AppError('VALIDATION_ERROR', message);

/** The first of a parameter's names that is given; a repeated query parameter takes its first value. */
const pick = (params: Record<string, unknown>, ...names: string[]): unknown => {
  for (const name of names) {
    const value = params[name];
    if (value !== undefined && value !== '') return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
};

function numberParam(raw: unknown, name: string, fallback: number, min: number, max: number, integer: boolean): number {
  if (raw === undefined) return fallback;
  // QuickChart reads these with parseInt/parseFloat: "600px" is 600, and text without a number is the default.
  const value = integer ? Number.parseInt(String(raw), 10) : Number.parseFloat(String(raw));
  if (Number.isNaN(value)) return fallback;
  if (value < min || value > max) throw invalid(`${name} must be between ${min} and ${max}`);
  return value;
}

/** The config's text: the object a JSON body gave, or the parameter's text (base64-decoded if asked). */
function sourceOf(params: Record<string, unknown>): string {
  const chart = pick(params, 'chart', 'c');
  if (chart === undefined) throw invalid('You are missing variable `c` or `chart`');
  const encoding = String(pick(params, 'encoding') ?? 'url').toLowerCase();
  if (encoding !== 'url' && encoding !== 'base64') throw invalid('encoding must be "url" or "base64"');
  let source: string;
  if (typeof chart === 'object' && chart !== null) source = JSON.stringify(chart);
  else if (typeof chart !== 'string') throw invalid('chart must be a Chart.js config (an object, or its JSON or JavaScript text)');
  else if (encoding === 'base64') {
    const compact = chart.replace(/\s/g, '');
    if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(compact)) throw invalid('chart is not valid base64 (encoding=base64)');
    source = Buffer.from(compact, 'base64').toString('utf8');
  } else source = chart;
  if (!source.trim()) throw invalid('You are missing variable `c` or `chart`');
  if (source.length > QuickChartLimits.maxSourceLength)
    throw invalid(`chart must be at most ${QuickChartLimits.maxSourceLength} characters`);
  return source;
}

/** `version`: 2 (Chart.js 2.9.4, QuickChart's default), 3 or 4 (both drawn by Chart.js 4); "2.9.4", "4.4.1" too. */
function chartJsOf(raw: unknown): '2' | '4' {
  if (raw === undefined) return QuickChartDefaults.version;
  const major = Number.parseInt(String(raw), 10);
  if (major === 2) return '2';
  if (major === 3 || major === 4) return '4';
  throw invalid('version must be 2, 3 or 4');
}

function formatOf(raw: unknown): QuickChartFormat {
  const format = String(raw ?? QuickChartDefaults.format).toLowerCase();
  if (!(QuickChartFormats as readonly string[]).includes(format)) throw invalid(`format must be one of: ${QuickChartFormats.join(', ')}`);
  return format as QuickChartFormat;
}

export interface QuickChartRequest {
  payload: ChartRenderPayload;
  /** `format=base64`: answer the PNG as a data URL in text, as QuickChart does. */
  dataUrl: boolean;
}

/**
 * QuickChart's parameters → a chart job. The config stays text: it may be JavaScript, which only the render
 * page evaluates (docs/decisions/0036); the gateway checks its size and nothing inside it.
 */
export function toQuickChartRequest(params: Record<string, unknown>): QuickChartRequest {
  const source = sourceOf(params);
  const side = QuickChartLimits.maxSide;
  const width = numberParam(pick(params, 'width', 'w'), 'width', QuickChartDefaults.width, 1, side, true);
  const height = numberParam(pick(params, 'height', 'h'), 'height', QuickChartDefaults.height, 1, side, true);
  const scale = numberParam(
    pick(params, 'devicePixelRatio'),
    'devicePixelRatio',
    QuickChartDefaults.devicePixelRatio,
    RenderLimits.minScale,
    QuickChartLimits.maxDevicePixelRatio,
    false,
  );
  const background = pick(params, 'backgroundColor', 'bkg');
  if (background !== undefined && (typeof background !== 'string' || !isCssColor(background)))
    throw invalid('backgroundColor must be a CSS colour');
  const requested = formatOf(pick(params, 'format', 'f'));
  const format = requested === 'jpg' || requested === 'jpeg' ? 'jpeg' : requested === 'base64' ? 'png' : requested;
  assertPixelBudget(width, height, format === 'pdf' ? 1 : scale);
  return {
    dataUrl: requested === 'base64',
    payload: {
      library: 'chartjs',
      chartData: null,
      chartOptions: {},
      format,
      width,
      height,
      quality: 92,
      scale,
      theme: 'light',
      ...(background !== undefined ? { backgroundColor: background.trim() } : {}),
      quickchart: { chartJs: chartJsOf(pick(params, 'version', 'v')), source },
    },
  };
}
