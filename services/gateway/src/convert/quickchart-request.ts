import {
  AppError,
  type ChartRenderPayload,
  isCssColor,
  type QuickChartBody,
  QuickChartDefaults,
  type QuickChartFormat,
  QuickChartFormats,
  QuickChartLimits,
  type QuickChartStoredRequest,
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
 * QuickChart's parameters, checked as `/chart` checks them, under their long names with the config as its
 * decoded text: what a short URL keeps (`POST /chart/create`), and what a job is built from. The config stays
 * text: it may be JavaScript, which only the render page evaluates (docs/decisions/0036); the gateway checks
 * its size and nothing inside it.
 */
export function quickChartSettingsOf(params: Record<string, unknown>): QuickChartStoredRequest {
  const chart = sourceOf(params);
  const side = QuickChartLimits.maxSide;
  const width = numberParam(pick(params, 'width', 'w'), 'width', QuickChartDefaults.width, 1, side, true);
  const height = numberParam(pick(params, 'height', 'h'), 'height', QuickChartDefaults.height, 1, side, true);
  const devicePixelRatio = numberParam(
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
  const format = formatOf(pick(params, 'format', 'f'));
  const version = chartJsOf(pick(params, 'version', 'v'));
  assertPixelBudget(width, height, format === 'pdf' ? 1 : devicePixelRatio);
  return {
    chart,
    width,
    height,
    devicePixelRatio,
    ...(background !== undefined ? { backgroundColor: background.trim() } : {}),
    format,
    version,
  };
}

/** Checked settings → a chart job. */
function quickChartJobOf(settings: QuickChartStoredRequest): QuickChartRequest {
  const requested = settings.format;
  const format = requested === 'jpg' || requested === 'jpeg' ? 'jpeg' : requested === 'base64' ? 'png' : requested;
  return {
    dataUrl: requested === 'base64',
    payload: {
      library: 'chartjs',
      chartData: null,
      chartOptions: {},
      format: format as ChartRenderPayload['format'],
      width: settings.width,
      height: settings.height,
      quality: 92,
      scale: settings.devicePixelRatio,
      theme: 'light',
      ...(settings.backgroundColor !== undefined ? { backgroundColor: settings.backgroundColor } : {}),
      quickchart: { chartJs: chartJsOf(settings.version), source: settings.chart },
    },
  };
}

/** QuickChart's parameters → a chart job (`GET/POST /chart`, and a short URL's stored request with its overrides). */
export function toQuickChartRequest(params: Record<string, unknown>): QuickChartRequest {
  return quickChartJobOf(quickChartSettingsOf(params));
}

/** What a short URL's query may change, long name first (the stored request has only long names). */
const OVERRIDES = [
  ['width', 'w'],
  ['height', 'h'],
  ['devicePixelRatio'],
  ['backgroundColor', 'bkg'],
  ['format', 'f'],
  ['version', 'v'],
] as const;

/** A stored request with the query's overrides (long or short names) in place of its own values. */
export function withOverrides(stored: QuickChartStoredRequest, query: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...stored };
  for (const names of OVERRIDES) {
    const value = pick(query, ...names);
    if (value !== undefined) merged[names[0]] = value;
  }
  return merged;
}
