import { CompatHeads } from '@render/contracts/route-heads';
import type { SnippetRequest } from '../../lib/request-snippets.ts';
import { parsedTyped } from './typed-json.ts';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const EXPORT_TYPES = new Set(['png', 'jpeg', 'pdf', 'svg']);

/**
 * A Highcharts chart of the playground as the Highcharts export server's request (POST /highcharts), for
 * people moving from it: `infile` is the chart's options with its data and type, as an export server takes
 * them. Undefined for other libraries, or while the typed JSON does not parse.
 */
export function highchartsExportRequest(body: Json, baseUrl: string, apiKey: string): SnippetRequest | undefined {
  if (body.library !== 'highcharts') return undefined;
  const options = parsedTyped(body.chartOptions ?? {});
  const data = parsedTyped(body.chartData ?? {});
  if (!isObject(options) || (data !== undefined && !isObject(data) && !Array.isArray(data))) return undefined;
  const chart = isObject(options.chart) ? options.chart : {};
  const infile: Json = {
    ...options,
    ...(Array.isArray(data) ? { series: data } : (data ?? {})),
    ...(typeof body.chartType === 'string' ? { chart: { ...chart, type: body.chartType } } : {}),
  };
  const format = String(body.format ?? 'png');
  const type = EXPORT_TYPES.has(format) ? format : 'png';
  return {
    baseUrl,
    method: 'POST',
    path: CompatHeads.highchartsExport.url,
    body: {
      infile,
      type,
      ...(body.width !== undefined ? { width: body.width } : {}),
      ...(body.height !== undefined ? { height: body.height } : {}),
    },
    auth: { kind: 'apiKey', value: apiKey },
    outputFile: `chart.${type === 'jpeg' ? 'jpg' : type}`,
  };
}
