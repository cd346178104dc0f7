import { basename, extname } from 'node:path';

/** What a file becomes in the API, by kind: the body for its call, built from the file's text. */
export type RenderKind = 'html' | 'svg' | 'chart' | 'code' | 'screenshot' | 'template';
export const RENDER_KINDS: readonly RenderKind[] = ['html', 'svg', 'chart', 'code', 'screenshot', 'template'];

/** Extensions whose shiki language id or alias is not the extension itself; others are sent as they are. */
const LANGUAGE_BY_EXTENSION: Record<string, string> = {
  mjs: 'javascript',
  cjs: 'javascript',
  mts: 'typescript',
  cts: 'typescript',
  h: 'c',
  hpp: 'cpp',
  hh: 'cpp',
  cc: 'cpp',
  cxx: 'cpp',
  kt: 'kotlin',
  kts: 'kotlin',
  htm: 'html',
  txt: 'text',
  ps1: 'powershell',
  rs: 'rust',
  rb: 'ruby',
  py: 'python',
  sh: 'bash',
  zsh: 'bash',
  yml: 'yaml',
  md: 'markdown',
  tf: 'hcl',
  ex: 'elixir',
  exs: 'elixir',
  cs: 'csharp',
  fs: 'fsharp',
  pl: 'perl',
  hs: 'haskell',
  jl: 'julia',
  m: 'objective-c',
};

/** The code renderer's language for a file name, or undefined when it has no extension. */
export function guessLanguage(file: string): string | undefined {
  const name = basename(file).toLowerCase();
  if (name === 'dockerfile') return 'docker';
  if (name === 'makefile') return 'make';
  const ext = extname(name).slice(1);
  if (!ext) return undefined;
  return LANGUAGE_BY_EXTENSION[ext] ?? ext;
}

/** Extensions a batch folder renders, and as what; everything else is skipped (and listed as skipped). */
export function kindOfFile(file: string): RenderKind | undefined {
  const ext = extname(file).slice(1).toLowerCase();
  if (ext === 'html' || ext === 'htm') return 'html';
  if (ext === 'svg') return 'svg';
  if (ext === 'json') return 'chart';
  if (ext === 'jsonl' || ext === '' || ext === 'png' || ext === 'jpg' || ext === 'jpeg' || ext === 'webp' || ext === 'pdf')
    return undefined;
  return guessLanguage(file) ? 'code' : undefined;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A chart file as the chart call's body. Three shapes are read: the API body itself (`library`, `chartType`,
 * `chartData`, `chartOptions`); a Chart.js config (`{ type, data, options }`); anything else is Highcharts
 * options (`{ chart, series, … }`), or D3 data with `--library d3`.
 */
export function chartBody(config: unknown, library?: string, chartType?: string): Json {
  if (!isObject(config))
    throw new Error('A chart file must hold a JSON object (the chart call’s body, a Chart.js config or Highcharts options)');
  let body: Json;
  if ('library' in config || 'chartData' in config || 'chartOptions' in config || 'chartType' in config) body = { ...config };
  else if ('type' in config && 'data' in config) {
    body = {
      library: 'chartjs',
      chartType: config.type,
      chartData: config.data,
      ...(config.options ? { chartOptions: config.options } : {}),
    };
  } else if (library === 'd3') body = { library: 'd3', chartData: config };
  else body = { library: 'highcharts', chartOptions: config };
  if (library) body.library = library;
  if (chartType) body.chartType = chartType;
  return body;
}

/** The output file's extension for a format (`jpeg` → jpg). */
export const extensionOf = (format: string) => ({ jpeg: 'jpg', markdown: 'md', text: 'txt' })[format] ?? format;

/** `name.png` next to nothing: the input's base name with the format's extension. */
export function defaultOutputName(input: string, format: string): string {
  const base = basename(input, extname(input)) || 'image';
  return `${base}.${extensionOf(format)}`;
}

/** `--var title=Hello --var n=2` → `{ title: 'Hello', n: '2' }` (values stay text: the template decides). */
export function parseVars(pairs: string[] = []): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--var needs name=value (got "${pair}")`);
    variables[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return variables;
}

/** `--set key=value`: any other body field; the value is JSON when it parses as JSON (true, 12, {"a":1}), else text. */
export function parseSets(pairs: string[] = []): Json {
  const fields: Json = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--set needs field=value (got "${pair}")`);
    const raw = pair.slice(eq + 1);
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      // plain text
    }
    fields[pair.slice(0, eq)] = value;
  }
  return fields;
}

/** A mistake in the command line: printed with the usage hint, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
