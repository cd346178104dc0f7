import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { RenderClient } from '../client.ts';
import { signRenderUrl } from '../signed-url.ts';
import type { ImageWithMeta } from '../types.ts';
import { errorOf, isDirectory, progressBar, renderKind, runBatch, type TaskResult, tasksFromFolder, tasksFromJsonl } from './batch.ts';
import { loadSettings } from './config.ts';
import { chartBody, defaultOutputName, extensionOf, guessLanguage, parseSets, parseVars, type RenderKind, UsageError } from './inputs.ts';
import { SCREENSHOT_INTERACTION_HELP, SCREENSHOT_INTERACTION_OPTIONS, screenshotInteractionFields } from './screenshot-flags.ts';
import { runServerBatch } from './server-batch.ts';

export const VERSION = '0.1.0';

const CONFIG_FILE = '~/.config/renderapi/config.json';

/** Where the key and the API's address come from, shown under every command's help. */
const CONNECTION = `Connection (first match wins):
  API key      --api-key <key>, else RENDER_API_KEY, else "apiKey" in the config file
  API address  --base-url <url>, else RENDER_API_URL, else "baseUrl" in the config file, else http://localhost:3000
  Config file  ${CONFIG_FILE} (or $XDG_CONFIG_HOME/renderapi/config.json, or the path in RENDER_CONFIG):
               { "apiKey": "rk_…", "baseUrl": "https://render.example.com" }
  Keep the key in the environment or the config file: one given with --api-key is visible to anyone who
  can list the machine's processes (ps), and stays in your shell history.
  --timeout <ms>  per attempt (default 60000); --retries <n> on 429/503 (default 2, batch 6)
  --json          machine-readable results on stdout
Exit codes: 0 done, 1 a render or API call failed, 2 a mistake in the command line.
`;

const RENDER_OPTIONS = `  -o, --out <path>             the output file ("-" for stdout); default: the input's name, the format's extension
  --set field=value            any other body field; JSON values are sent as JSON (--set 'window={"style":"mac"}')
  --link                       print a render link (an image URL for <img src>, signed with your key) instead of rendering
  --ttl <seconds>              with --link: how long the image is cached (1-86400, a day by default)
  --unsigned                   with --link: key only, no sig (refused if your account requires signed links)`;

const OVERVIEW = `renderapi: the render API from the command line

Usage: renderapi <command> [arguments] [options]

Commands:
  html <file.html|->           HTML to PNG, JPEG, WebP, AVIF or PDF
  svg <file.svg|->             SVG to an image, or a resized SVG
  chart <config.json|->        a Chart.js, D3 or Highcharts chart
  code <file|->                source code as a highlighted image
  screenshot <url>             a web page
  template <id>                a saved template filled with variables
  batch <folder|tasks.jsonl>   many renders at once, into a folder
  cancel-batch <id>            cancel a server batch: items not yet started dropped, their credits given back
  usage                        credits used and left
  mcp                          the MCP server over stdio (for Claude Desktop, IDEs…)

Run "renderapi <command> --help" for a command's arguments and options.
-h, --help; -v, --version

${CONNECTION}`;

/** Each command's own help (`renderapi <command> --help`, or `renderapi help <command>`). */
const COMMAND_HELP: Record<string, string> = {
  html: `Usage: renderapi html <file.html|-> [-o page.png] [options]

Renders an HTML document or fragment ("-" reads stdin). One credit per image.
  --width <px> --height <px>   the viewport (default 800×600)
  --format <f>                 png (default), jpeg, webp, avif or pdf (--set pageSize=A4 --set landscape=true)
  --quality <1-100>            JPEG, WebP and AVIF
  --scale <0.1-3>              device pixel ratio
${RENDER_OPTIONS}
Example: renderapi html report.html -o report.pdf --format pdf --set pageSize=A4
`,
  svg: `Usage: renderapi svg <file.svg|-> [-o image.png] [options]

Rasterises an SVG document ("-" reads stdin), or gives it back resized as SVG. One credit per image.
  --width <px> --height <px>   the image size
  --format <f>                 png (default), jpeg, webp, avif or svg
  --quality <1-100>, --scale <0.1-3>
  --transparent                keep a transparent background (PNG, WebP, AVIF)
${RENDER_OPTIONS}
Example: renderapi svg logo.svg -o logo.webp --format webp --transparent
`,
  chart: `Usage: renderapi chart <config.json|-> [-o chart.png] [options]

Renders a chart from a JSON file: the API's body ({ library, chartType, chartData, … }), a Chart.js config
({ type, data, options }) or Highcharts options. One credit per image.
  --library <l>                chartjs, d3 or highcharts (when the file does not say)
  --type <t>                   the chart type (bar, line, pie…)
  --width <px> --height <px>   default 800×400
  --format <f>                 png (default), jpeg, webp, avif, svg (D3, Highcharts) or pdf (Highcharts)
  --quality <1-100>, --scale <0.1-3>
${RENDER_OPTIONS}
Example: renderapi chart series.json --library d3 --type line -o series.svg --format svg
`,
  code: `Usage: renderapi code <file|-> [-o code.png] [options]

Renders source code as a highlighted image; the height fits the code. One credit per image.
  --language <l>               a Shiki language or alias (default: guessed from the file's extension)
  --theme <t>                  a Shiki theme (default monokai), e.g. github-dark
  --width <px>, --format png|jpeg|webp|avif, --quality <1-100>, --scale <0.1-3>
${RENDER_OPTIONS}
Example: renderapi code src/app.ts --theme github-dark --set 'window={"style":"mac"}' -o app.png
`,
  screenshot: `Usage: renderapi screenshot <url> [-o shot.png] [options]

Captures a public http(s) page. One credit per image.
  --device <d>                 desktop (default), mobile or tablet
  --full-page                  the whole page, not only the viewport
  --delay <ms>                 wait after the page loaded (0–10000)
${SCREENSHOT_INTERACTION_HELP}
  --width <px> --height <px>, --format png|jpeg|webp|avif|pdf|mp4|webm|gif, --quality <1-100>, --scale <0.1-3>
  mp4, webm, gif               a video of the viewport (at most 1280×720): --set scenario=scroll|idle
                               --set duration=<1-30 s> --set fps=<1-30>; one credit per started 5 s
  --format markdown|html|text  the page's main content as text instead of an image (e.g. -o page.md)
${RENDER_OPTIONS}
Example: renderapi screenshot https://example.com --full-page --device mobile -o example.png
Example: renderapi screenshot https://example.com --format mp4 --set duration=10 -o example.mp4
`,
  template: `Usage: renderapi template <id> [-o card.png] [options]

Fills one of your templates (or a public one) with variables and renders it. Needs an API key; one credit.
  --var name=value             one per variable (repeat); variables left out keep their default
  --format <f>                 png (default), jpeg, webp, avif or svg
  --quality <1-100>
${RENDER_OPTIONS}
Example: renderapi template 0b6f2c1e-… --var title=Hello --var n=2 -o card.png
`,
  batch: `Usage: renderapi batch <folder|tasks.jsonl> -o <outdir> [options]

Renders many images, at most --concurrency at once (default 4, 1–64); 429 answers are retried.
A JSON-lines file holds one task per line (blank lines and # comments skipped):
  { "kind": "html", "body": { "html": "<h1>Hi</h1>" }, "out": "hi.png" }
  (kind: html, svg, chart, code, screenshot, template; a template's body carries templateId)
A folder renders *.html, *.svg, *.json (charts) and source files (code) by extension, with the common
options (--width, --height, --format, --quality, --scale, --theme, --library, --set) applied to each.
  -o, --out <outdir>           where the images go (required)
  --concurrency <n>            renders in flight (default 4)
  --server                     send the tasks as server batches (POST /api/batch, 50 a call): checked and their
                               credits reserved up front, rendered by the server, read back from each batch's zip
                               (cancel one with renderapi cancel-batch <id>)
Exits 1 if any task failed; each failure names its line or file.
Example: renderapi batch ./cards -o out/ --width 1200 --height 630 --format webp
`,
  'cancel-batch': `Usage: renderapi cancel-batch <id> [--json]

Cancels a server batch (POST /api/batch, or batch --server) by its id. Items not yet started are dropped and
their credits given back at once; items already rendering finish and are charged. Needs an API key (the
batch's owner's). Prints the batch's status: cancelling until the running items end, then cancelled.
Example: renderapi cancel-batch 3f0c2a4e-…
`,
  usage: `Usage: renderapi usage [--key-id <id>] [--json]

Prints your plan and the credits used and left in the rolling 30 days. Needs an API key.
  --key-id <id>                only the renders made with this named key (its id, from the dashboard)
`,
  mcp: `Usage: renderapi mcp

Runs the render tools (render_html, render_svg, render_chart, render_code, render_screenshot, read_page, render_batch,
list_templates, generate_template_image) as an MCP server over stdio, for Claude Desktop, IDEs and other MCP clients, which
start it themselves. Needs an API key (each image billed like the API call). In the client's configuration:
  { "mcpServers": { "renderapi": { "command": "renderapi", "args": ["mcp"],
      "env": { "RENDER_API_KEY": "rk_…", "RENDER_API_URL": "https://render.example.com" } } } }
`,
};

/** The help for `command` (the overview without one), or undefined for an unknown command. */
export function helpText(command?: string): string | undefined {
  if (!command) return OVERVIEW;
  const text = COMMAND_HELP[command];
  return text === undefined
    ? undefined
    : `${text}
${CONNECTION}`;
}

const OPTIONS = {
  out: { type: 'string', short: 'o' },
  json: { type: 'boolean' },
  'api-key': { type: 'string' },
  'base-url': { type: 'string' },
  timeout: { type: 'string' },
  retries: { type: 'string' },
  width: { type: 'string' },
  height: { type: 'string' },
  format: { type: 'string' },
  quality: { type: 'string' },
  scale: { type: 'string' },
  transparent: { type: 'boolean' },
  library: { type: 'string' },
  type: { type: 'string' },
  language: { type: 'string' },
  theme: { type: 'string' },
  'full-page': { type: 'boolean' },
  device: { type: 'string' },
  delay: { type: 'string' },
  ...SCREENSHOT_INTERACTION_OPTIONS,
  var: { type: 'string', multiple: true },
  set: { type: 'string', multiple: true },
  concurrency: { type: 'string' },
  server: { type: 'boolean' },
  link: { type: 'boolean' },
  ttl: { type: 'string' },
  unsigned: { type: 'boolean' },
  'key-id': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

type Values = ReturnType<typeof parse>['values'];
const parse = (argv: string[]) => parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });

function number(values: Values, name: 'width' | 'height' | 'quality' | 'scale' | 'delay' | 'timeout' | 'retries' | 'concurrency' | 'ttl') {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || raw.trim() === '') throw new UsageError(`--${name} must be a number (got "${raw}")`);
  return value;
}

/** Body fields every render command shares, from the flags; the API checks their bounds and says what is wrong. */
function commonFields(values: Values): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const name of ['width', 'height', 'quality', 'scale'] as const) {
    const value = number(values, name);
    if (value !== undefined) fields[name] = value;
  }
  if (values.format) fields.format = values.format;
  return fields;
}

async function readInput(path: string): Promise<string> {
  if (path === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw new UsageError(
      `Cannot read ${path}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`,
    );
  }
}

/** The body of a single-render command, and the output name it would take without `-o`. */
async function singleTask(kind: RenderKind, target: string, values: Values): Promise<{ body: Record<string, unknown>; name: string }> {
  const fields = { ...commonFields(values), ...parseSets(values.set) };
  const format = String(fields.format ?? 'png');
  switch (kind) {
    case 'html':
      return { body: { html: await readInput(target), ...fields }, name: defaultOutputName(target === '-' ? 'page' : target, format) };
    case 'svg':
      return {
        body: { svg: await readInput(target), ...(values.transparent ? { transparent: true } : {}), ...fields },
        name: defaultOutputName(target === '-' ? 'image' : target, format),
      };
    case 'chart': {
      let config: unknown;
      const text = await readInput(target);
      try {
        config = JSON.parse(text);
      } catch (err) {
        throw new UsageError(`${target} is not valid JSON: ${(err as Error).message}`);
      }
      return {
        body: { ...chartBody(config, values.library, values.type), ...fields },
        name: defaultOutputName(target === '-' ? 'chart' : target, format),
      };
    }
    case 'code': {
      const language = values.language ?? (target === '-' ? undefined : guessLanguage(target));
      return {
        body: {
          code: await readInput(target),
          ...(language ? { language } : {}),
          ...(values.theme ? { theme: values.theme } : {}),
          ...fields,
        },
        name: defaultOutputName(target === '-' ? 'code' : target, format),
      };
    }
    case 'screenshot': {
      const delay = number(values, 'delay');
      const host = (() => {
        try {
          return new URL(target).hostname || 'screenshot';
        } catch {
          return 'screenshot';
        }
      })();
      return {
        body: {
          url: target,
          ...(values['full-page'] ? { fullPage: true } : {}),
          ...(values.device ? { deviceType: values.device } : {}),
          ...(delay === undefined ? {} : { delay }),
          ...screenshotInteractionFields(values),
          ...fields,
        },
        name: `${host}.${extensionOf(format)}`,
      };
    }
    case 'template': {
      const variables = parseVars(values.var);
      return {
        body: { templateId: target, ...(Object.keys(variables).length ? { variables } : {}), ...fields },
        name: `${target}.${extensionOf(format)}`,
      };
    }
  }
}

const describe = (meta: ImageWithMeta['meta']) =>
  `${meta.width}×${meta.height} ${meta.format}, ${formatBytes(meta.size)}${meta.renderTimeMs === undefined ? '' : `, rendered in ${meta.renderTimeMs} ms`}${meta.cache === 'HIT' ? ' (cache hit, no credit)' : ''}`;

const formatBytes = (size: number) =>
  size < 1024 ? `${size} B` : size < 1024 * 1024 ? `${(size / 1024).toFixed(1)} KB` : `${(size / 1024 / 1024).toFixed(2)} MB`;

interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WriteStream;
}

function printError(io: Io, json: boolean, err: unknown) {
  const error = errorOf(err);
  if (json) io.stdout.write(`${JSON.stringify({ ok: false, error })}\n`);
  const where = error.status
    ? ` (${error.code}, HTTP ${error.status})`
    : error.code === 'TIMEOUT' || error.code === 'NETWORK_ERROR'
      ? ` (${error.code})`
      : '';
  io.stderr.write(`renderapi: ${error.message}${where}\n`);
}

/** Runs the CLI; resolves to the exit code (the bin sets it). */
export async function main(argv: string[], io: Io = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  let values: Values;
  let positionals: string[];
  try {
    ({ values, positionals } = parse(argv));
  } catch (err) {
    io.stderr.write(`renderapi: ${(err as Error).message}\nRun "renderapi --help" for the commands.\n`);
    return 2;
  }
  const json = Boolean(values.json);
  const [command, target, ...extra] = positionals;
  if (values.version) {
    io.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (!command) {
    (values.help ? io.stdout : io.stderr).write(OVERVIEW);
    return values.help ? 0 : 2;
  }
  // `renderapi <command> --help`, or `renderapi help [command]`.
  if (values.help || command === 'help') {
    const topic = command === 'help' ? target : command;
    const text = helpText(topic);
    if (text === undefined) {
      io.stderr.write(`renderapi: unknown command "${topic}". Run "renderapi --help" for the commands.\n`);
      return 2;
    }
    io.stdout.write(text);
    return 0;
  }

  try {
    if (extra.length) throw new UsageError(`Unexpected argument "${extra[0]}"`);
    const settings = await loadSettings({ apiKey: values['api-key'], baseUrl: values['base-url'] });
    const timeoutMs = number(values, 'timeout');
    const retries = number(values, 'retries');

    if (command === 'mcp') {
      if (!settings.apiKey) throw new UsageError(`renderapi mcp needs an API key: set RENDER_API_KEY or apiKey in ${settings.configPath}`);
      const { runStdioMcpServer } = await import('../mcp/stdio.ts');
      await runStdioMcpServer({
        apiKey: settings.apiKey,
        baseUrl: settings.baseUrl,
        version: VERSION,
        ...(timeoutMs ? { timeoutMs } : {}),
      });
      // Serves until the client closes stdin.
      await new Promise<void>((done) => process.stdin.once('close', done));
      return 0;
    }

    const client = new RenderClient({
      baseUrl: settings.baseUrl,
      ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      // A batch wider than the plan's renders in flight meets 429s by design: give it more patience.
      ...(retries === undefined ? (command === 'batch' ? { retries: 6 } : {}) : { retries }),
    });

    if (command === 'usage') {
      if (!settings.apiKey)
        throw new UsageError(`renderapi usage needs an API key: set RENDER_API_KEY or apiKey in ${settings.configPath}`);
      const keyId = values['key-id'];
      const usage = await client.usage(keyId === undefined ? {} : { keyId });
      if (json) io.stdout.write(`${JSON.stringify({ ok: true, usage })}\n`);
      else
        io.stdout.write(
          `${usage.plan} plan: ${usage.used} used${usage.limit === null ? ' (no limit)' : ` of ${usage.limit}, ${usage.remaining} left`} in the last ${usage.window.days} days\n`,
        );
      return 0;
    }

    if (command === 'batch') return await batch(client, target, values, io, Boolean(settings.apiKey));
    if (command === 'cancel-batch') {
      if (!target) throw new UsageError('renderapi cancel-batch needs a batch id');
      if (!settings.apiKey)
        throw new UsageError(`renderapi cancel-batch needs an API key: set RENDER_API_KEY or apiKey in ${settings.configPath}`);
      const batch = await client.cancelBatch(target);
      if (json) io.stdout.write(`${JSON.stringify({ ok: true, batch })}\n`);
      else
        io.stdout.write(
          `${batch.id}: ${batch.status}; ${batch.cancelled} cancelled, ${batch.done} done, ${batch.failed} failed of ${batch.total}\n`,
        );
      return 0;
    }

    const kinds: RenderKind[] = ['html', 'svg', 'chart', 'code', 'screenshot', 'template'];
    if (!kinds.includes(command as RenderKind))
      throw new UsageError(`Unknown command "${command}". Run "renderapi --help" for the commands.`);
    const kind = command as RenderKind;
    if (!target)
      throw new UsageError(
        `renderapi ${kind} needs ${kind === 'screenshot' ? 'a URL' : kind === 'template' ? 'a template id' : 'a file ("-" for stdin)'}`,
      );
    if (kind === 'template' && !settings.apiKey) {
      throw new UsageError(`Rendering a template needs an API key: set RENDER_API_KEY or apiKey in ${settings.configPath}`);
    }
    const { body, name } = await singleTask(kind, target, values);
    if (values.link) return await printLink(io, json, settings, kind, body, values);
    const { image, meta } = await renderKind(client, kind, body);
    const out = values.out ?? name;
    if (out === '-') {
      if (io.stdout.isTTY) throw new UsageError('Refusing to write image bytes to a terminal: give -o <file> or pipe the output');
      io.stdout.write(image);
      io.stderr.write(`renderapi: ${describe(meta)}\n`);
      return 0;
    }
    const file = resolve(out);
    await writeFile(file, image);
    if (json) io.stdout.write(`${JSON.stringify({ ok: true, file, ...meta })}\n`);
    else io.stdout.write(`${out}: ${describe(meta)}\n`);
    return 0;
  } catch (err) {
    printError(io, json, err);
    if (err instanceof UsageError) return 2;
    return 1;
  }
}

/** `--link`: the render link for the command's body, signed with the key (nothing is rendered or charged). */
async function printLink(
  io: Io,
  json: boolean,
  settings: { apiKey?: string; baseUrl: string; configPath: string },
  kind: RenderKind,
  body: Record<string, unknown>,
  values: Values,
): Promise<number> {
  if (kind === 'template')
    throw new UsageError('--link is for html, svg, chart, code and screenshot (templates have signed URLs of their own)');
  if (!settings.apiKey) throw new UsageError(`--link needs an API key: set RENDER_API_KEY or apiKey in ${settings.configPath}`);
  const ttl = number(values, 'ttl');
  const url = await signRenderUrl({
    baseUrl: settings.baseUrl,
    apiKey: settings.apiKey,
    kind,
    body,
    ...(ttl === undefined ? {} : { ttl }),
    ...(values.unsigned ? { sign: false } : {}),
  });
  io.stdout.write(json ? `${JSON.stringify({ ok: true, url })}\n` : `${url}\n`);
  return 0;
}

async function batch(client: RenderClient, target: string | undefined, values: Values, io: Io, signedIn: boolean): Promise<number> {
  if (!target) throw new UsageError('renderapi batch needs a folder or a .jsonl file');
  if (!values.out) throw new UsageError('renderapi batch needs -o <outdir>');
  const concurrency = number(values, 'concurrency') ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64)
    throw new UsageError('--concurrency must be a whole number from 1 to 64');

  let tasks: Awaited<ReturnType<typeof tasksFromJsonl>>['tasks'];
  let results: TaskResult[] = [];
  let skipped: string[] = [];
  if (await isDirectory(target)) {
    const fields = { ...commonFields(values), ...parseSets(values.set) };
    delete fields.format;
    if (values.theme) fields.theme = values.theme;
    ({ tasks, skipped } = await tasksFromFolder(target, {
      fields,
      ...(values.format ? { format: values.format } : {}),
      ...(values.library ? { library: values.library } : {}),
    }));
  } else {
    let invalid: TaskResult[];
    try {
      ({ tasks, invalid } = await tasksFromJsonl(target));
    } catch (err) {
      throw new UsageError(`Cannot read ${target}: ${(err as Error).message}`);
    }
    results = invalid;
  }
  if (tasks.length === 0 && results.length === 0) throw new UsageError(`Nothing to render in ${target}`);

  const bar = progressBar(tasks.length + results.length, io.stderr);
  const invalidCount = results.length;
  bar.update(0, invalidCount);
  const onProgress = (done: number, failed: number) => bar.update(done, failed + invalidCount);
  const rendered = values.server
    ? await runServerBatch(client, tasks, { outDir: values.out, onProgress })
    : await runBatch(client, tasks, { outDir: values.out, concurrency, onProgress });
  bar.end();
  results = [...rendered, ...results];

  const done = results.filter((r) => r.ok).length;
  const failed = results.length - done;
  const cacheHits = results.filter((r) => r.ok && r.cache === 'HIT').length;
  // Each delivered image costs one credit unless it came from the cache; anonymous renders cost none.
  const credits = signedIn ? done - cacheHits : 0;
  let remaining: number | null | undefined;
  if (signedIn)
    remaining = await client.usage().then(
      (usage) => usage.remaining,
      () => undefined,
    );
  const summary = { total: results.length, done, failed, credits, cacheHits, ...(remaining === undefined ? {} : { remaining }), skipped };

  if (values.json) io.stdout.write(`${JSON.stringify({ ok: failed === 0, summary, results })}\n`);
  else {
    for (const r of results) {
      if (!r.ok)
        io.stderr.write(`✗ ${r.source}: ${r.error?.message}${r.error?.status ? ` (${r.error.code}, HTTP ${r.error.status})` : ''}\n`);
    }
    const left = remaining === undefined ? '' : remaining === null ? ', no credit limit' : `, ${remaining} left`;
    io.stdout.write(
      `done ${done}, failed ${failed}, credits used ${credits}${cacheHits ? ` (${cacheHits} cache hits free)` : ''}${left}` +
        `${skipped.length ? `; skipped ${skipped.length} file(s) of no known kind` : ''}\n`,
    );
  }
  return failed === 0 ? 0 : 1;
}
