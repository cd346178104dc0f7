import { splitList } from '@render/config';
import { VideoLimits } from '@render/contracts';
import { parseAllowlist } from '@render/egress-policy';
import type { Logger } from '@render/logger';
import {
  createRedis,
  encodeReply,
  INLINE_IMAGE_MAX,
  isRenderKind,
  type RenderJobData,
  type RenderKind,
  type RenderReply,
  type RenderResultMeta,
  renderJobs,
  resultKey,
} from '@render/queue';
import { type Job, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { BrowserManager } from './browser/browser-manager.ts';
import { chromiumLaunchOptions } from './browser/chromium-args.ts';
import { createRenderCluster, type RenderCluster } from './browser/render-cluster.ts';
import type { WorkerConfig } from './config.ts';
import { type EgressProxy, startEgressProxy } from './egress/egress-proxy.ts';
import type { ReadinessChecks } from './http-server.ts';
import { createWorkerMetrics, type WorkerMetrics } from './metrics.ts';
import { rendererPools, renderers, type WorkerRendererContext } from './renderers/index.ts';
import { configureFontCoverage, preloadFontCoverage } from './renderers/page/font-coverage.ts';
import { failureReason, RenderError } from './renderers/page/render-error.ts';
import type { PoolName, RenderedImage, Renderer } from './renderers/page/renderer.ts';
import { poolDefinitions } from './renderers/pools.ts';
import { loadScreenshotFilters, type ScreenshotFilters } from './renderers/screenshot/block-lists.ts';
import { startWebhookWorker } from './webhooks/webhook.worker.ts';

export interface RenderWorkerHandle {
  queues: RenderKind[];
  /** This process's metrics (served by `startWorkerHttpServer`). */
  metrics: WorkerMetrics;
  /** Redis connections, Chromium, the warm pools; `draining` once close() has begun. */
  readiness: ReadinessChecks;
  /** Stops taking jobs, lets in-flight ones finish (up to the deadline), then closes the browser. */
  close(): Promise<void>;
}

export function parseQueues(raw: string): RenderKind[] {
  const names = splitList(raw);
  const unknown = names.filter((n) => !isRenderKind(n));
  if (unknown.length > 0)
    throw new Error(`RENDER_QUEUES names unknown queues: ${unknown.join(', ')} (known: ${Object.keys(renderJobs).join(', ')})`);
  if (names.length === 0) throw new Error('RENDER_QUEUES is empty');
  return names as RenderKind[];
}

/** The job and, when the gateway sent it, the X-Request-Id of the API call it renders for. */
function jobFields(job: Job<RenderJobData>): { jobId: string | undefined; requestId?: string } {
  const requestId = job.data?.requestId;
  return typeof requestId === 'string' ? { jobId: job.id, requestId } : { jobId: job.id };
}

/** The screenshot lists, read once before anything starts: a configured list that cannot be read stops the worker, naming it. */
function loadFilters(queues: RenderKind[], config: WorkerConfig, logger: Logger): ScreenshotFilters | undefined {
  const filters = queues.includes('screenshot') ? loadScreenshotFilters(config.BLOCKLISTS) : undefined;
  if (filters) {
    const { network, cosmetic } = filters;
    logger.info(
      {
        blockLists: network.stats.sources,
        rules: network.stats.used,
        cookieLists: cosmetic.stats.sources,
        cookieRules: cosmetic.stats.generic + cosmetic.stats.specific,
      },
      'screenshot lists loaded',
    );
  }
  return filters;
}

/** The worker's page pools: each created on first use, so a worker serving only "html" never opens chart pages. */
function pagePools(config: WorkerConfig, manager: BrowserManager, logger: Logger, metrics: WorkerMetrics) {
  const pools = new Map<PoolName, Promise<RenderCluster>>();
  const warmPools = new Set<PoolName>();
  const pool = (name: PoolName): Promise<RenderCluster> => {
    let cluster = pools.get(name);
    if (!cluster) {
      cluster = createRenderCluster({
        ...poolDefinitions[name],
        pages: config.RENDER_PAGES,
        manager,
        recycleAfter: config.PAGE_RECYCLE_AFTER,
        // A screenshot video holds its page for up to its duration and encoding on top (VideoLimits).
        taskTimeoutMs:
          config.RENDER_TIMEOUT_MS + 5_000 + (name === 'screenshot' ? VideoLimits.maxDuration * 1000 + VideoLimits.holdMarginMs : 0),
        logger,
        onPageRecycled: (reason) => metrics.pagesRecycled.inc({ reason }),
      });
      const started = cluster;
      started.then(
        () => {
          if (pools.get(name) === started) warmPools.add(name);
        },
        () => pools.delete(name), // a failed start is retried by the next job
      );
      pools.set(name, cluster);
    }
    return cluster;
  };
  return { pools, warmPools, pool };
}

interface JobDeps {
  config: WorkerConfig;
  logger: Logger;
  metrics: WorkerMetrics;
  rendererContext: WorkerRendererContext;
}

/** Renders one job and replies to the gateway's channel; throws (for BullMQ) when the render failed. */
async function processJob(deps: JobDeps, kind: RenderKind, job: Job<RenderJobData>, connection: Redis): Promise<RenderResultMeta> {
  const { config, logger, metrics, rendererContext } = deps;
  const startedAt = Date.now();
  const began = performance.now();
  const def = renderJobs[kind];
  const replyTo = typeof job.data?.replyTo === 'string' ? job.data.replyTo : undefined;
  // What every log line about the job says: the job and the API call it renders for (X-Request-Id).
  const about = jobFields(job);
  // Replies are not awaited on purpose: they leave on the connection BullMQ then completes the job on,
  // so auto-pipelining sends both in one write, in order.
  const reply = (message: RenderReply) => {
    if (replyTo)
      connection.publish(replyTo, encodeReply(message)).catch((err: Error) => logger.warn({ ...about, err: err.message }, 'reply failed'));
  };

  if (!def.isValid(job.data?.payload)) {
    metrics.renderFailures.inc({ format: kind, cause: 'invalid' });
    const message = `Invalid render job: ${def.describeInvalid(job.data?.payload)}`;
    reply({ jobId: job.id!, ok: false, code: 'VALIDATION_ERROR', message });
    throw new UnrecoverableError(message);
  }
  let image: RenderedImage;
  try {
    const caller = typeof job.data.caller === 'string' && job.data.caller ? job.data.caller : undefined;
    image = await (renderers[kind] as Renderer<unknown, WorkerRendererContext>)(
      job.data.payload,
      caller ? { ...rendererContext, caller } : rendererContext,
    );
    // The gateway would read a reply without image bytes as an expired result (a 422).
    if (image.bytes.length === 0) throw new RenderError('Failed to generate image: the renderer returned no image', true);
  } catch (err) {
    const retryable = err instanceof RenderError ? err.retryable : true;
    const message = err instanceof RenderError ? err.message : 'Failed to generate image';
    const final = !retryable || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    metrics.renderFailures.inc({ format: kind, cause: retryable ? 'infrastructure' : 'content' });
    // `reason` is the underlying error (a RenderError's own message is the one the caller sees).
    logger.warn(
      { ...about, kind, attempt: job.attemptsMade + 1, retryable, final, err: (err as Error).message, reason: failureReason(err) },
      'render failed',
    );
    if (final) reply({ jobId: job.id!, ok: false, code: 'RENDER_FAILED', message });
    throw retryable ? new Error(message) : new UnrecoverableError(message);
  }

  const meta: RenderResultMeta = {
    format: image.format,
    mimeType: image.mimeType,
    width: image.width,
    height: image.height,
    ...(image.warnings?.length ? { warnings: image.warnings } : {}),
    ...(image.metadata ? { metadata: image.metadata } : {}),
    size: image.bytes.length,
    renderMs: Date.now() - startedAt,
    queueMs: Math.max(0, startedAt - job.timestamp),
    renderTime: Math.round((performance.now() - began) * 10) / 10,
  };
  metrics.renderDuration.observe({ format: image.format, kind }, meta.renderMs / 1000);
  if (image.bytes.length <= INLINE_IMAGE_MAX) {
    reply({ jobId: job.id!, ok: true, meta, image: image.bytes });
  } else {
    meta.resultKey = resultKey(config.QUEUE_PREFIX, job.id!);
    connection
      .set(meta.resultKey, image.bytes, 'PX', config.RESULT_TTL_MS)
      .catch((err: Error) => logger.warn({ ...about, err: err.message }, 'storing result failed'));
    reply({ jobId: job.id!, ok: true, meta });
  }
  return meta;
}

/** One BullMQ Worker per queue served, each on its own blocking connection (pushed to `connections`). */
function queueWorkers(deps: JobDeps, queues: RenderKind[], connections: Redis[]): Worker[] {
  const { config, logger } = deps;
  return queues.map((kind) => {
    const connection = createRedis(config.REDIS_URL, 'blocking', `render-worker-${kind}`, { autoPipelining: true });
    connections.push(connection);
    const worker = new Worker(renderJobs[kind].queueName, (job: Job<RenderJobData>) => processJob(deps, kind, job, connection), {
      connection,
      prefix: config.QUEUE_PREFIX,
      concurrency: config.RENDER_PAGES + config.RENDER_PREFETCH,
      lockDuration: config.LOCK_DURATION_MS,
      stalledInterval: config.STALLED_INTERVAL_MS,
      maxStalledCount: 1,
    });
    worker.on('error', (err) => logger.warn({ err: err.message, queue: kind }, 'worker error'));
    worker.on('failed', (job, err) => {
      if (job && job.attemptsMade >= (job.opts.attempts ?? 1))
        logger.info({ ...jobFields(job), queue: kind, reason: err.message }, 'job failed');
    });
    return worker;
  });
}

/**
 * Webhook deliveries ride along in every render worker that can fetch the secrets: they need the egress
 * policy (this process's) and little else. Its connection is pushed to `connections`.
 */
async function webhookWorkers(deps: Omit<JobDeps, 'rendererContext'>, connections: Redis[]): Promise<Worker[]> {
  const { config, logger, metrics } = deps;
  if (!config.AUTH_SERVICE_URL || !config.INTERNAL_TOKEN) {
    logger.info('AUTH_SERVICE_URL or INTERNAL_TOKEN not set: this worker delivers no webhooks');
    return [];
  }
  const { worker, connection, listed } = startWebhookWorker({
    redisUrl: config.REDIS_URL,
    prefix: config.QUEUE_PREFIX,
    allowlist: parseAllowlist(config.RENDER_EGRESS_ALLOWLIST),
    authServiceUrl: config.AUTH_SERVICE_URL,
    internalToken: config.INTERNAL_TOKEN,
    concurrency: config.WEBHOOK_CONCURRENCY,
    logger,
    onAttempt: (result) => metrics.webhookDeliveries.inc({ result }),
  });
  connections.push(connection);
  // Listed before the worker says it is ready, so a gateway accepts webhooks from then on.
  await listed;
  return [worker];
}

/** What a running worker holds, for its readiness probe and its shutdown. */
interface RunningWorker {
  config: WorkerConfig;
  logger: Logger;
  manager: BrowserManager;
  proxy: EgressProxy;
  pools: Map<PoolName, Promise<RenderCluster>>;
  warmPools: Set<PoolName>;
  neededPools: PoolName[];
  workers: Worker[];
  connections: Redis[];
}

/** Readiness, and a close() that drains the queues (up to the deadline) before closing pools, browser, connections, proxy. */
function lifecycle(running: RunningWorker): Pick<RenderWorkerHandle, 'readiness' | 'close'> {
  const { config, logger, manager, pools, warmPools, neededPools, workers, connections, proxy } = running;
  let closing: Promise<void> | undefined;
  // A crashed browser is otherwise relaunched by the next job; a probe that finds it down starts it too.
  const relaunching = () => {
    if (!closing) manager.get().catch(() => undefined);
    return 'chromium is not running';
  };
  const readiness: ReadinessChecks = async () => {
    const notReady = connections.filter((c) => c.status !== 'ready').map((c) => c.status);
    const cold = neededPools.filter((name) => !warmPools.has(name));
    return {
      redis: notReady.length === 0 ? 'ok' : `redis is ${notReady[0]}`,
      chromium: manager.connected ? 'ok' : relaunching(),
      pages: cold.length === 0 ? 'ok' : `pools not warm: ${cold.join(', ')}`,
      ...(closing ? { draining: 'shutting down' } : {}),
    };
  };
  const close = () => {
    closing ??= (async () => {
      const deadline = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), config.SHUTDOWN_TIMEOUT_MS).unref());
      // worker.close() waits for in-flight jobs; past the deadline we force-close so they go back to the
      // queue (as stalled) for another worker instead of holding shutdown forever.
      const drained = await Promise.race([Promise.all(workers.map((w) => w.close())).then(() => 'drained' as const), deadline]);
      if (drained === 'timeout') {
        logger.warn('shutdown deadline reached; abandoning in-flight jobs to other workers');
        await Promise.allSettled(workers.map((w) => w.close(true)));
      }
      const started = await Promise.allSettled(pools.values());
      await Promise.allSettled(started.map((p) => (p.status === 'fulfilled' ? p.value.close() : undefined)));
      await manager.close().catch((err) => logger.warn({ err: (err as Error).message }, 'browser close failed'));
      // Passed in as instances, so BullMQ leaves these to us.
      await Promise.allSettled(connections.map((c) => c.quit().catch(() => c.disconnect())));
      await proxy.close();
    })();
    return closing;
  };
  return { readiness, close };
}

export async function startRenderWorker(
  config: WorkerConfig,
  logger: Logger,
  metrics: WorkerMetrics = createWorkerMetrics(),
): Promise<RenderWorkerHandle> {
  const queues = parseQueues(config.RENDER_QUEUES);
  const filters = loadFilters(queues, config, logger);
  const proxy = await startEgressProxy({
    allowlist: parseAllowlist(config.RENDER_EGRESS_ALLOWLIST),
    logger,
    onRefusal: (reason) => metrics.egressRefusals.inc({ reason }),
  });
  const manager = new BrowserManager(
    chromiumLaunchOptions({
      executablePath: config.CHROMIUM_PATH,
      sandbox: config.CHROMIUM_SANDBOX,
      proxyUrl: proxy.url,
      fontconfig: { file: config.RENDER_FONTCONFIG_FILE, env: config.CHROMIUM_ENV },
      renderTimeoutMs: config.RENDER_TIMEOUT_MS,
    }),
    logger,
    () => metrics.browserRestarts.inc(),
  );
  await manager.get();
  // The glyph check (render warnings) reads the fonts Chromium sees, once, in the background.
  configureFontCoverage(config.RENDER_FONTCONFIG_FILE, config.CHROMIUM_ENV);
  void preloadFontCoverage();

  const { pools, warmPools, pool } = pagePools(config, manager, logger, metrics);
  const rendererContext: WorkerRendererContext = {
    pool,
    timeoutMs: config.RENDER_TIMEOUT_MS,
    imageFetch: {
      proxyUrl: proxy.url,
      maxBytes: config.RENDER_IMAGE_MAX_BYTES,
      maxTotalBytes: config.RENDER_IMAGES_MAX_TOTAL_BYTES,
      timeoutMs: config.RENDER_IMAGE_TIMEOUT_MS,
    },
    fullPage: { maxHeight: config.SCREENSHOT_MAX_HEIGHT, maxPixels: config.SCREENSHOT_MAX_PIXELS },
    video: { ffmpegPath: config.FFMPEG_PATH, maxBytes: config.VIDEO_MAX_BYTES },
    ...(filters ? { filters } : {}),
    logger,
  };
  // Warm the pools this process will need before taking jobs.
  const neededPools = [...new Set(queues.flatMap((kind) => rendererPools[kind]))];
  await Promise.all(neededPools.map(pool));

  const connections: Redis[] = [];
  const workers = queueWorkers({ config, logger, metrics, rendererContext }, queues, connections);
  const webhooks = await webhookWorkers({ config, logger, metrics }, connections);
  logger.info({ queues, pages: config.RENDER_PAGES, egressProxy: proxy.url, webhooks: webhooks.length > 0 }, 'render worker ready');

  const running = { config, logger, manager, proxy, pools, warmPools, neededPools, workers: [...workers, ...webhooks], connections };
  return { queues, metrics, ...lifecycle(running) };
}
