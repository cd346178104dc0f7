import {
  AppError,
  assertSvgDocument,
  type ChartRenderPayload,
  HighchartsCodeFields,
  type HighchartsConstructor,
  HighchartsConstructors,
  HighchartsConstructorTypes,
  type HighchartsExportBody,
  HighchartsExportDefaults,
  type HighchartsExportType,
  HighchartsExportTypeNames,
  HighchartsProductTypes,
  HighchartsTypes,
  type HtmlRenderPayload,
  HighchartsExportMessages as Messages,
  RenderLimits,
  resolvePdfOptions,
  type SvgRenderPayload,
} from '@render/contracts';
import { assertPixelBudget } from '../images/image-reply.ts';
import { assertSafeJson } from './chart-input.ts';

const invalid = (message: string) => new AppError('VALIDATION_ERROR', message);

/** What one export request becomes: the job (a chart, or the caller's SVG) and how to answer it. */
export type HighchartsExportJob =
  | { kind: 'chart'; payload: ChartRenderPayload; answer: ExportAnswer }
  | { kind: 'svg'; payload: SvgRenderPayload; answer: ExportAnswer }
  | { kind: 'html'; payload: HtmlRenderPayload; answer: ExportAnswer };

export interface ExportAnswer {
  type: HighchartsExportType;
  b64: boolean;
  noDownload: boolean;
  filename: string;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON field: an object, or JSON text of one (form and multipart bodies only carry text). */
function jsonObject(value: unknown, field: string): Json | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw invalid(Messages.badJson(field));
    }
  }
  if (!isObject(parsed)) throw invalid(Messages.badJson(field));
  return parsed;
}

function numberOf(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  if (!Number.isFinite(n)) throw invalid(Messages.number(field));
  return n;
}

/** The export server treats any truthy value as true; form bodies send "true"/"false" (or "1"/"0"). */
function flagOf(value: unknown, field: string): boolean {
  if (value === undefined || value === null || value === '' || value === false) return false;
  if (value === true) return true;
  if (typeof value === 'string' && /^(true|1|false|0)$/i.test(value.trim())) return /^(true|1)$/i.test(value.trim());
  throw invalid(Messages.boolean(field));
}

function exportType(value: unknown): HighchartsExportType {
  if (value === undefined || value === null || value === '') return 'png';
  const type = typeof value === 'string' ? HighchartsExportTypeNames[value.trim().toLowerCase()] : undefined;
  if (!type) throw invalid(Messages.type);
  return type;
}

/** `StockChart` and `stockChart` alike, as the export server lower-cases the first letter. */
function constructorOf(value: unknown): HighchartsConstructor {
  if (value === undefined || value === null || value === '') return 'chart';
  const name = typeof value === 'string' ? value.trim().charAt(0).toLowerCase() + value.trim().slice(1) : '';
  if (!(HighchartsConstructors as readonly string[]).includes(name)) throw invalid(Messages.constr);
  return name as HighchartsConstructor;
}

function sizeOf(value: unknown, field: 'width' | 'height'): number | undefined {
  const n = numberOf(value, field);
  if (n === undefined) return undefined;
  const { minDimension: min, maxDimension: max } = RenderLimits;
  if (n < min || n > max) throw invalid(`${field} must be between ${min} and ${max}`);
  return Math.round(n);
}

function scaleOf(value: unknown): number {
  const n = numberOf(value, 'scale') ?? HighchartsExportDefaults.scale;
  const { minScale: min, maxScale: max } = RenderLimits;
  if (n < min || n > max) throw invalid(`scale must be between ${min} and ${max}`);
  return n;
}

const FILENAME = /^[\w.-]{1,100}$/;
function filenameOf(param: string | undefined, field: unknown): string {
  const name = param ?? (typeof field === 'string' && field !== '' ? field : 'chart');
  if (!FILENAME.test(name)) throw invalid(Messages.filename);
  return name;
}

/** Objects merge key by key, the later part winning; anything else is replaced (Highcharts' own merge). */
function merge(base: unknown, over: unknown): unknown {
  if (over === undefined) return base;
  if (!isObject(base) || !isObject(over)) return over;
  const out: Json = { ...base };
  for (const [key, value] of Object.entries(over)) out[key] = merge(base[key], value);
  return out;
}

const SERIES_TYPES: readonly string[] = [...HighchartsTypes, ...HighchartsProductTypes];
function assertSeriesTypes(options: Json): void {
  const types = `${HighchartsTypes.join(', ')}, ${HighchartsProductTypes.join(', ')}`;
  const chart = options.chart;
  if (chart !== undefined && !isObject(chart)) throw invalid('infile.chart must be an object');
  const type = chart?.type;
  if (type !== undefined && (typeof type !== 'string' || !SERIES_TYPES.includes(type)))
    throw invalid(`infile.chart.type must be one of: ${types}`);
  const series = options.series;
  if (series === undefined) return;
  if (!Array.isArray(series)) throw invalid('infile.series must be an array of series');
  series.forEach((s, i) => {
    if (!isObject(s)) throw invalid(`infile.series[${i}] must be a series object, e.g. { name, data }`);
    if (s.type !== undefined && (typeof s.type !== 'string' || !SERIES_TYPES.includes(s.type)))
      throw invalid(`infile.series[${i}].type must be one of: ${types}`);
  });
}

/** The export server's size: the request's, else the options' chart size (or exporting.sourceWidth), else 600 × 400. */
function chartSize(options: Json, body: HighchartsExportBody) {
  const chart = isObject(options.chart) ? options.chart : {};
  const exporting = isObject(options.exporting) ? options.exporting : {};
  const pick = (field: 'width' | 'height', source: 'sourceWidth' | 'sourceHeight') => {
    const fromOptions =
      typeof chart[field] === 'number' ? chart[field] : typeof exporting[source] === 'number' ? exporting[source] : undefined;
    return sizeOf(body[field], field) ?? sizeOf(fromOptions, field) ?? HighchartsExportDefaults[field];
  };
  return { width: pick('width', 'sourceWidth'), height: pick('height', 'sourceHeight') };
}

function chartJob(instr: Json, body: HighchartsExportBody, answer: ExportAnswer): HighchartsExportJob {
  const constr = constructorOf(body.constr);
  // globalOptions (lang, time…) and a theme sit under the chart's own options. They are merged into this
  // chart rather than set with Highcharts.setOptions, which would outlive the job on the warm page.
  const globalOptions = jsonObject(body.globalOptions, 'globalOptions');
  const themeOptions = jsonObject(body.themeOptions, 'themeOptions');
  if (globalOptions) assertSafeJson(globalOptions, 'options', 'globalOptions');
  if (themeOptions) assertSafeJson(themeOptions, 'options', 'themeOptions');
  assertSafeJson(instr, 'options', 'infile');
  const options = merge(merge(themeOptions ?? {}, globalOptions ?? {}), instr) as Json;
  assertSeriesTypes(options);
  const { width, height } = chartSize(options, body);
  const scale = scaleOf(body.scale);
  const vector = answer.type === 'svg' || answer.type === 'pdf';
  assertPixelBudget(width, height, vector ? 1 : scale);
  const chartType = (isObject(options.chart) && (options.chart.type as string | undefined)) || HighchartsConstructorTypes[constr];
  const payload: ChartRenderPayload = {
    library: 'highcharts',
    chartType,
    chartData: null,
    chartOptions: options,
    format: answer.type,
    width,
    height,
    quality: 90,
    scale: vector ? 1 : scale,
    theme: 'light',
    ...(constr !== 'chart' ? { constr } : {}),
  };
  return { kind: 'chart', payload, answer };
}

const svgSide = (svg: string, name: 'width' | 'height'): number | undefined => {
  const open = /<svg\b[^>]*>/i.exec(svg)?.[0] ?? '';
  const value = new RegExp(`\\s${name}\\s*=\\s*["']\\s*([\\d.]+)(?:px)?\\s*["']`, 'i').exec(open)?.[1];
  const n = value ? Math.round(Number(value)) : undefined;
  return n && n >= RenderLimits.minDimension && n <= RenderLimits.maxDimension ? n : undefined;
};

/** An SVG in, as the export server converts one: PNG/JPEG/SVG through the SVG renderer, PDF printed as a page. */
function svgJob(svg: string, body: HighchartsExportBody, answer: ExportAnswer): HighchartsExportJob {
  if (!svg.trim()) throw invalid(Messages.noChart);
  assertSvgDocument(svg);
  const scale = scaleOf(body.scale);
  const width = sizeOf(body.width, 'width') ?? svgSide(svg, 'width') ?? HighchartsExportDefaults.width;
  const height = sizeOf(body.height, 'height') ?? svgSide(svg, 'height') ?? HighchartsExportDefaults.height;
  if (answer.type === 'pdf') {
    const html = `<!doctype html><html><body style="margin:0">${svg}</body></html>`;
    const pdf = resolvePdfOptions({ pageSize: 'A4', landscape: false, printBackground: true, fitToContent: true });
    return { kind: 'html', payload: { html, format: 'pdf', width, height, quality: 90, scale: 1, pdf }, answer };
  }
  const factor = answer.type === 'svg' ? 1 : scale;
  const [w, h] = [Math.round(width * factor), Math.round(height * factor)];
  assertPixelBudget(w, h, 1);
  return { kind: 'svg', payload: { svg, format: answer.type, width: w, height: h, quality: 90, transparent: false }, answer };
}

/**
 * An export server request as our job. Refusals are 400s with the export server's meaning: no chart, bad
 * JSON, an unknown type or constructor, and the code fields unless the operator allows them.
 */
export function toHighchartsExportJob(
  body: HighchartsExportBody,
  filenameParam: string | undefined,
  allowCode: boolean,
): HighchartsExportJob {
  for (const field of HighchartsCodeFields) {
    const value = body[field];
    if (value !== undefined && value !== null && value !== '' && !allowCode) throw invalid(Messages.codeDisabled(field));
  }
  const answer: ExportAnswer = {
    type: exportType(body.type),
    b64: flagOf(body.b64, 'b64'),
    noDownload: flagOf(body.noDownload, 'noDownload'),
    filename: filenameOf(filenameParam, body.filename),
  };
  const source = body.infile ?? body.options ?? body.data;
  const instr = jsonObject(
    source === '' ? undefined : source,
    body.infile !== undefined ? 'infile' : body.options !== undefined ? 'options' : 'data',
  );
  if (instr) return chartJob(instr, body, answer);
  if (typeof body.svg === 'string' && body.svg.trim()) return svgJob(body.svg, body, answer);
  throw invalid(Messages.noChart);
}
