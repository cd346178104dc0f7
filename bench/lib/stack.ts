import http from 'node:http';
import path from 'node:path';
import { waitForPing } from '@render/test-stack/process-http';
import {
  freePort,
  onCleanup,
  runCleanup,
  type Service,
  type StartMode,
  startNodeService,
  startService,
} from '@render/test-stack/processes';
import { batchResults, runBatchWorkload } from './batch-run.ts';
import { FORMAT_WORKLOADS, type FormatWorkload, renderLinkPaths, startPageServer, type WorkloadContext } from './formats.ts';
import { type LoadResult, runForDuration, runPaired, runSequential, type Sample } from './load.ts';
import { deleteKeysWithPrefix } from './redis-cleanup.ts';
import { SCREENSHOT_CASES, type ScreenshotCase, SHOT_HEIGHT, SHOT_WIDTH } from './screenshot-pages.ts';
import { startTemplateServices, type TemplateServices } from './template-stack.ts';
import { assertPng, REQUEST_BODY } from './workload.ts';

const CONVERT_PATH = '/api/html-to-img/convert';
/** The worker of the pipeline phase: the real one with a fixed image for a renderer. */
const PIPELINE_WORKER = 'bench/lib/pipeline-worker.ts';

const isWorkerReady = (line: string) => line.includes('"render worker ready"');

export interface BenchRequest {
  path: string;
  body: Buffer;
  headers?: Record<string, string>;
  check(body: Buffer, contentType: string): void;
  /**
   * GET these paths in turn instead of POSTing `body` to `path` (render links: one link per request for cache
   * misses, the same one for hits), warm-up requests included.
   */
  getPaths?: string[];
  /** The X-Cache every answer must carry (a render link's hit or miss), so a row cannot measure the other. */
  cache?: 'HIT' | 'MISS';
}

export const htmlRequest: BenchRequest = { path: CONVERT_PATH, body: REQUEST_BODY, check: (body) => assertPng(body) };

/** Any image the format may produce; its exact size is that format's business. */
function assertImage(body: Buffer, contentType: string): void {
  // Screenshot videos answer video/mp4 and video/webm (a GIF is an image).
  if (!/^(image|video)\//.test(contentType) || body.length < 100) throw new Error(`not an image (${contentType}, ${body.length} bytes)`);
}

/** A page read (`format: markdown`, issue 30 "Pages for agents") answers the page's text, which names its header. */
function assertPageText(body: Buffer, contentType: string): void {
  if (!contentType.startsWith('text/markdown') || !body.toString('utf8').includes('Bench page'))
    throw new Error(`not the page's markdown (${contentType}, ${body.length} bytes)`);
}

/** One caller's c=1 run through the stack with no Chromium work: what the service costs beyond the browser. */
export interface PipelineResult {
  name: string;
  sequential: LoadResult;
}

export interface FormatResult {
  name: string;
  path: string;
  /** The per-library table's row (`FormatWorkload.library`). */
  library?: string;
  reference: boolean;
  target: boolean;
  result: LoadResult;
}

/** The HTML runs again with an API key: what users calling from their own code measure. */
export interface KeyedResult {
  name: string;
  sequential: LoadResult;
  /** The raw page's c=1 run alternated with `sequential` (see `runPaired`), when a raw page was given. */
  pairedRaw?: LoadResult;
  concurrent: LoadResult;
}

/** One page of the screenshot phase: the stack's capture alternated with a hand-written Puppeteer loop's. */
export interface ScreenshotResult {
  name: string;
  goal: number;
  stack: LoadResult;
  raw: LoadResult;
}

/** The raw side of the screenshot phase (raw.ts `openRawScreenshots`). */
export type RawScreenshot = (url: string, fullPage: boolean, height: number) => Promise<Sample>;

export interface StackResults {
  queuePrefix: string;
  sequential: LoadResult;
  /** The raw page's c=1 run alternated with `sequential`, when a raw page was given. */
  pairedRaw?: LoadResult;
  concurrent: LoadResult;
  keyed: KeyedResult[];
  /** The same c=1 requests with the worker's renderer answering a fixed PNG (see `runPipeline`), when asked for. */
  pipeline: PipelineResult[];
  concurrency: number;
  formats: FormatResult[];
  /** The screenshot phase, when asked for (with the Free account's API key). */
  screenshots: ScreenshotResult[];
  /** TCP connections the client opened over both runs: ~concurrency when keep-alive works. */
  connections: number;
  serviceWarnings: string[];
}

/** The render's time to 0.1 ms from `Server-Timing` (X-Render-Time's whole milliseconds hide a 10% difference in a ~10 ms chart). */
export function renderTime(res: Pick<http.IncomingMessage, 'headers'>): number | undefined {
  const match = /(?:^|,)\s*render;dur=([\d.]+)/.exec(String(res.headers['server-timing'] ?? ''));
  return match ? Number(match[1]) : undefined;
}

function header(res: http.IncomingMessage, name: string): number | undefined {
  const raw = res.headers[name];
  const value = Number(Array.isArray(raw) ? raw[0] : raw);
  return Number.isFinite(value) ? value : undefined;
}

/** A keep-alive client bound to 127.0.0.1: connection setup would otherwise be measured as render time. */
export function convertClient(port: number, maxSockets: number, request: BenchRequest = htmlRequest) {
  const agent = new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
  const seen = new WeakSet<object>();
  let connections = 0;
  let sent = 0;

  const convert = (): Promise<Sample> =>
    new Promise((resolve, reject) => {
      const get = request.getPaths?.[sent++ % request.getPaths.length];
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: get ? 'GET' : 'POST',
          path: get ?? request.path,
          agent,
          headers: get
            ? request.headers
            : { ...request.headers, 'content-type': 'application/json', 'content-length': request.body.length },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const body = Buffer.concat(chunks);
            if (res.statusCode !== 200) {
              reject(new Error(`HTTP ${res.statusCode}: ${body.toString('utf8', 0, 200)}`));
              return;
            }
            try {
              request.check(body, String(res.headers['content-type'] ?? ''));
              if (request.cache && res.headers['x-cache'] !== request.cache)
                throw new Error(`X-Cache ${res.headers['x-cache']} where ${request.cache} was expected`);
            } catch (err) {
              reject(err);
              return;
            }
            resolve({ renderMs: renderTime(res) ?? header(res, 'x-render-time'), queueMs: header(res, 'x-queue-time') });
          });
        },
      );
      req.on('socket', (socket) => {
        if (!seen.has(socket)) {
          seen.add(socket);
          connections += 1;
        }
      });
      req.setTimeout(60_000, () => req.destroy(new Error('no response within 60 s')));
      req.on('error', reject);
      req.end(get ? undefined : request.body);
    });

  return { convert, connections: () => connections, close: () => agent.destroy() };
}

export interface RunStackOptions {
  redisUrl: string;
  /** Postgres for the template workload (a throwaway database is created on it); skipped when null. */
  databaseUrl: string | null;
  chromiumPath: string;
  /** How the services are started (see StartMode). */
  start: StartMode;
  pages: number;
  requests: number;
  warmupRequests: number;
  concurrency: number;
  durationMs: number;
  warmupMs: number;
  /** Run the HTML load runs (c=1 and c=N) and/or the per-format runs. */
  load: boolean;
  /** The HTML load runs with API keys too (an unlimited and a Free account); needs DATABASE_URL. */
  keys: boolean;
  formats: boolean;
  formatRequests: number;
  /** See BenchOptions.formatNames. */
  formatNames: string[];
  /** The screenshot phase: its pages through the stack with an API key, each alternated with `rawScreenshot`. */
  rawScreenshot?: RawScreenshot;
  screenshotRequests: number;
  /** The c=1 runs again, anonymous and keyed, with the worker replaced by `pipeline-worker.ts`. */
  pipeline?: boolean;
  /** A raw warm page's render: the c=1 runs alternate with it in batches of `pairBatch` (`runPaired`). */
  rawRender?: () => Promise<Sample>;
  pairBatch?: number;
}

export async function runStack(repoRoot: string, opts: RunStackOptions): Promise<StackResults> {
  // Unique per run, so concurrent or crashed earlier runs never share queues with this one.
  const queuePrefix = `bench-${process.pid}-${Date.now().toString(36)}`;
  const port = await freePort();
  // Registered before the services, so on Ctrl-C it runs after they are stopped (cleanups run newest first).
  const dropKeys = onCleanup(redisKeysCleanup(opts.redisUrl, queuePrefix));
  const common = { ...process.env, REDIS_URL: opts.redisUrl, QUEUE_PREFIX: queuePrefix };

  const pageServer = await startPageServer();
  const workerEnv = workerEnvironment(common, pageServer.hostPort, opts);
  let worker = startNodeService(
    opts.start,
    { name: 'render-worker', pkg: '@render/render-worker', entry: 'services/render-worker/src/main.ts' },
    workerEnv,
    repoRoot,
  );
  // Listened for from the start: the template services may take longer to come up than the worker does,
  // and a line that has gone by is not seen again.
  const workerReady = worker.waitForLine(isWorkerReady, 120_000);
  const stoppedWarnings: string[] = [];
  workerReady.catch(() => undefined);
  let gateway: Service | undefined;
  let client: ReturnType<typeof convertClient> | undefined;
  let templateServices: TemplateServices | undefined;
  try {
    if ((opts.formats || opts.keys || opts.rawScreenshot) && opts.databaseUrl)
      templateServices = await startTemplateServices(repoRoot, opts.databaseUrl, common, opts.start);
    gateway = startGateway(repoRoot, port, { ...common, ...templateServices?.gatewayEnv }, opts);
    await Promise.all([workerReady, waitForPing(port, gateway, 60_000)]);

    client = convertClient(port, opts.concurrency);
    const empty: LoadResult = await runSequential(client.convert, { warmup: 0, count: 0 });
    const one = opts.load ? await sequentialRun(client.convert, opts) : { result: empty };
    const sequential = one.result;
    const concurrent = opts.load
      ? await runForDuration(client.convert, { concurrency: opts.concurrency, warmupMs: opts.warmupMs, durationMs: opts.durationMs })
      : empty;

    const callers = opts.keys && templateServices ? await keyedCallers(port, templateServices) : [];
    const keyed: KeyedResult[] = [];
    for (const [name, apiKey] of callers) keyed.push(await runKeyed(port, name, apiKey, opts));
    const formats = opts.formats ? await runFormats(port, pageServer.origin, templateServices, opts.formatRequests, opts.formatNames) : [];
    const screenshots =
      opts.rawScreenshot && templateServices
        ? await runScreenshots(port, pageServer.origin, templateServices, opts.rawScreenshot, opts)
        : [];

    // Last, as it replaces the worker: the same gateway (and keys) with a worker that renders nothing.
    let pipeline: PipelineResult[] = [];
    if (opts.pipeline) {
      await worker.stop();
      stoppedWarnings.push(...worker.warnings);
      worker = startPipelineWorker(repoRoot, workerEnv);
      await worker.waitForLine(isWorkerReady, 120_000);
      pipeline = await runPipeline(port, callers, opts);
    }
    return {
      queuePrefix,
      sequential,
      pairedRaw: one.baseline,
      concurrent,
      keyed,
      pipeline,
      concurrency: opts.concurrency,
      formats,
      screenshots,
      connections: client.connections(),
      serviceWarnings: [...stoppedWarnings, ...worker.warnings, ...gateway.warnings, ...(templateServices?.warnings() ?? [])],
    };
  } finally {
    client?.close();
    await gateway?.stop();
    await templateServices?.stop();
    await worker.stop();
    await pageServer.close();
    await runCleanup(dropKeys);
  }
}

/** Deletes this run's Redis keys (queues, limits, caches) once the services are gone. */
function redisKeysCleanup(redisUrl: string, queuePrefix: string) {
  return {
    name: 'redis keys',
    run: () =>
      deleteKeysWithPrefix(redisUrl, queuePrefix).then(
        () => undefined,
        (err) => console.error(`[bench] could not delete Redis keys ${queuePrefix}:*: ${(err as Error).message}`),
      ),
    runSync: () => undefined,
  };
}

function workerEnvironment(common: NodeJS.ProcessEnv, pageHostPort: string, opts: { pages: number; chromiumPath: string }) {
  return {
    ...common,
    RENDER_QUEUES: 'html,svg,chart,code,screenshot',
    RENDER_EGRESS_ALLOWLIST: pageHostPort,
    RENDER_PAGES: String(opts.pages),
    CHROMIUM_PATH: opts.chromiumPath,
    // info only for the readiness line; the worker logs nothing per successful job at that level.
    LOG_LEVEL: 'info',
    // Any free port for its health and metrics server, so the bench runs beside ./scripts/dev.
    WORKER_HTTP_PORT: '0',
  };
}

/** The worker of the pipeline phase, started as the production start does in either mode: only the gateway's start is compared. */
function startPipelineWorker(repoRoot: string, workerEnv: NodeJS.ProcessEnv): Service {
  return startService(
    'pipeline-worker',
    ['--import', 'tsx', path.join(repoRoot, PIPELINE_WORKER)],
    { ...workerEnv, NODE_ENV: 'production' },
    repoRoot,
  );
}

function startGateway(repoRoot: string, port: number, env: NodeJS.ProcessEnv, opts: { start: StartMode; concurrency: number }): Service {
  return startNodeService(
    opts.start,
    { name: 'gateway', pkg: '@render/gateway', entry: 'services/gateway/src/server.ts' },
    // The bench converts anonymously, far above the demo pages' per-IP limit.
    {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ANON_RATE_LIMIT_PER_MINUTE: '1000000',
      ANON_RATE_LIMIT_PER_DAY: '1000000',
      ANON_MAX_IN_FLIGHT: '1000000',
      ANON_MAX_PIXELS: '16000000',
      // The bench measures speed, not limits: its keyed runs drive a Free account at the full concurrency,
      // which the Free plan's in-flight limit (4 per account and replica by default) would turn into 429s.
      FREE_MAX_IN_FLIGHT: String(Math.max(16, opts.concurrency * 2)),
    },
    repoRoot,
  );
}

/** The keyed runs' callers, each with its API key: an unlimited account and a Free one. */
async function keyedCallers(port: number, templateServices: TemplateServices): Promise<Array<[string, string]>> {
  const gatewayUrl = `http://127.0.0.1:${port}`;
  return [
    ['API key, unlimited', await templateServices.unlimitedKey(gatewayUrl)],
    ['API key, Free', await templateServices.freeKey(gatewayUrl)],
  ];
}

/** Each format alone, one request at a time, on the same running stack: p50 comparable with HTML's. */
async function runFormats(
  port: number,
  pageOrigin: string,
  templateServices: TemplateServices | undefined,
  count: number,
  names: string[],
): Promise<FormatResult[]> {
  const formats: FormatResult[] = [];
  const selected = (workload: FormatWorkload) => !names.length || names.some((n) => workload.name.toLowerCase().includes(n));
  const context: WorkloadContext = { pageOrigin, template: await templateServices?.prepare(`http://127.0.0.1:${port}`) };
  for (const workload of FORMAT_WORKLOADS) {
    if ((workload.needsTemplates && !context.template) || !selected(workload)) continue;
    if (workload.batch) formats.push(...(await runBatchRows(port, workload, context)));
    else formats.push(await runFormat(port, workload, context, count));
  }
  return formats;
}

/** Through the path users take: a Free account's API key (its credit reserved and settled per call). */
async function runScreenshots(
  port: number,
  pageOrigin: string,
  templateServices: TemplateServices,
  raw: RawScreenshot,
  opts: { screenshotRequests: number; warmupRequests: number; pairBatch?: number },
): Promise<ScreenshotResult[]> {
  const screenshots: ScreenshotResult[] = [];
  const apiKey = await templateServices.freeKey(`http://127.0.0.1:${port}`);
  for (const shot of SCREENSHOT_CASES) screenshots.push(await runScreenshot(port, pageOrigin, apiKey, shot, raw, opts));
  return screenshots;
}

/** The c=1 runs, anonymous then with each keyed caller's API key, against whatever worker is running now. */
async function runPipeline(
  port: number,
  callers: Array<[string, string]>,
  opts: { requests: number; warmupRequests: number },
): Promise<PipelineResult[]> {
  const pipeline: PipelineResult[] = [];
  const pipelineCallers: Array<[string, Record<string, string> | undefined]> = [
    ['anonymous', undefined],
    ...callers.map(([name, apiKey]): [string, Record<string, string>] => [name, { 'x-api-key': apiKey }]),
  ];
  for (const [name, headers] of pipelineCallers) {
    const pipelineClient = convertClient(port, 1, { ...htmlRequest, headers });
    try {
      pipeline.push({
        name,
        sequential: await runSequential(pipelineClient.convert, { warmup: opts.warmupRequests, count: opts.requests }),
      });
    } finally {
      pipelineClient.close();
    }
  }
  return pipeline;
}

/** A c=1 run, alternated with the raw page's when there is one. */
async function sequentialRun(op: () => Promise<Sample>, opts: SequentialOptions): Promise<{ result: LoadResult; baseline?: LoadResult }> {
  const counts = { warmup: opts.warmupRequests, count: opts.requests };
  if (!opts.rawRender) return { result: await runSequential(op, counts) };
  return runPaired(op, opts.rawRender, { ...counts, batch: opts.pairBatch ?? DEFAULT_PAIR_BATCH });
}

interface SequentialOptions {
  requests: number;
  warmupRequests: number;
  rawRender?: () => Promise<Sample>;
  pairBatch?: number;
}

/** Requests per side before the paired runs switch: long enough to stay warm, short against machine drift. */
export const DEFAULT_PAIR_BATCH = 20;

async function runKeyed(
  port: number,
  name: string,
  apiKey: string,
  opts: SequentialOptions & { concurrency: number; durationMs: number; warmupMs: number },
): Promise<KeyedResult> {
  const client = convertClient(port, opts.concurrency, { ...htmlRequest, headers: { 'x-api-key': apiKey } });
  try {
    const one = await sequentialRun(client.convert, opts);
    const sequential = one.result;
    const concurrent = await runForDuration(client.convert, {
      concurrency: opts.concurrency,
      warmupMs: opts.warmupMs,
      durationMs: opts.durationMs,
    });
    return { name, sequential, pairedRaw: one.baseline, concurrent };
  } finally {
    client.close();
  }
}

/** A batch workload's two rows (bench/lib/batch-run.ts): the 202, then every item done. */
async function runBatchRows(port: number, workload: FormatWorkload, context: WorkloadContext): Promise<FormatResult[]> {
  const { accepted, done } = batchResults(await runBatchWorkload(`http://127.0.0.1:${port}`, workload, context));
  const row = (name: string, result: LoadResult): FormatResult => ({ name, path: workload.path, reference: false, target: false, result });
  return [row(`${workload.name}: 202`, accepted), row(`${workload.name}: every item done`, done)];
}

/**
 * Warm-up renders of a per-library row: its p50 is compared with Chart.js 4's, and V8 optimises a library's
 * hot paths over its first few dozen charts. With 5, the first library after Chart.js was still being
 * optimised for part of its run (Highcharts ÷ Chart.js 1.56–1.68, and 1.20–1.48 for the same chart through
 * POST /highcharts right after it); with 60, 1.27 and 1.11.
 */
const LIBRARY_WARMUP = 30;

async function runFormat(port: number, workload: FormatWorkload, context: WorkloadContext, count: number): Promise<FormatResult> {
  const counts = workload.video
    ? { warmup: 1, count: Math.min(count, workload.video.requests) }
    : { warmup: workload.library ? LIBRARY_WARMUP : 5, count };
  const getPaths = workload.link ? await renderLinkPaths(workload, context, counts.warmup + counts.count) : undefined;
  // A hit needs the link rendered once before: the warm-up itself must answer from the cache.
  if (workload.link?.cache === 'HIT' && getPaths?.[0])
    await fetch(`http://127.0.0.1:${port}${getPaths[0]}`).then((res) => res.arrayBuffer());
  const client = convertClient(port, 1, {
    path: workload.path,
    body: Buffer.from(JSON.stringify(workload.body(context))),
    headers: workload.headers?.(context),
    check: workload.text ? assertPageText : assertImage,
    getPaths,
    cache: workload.link?.cache,
  });
  try {
    const result = await runSequential(client.convert, counts);
    return {
      name: workload.name,
      path: workload.path,
      library: workload.library,
      reference: workload.reference === true,
      target: workload.target === true,
      result,
    };
  } finally {
    client.close();
  }
}

/** One screenshot case, the stack's c=1 capture and the raw loop's alternated in batches (`runPaired`). */
async function runScreenshot(
  port: number,
  origin: string,
  apiKey: string,
  shot: ScreenshotCase,
  raw: RawScreenshot,
  opts: { screenshotRequests: number; warmupRequests: number; pairBatch?: number },
): Promise<ScreenshotResult> {
  const url = `${origin}${shot.path}`;
  const { height } = shot;
  const client = convertClient(port, 1, {
    path: '/api/screenshot/convert',
    body: Buffer.from(JSON.stringify({ url, width: SHOT_WIDTH, height: SHOT_HEIGHT, format: 'png', fullPage: shot.fullPage })),
    headers: { 'x-api-key': apiKey },
    // Both sides check the PNG's size: a full page must come out five screens tall.
    check: (body) => assertPng(body, { width: SHOT_WIDTH, height }),
  });
  try {
    const { result, baseline } = await runPaired(client.convert, () => raw(url, shot.fullPage, height), {
      warmup: Math.min(opts.warmupRequests, 10),
      count: opts.screenshotRequests,
      batch: Math.min(opts.pairBatch ?? DEFAULT_PAIR_BATCH, 10),
    });
    return { name: shot.name, goal: shot.goal, stack: result, raw: baseline };
  } finally {
    client.close();
  }
}
