import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError, type ErrorCode, ProblemMessages, videoExtraMs } from '@render/contracts';
import { Gauge, Histogram } from '@render/fastify-kit';
import {
  createRedis,
  decodeReply,
  defaultRenderJobOptions,
  encodeReply,
  type RenderJobData,
  type RenderKind,
  type RenderPayload,
  type RenderReply,
  type RenderResultMeta,
  renderJobs,
  renderKinds,
  replyChannel,
  resultKey,
} from '@render/queue';
import { Queue } from 'bullmq';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { SERVICE_RETRY_AFTER_SECONDS } from '../lib/service-fetch.ts';
import type { RenderAccount } from './account-limits.plugin.ts';

export interface RenderOutcome {
  image: Buffer;
  meta: RenderResultMeta;
}

export interface RenderQueueClient {
  /**
   * Enqueues a job on its format's queue and waits (sync REST) for the image or a clear failure.
   * `jobId` lets the caller key other records (the credit reservation) by the same id; fresh by default.
   */
  render<K extends RenderKind>(kind: K, payload: RenderPayload<K>, options?: RenderOptions): Promise<RenderOutcome>;
  /**
   * Takes job `jobId` off its queue if no worker holds it yet (a cancelled batch's item), from any gateway:
   * then `recorded` runs, and the gateway waiting for the job (whichever it is) is answered `failure`, so its
   * wait ends at once. False when the job was not waiting (a worker has it, or it has ended or is unknown).
   */
  withdraw(kind: RenderKind, jobId: string, failure: { code: ErrorCode; message: string }, recorded: () => Promise<void>): Promise<boolean>;
}

export interface RenderOptions {
  jobId?: string;
  /** The X-Request-Id of the call: carried in the job, so the worker's log lines for it carry it too. */
  requestId?: string;
  /**
   * Who the render is for, as an opaque id (`callerId`): screenshot jobs carry it, so the worker can reuse
   * that caller's own (wiped) browser context for its next screenshot. Other jobs do not need it.
   */
  caller?: string;
  /** The caller hung up: a job not yet started is taken off the queue and the wait ends. */
  signal?: AbortSignal;
  /**
   * The account the render is for: it takes one of the account's in-flight slots (`accountLimits`), checked
   * before the job is queued (over the plan's limit: 429, nothing queued) and given back however the render
   * ends. Anonymous renders pass none (they are limited per IP); admins are not limited.
   */
  account?: RenderAccount;
}

declare module 'fastify' {
  interface FastifyInstance {
    renderQueue: RenderQueueClient;
  }
}

export interface RenderQueueOptions {
  redisUrl: string;
  prefix: string;
  deadlineMs: number;
  maxQueueDepth: number;
  /** Retry-After of the 429 a full queue answers. */
  queueFullRetryAfterSeconds: number;
}

const ENQUEUE_TIMEOUT_MS = 3_000;
const CLOSE_TIMEOUT_MS = 2_000;
const DEPTH_TTL_MS = 200;

const unavailable = () =>
  new AppError('QUEUE_UNAVAILABLE', 'The render queue is unavailable right now; please retry shortly', undefined, {
    retryAfterSeconds: SERVICE_RETRY_AFTER_SECONDS,
  });

function bounded<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A full queue's 429, saying when to retry. */
const queueFull = (retryAfterSeconds: number) =>
  new AppError('QUEUE_FULL', `The render queue is full right now; please retry in ${retryAfterSeconds} s`, undefined, {
    retryAfterSeconds,
  });

/** One BullMQ queue per render kind, on the gateway's Redis connection. */
function openQueues(app: FastifyInstance, prefix: string): Map<RenderKind, Queue> {
  const queues = new Map<RenderKind, Queue>();
  for (const kind of renderKinds) {
    const queue = new Queue(renderJobs[kind].queueName, {
      connection: app.redis,
      prefix,
      defaultJobOptions: defaultRenderJobOptions,
    });
    queue.on('error', (err) => app.log.debug({ err: err.message, kind }, 'queue error'));
    queues.set(kind, queue);
  }
  return queues;
}

/** `render_queue_waiting` / `render_queue_active` per queue, read on scrape, and the queue-wait histogram (answered). */
function queueMetrics(app: FastifyInstance, queues: Map<RenderKind, Queue>): Histogram<'format'> {
  // Queue gauges are read from BullMQ on scrape; a Redis that is away leaves them out rather than hang it.
  const countsOnScrape = async (): Promise<Map<RenderKind, Record<string, number>>> => {
    const counts = new Map<RenderKind, Record<string, number>>();
    if (app.redis.status !== 'ready') return counts;
    await Promise.all(
      [...queues].map(async ([kind, queue]) => {
        const value = await bounded(queue.getJobCounts('waiting', 'active'), ENQUEUE_TIMEOUT_MS).catch(() => undefined);
        if (value) counts.set(kind, value);
      }),
    );
    return counts;
  };
  let scrape: Promise<Map<RenderKind, Record<string, number>>> | undefined;
  const scrapeOnce = () => {
    // Both gauges are collected in one scrape: one BullMQ round trip serves them.
    scrape ??= countsOnScrape().finally(() => setTimeout(() => (scrape = undefined), 100).unref());
    return scrape;
  };
  for (const [name, state] of [
    ['render_queue_waiting', 'waiting'],
    ['render_queue_active', 'active'],
  ] as const) {
    new Gauge({
      name,
      help: `Render jobs ${state} per queue`,
      labelNames: ['queue'] as const,
      registers: [app.metrics],
      async collect() {
        this.reset();
        for (const [kind, counts] of await scrapeOnce()) this.set({ queue: kind }, counts[state] ?? 0);
      },
    });
  }
  return new Histogram({
    name: 'render_queue_wait_seconds',
    help: 'Time a render job waited in its queue before a worker took it',
    labelNames: ['format'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [app.metrics],
  });
}

/** The states of a job no worker has taken yet. */
const NOT_STARTED = new Set(['waiting', 'prioritized', 'delayed', 'waiting-children']);

/**
 * Takes a job off its queue if no worker has taken it yet, and tells the gateway waiting for it (over its
 * reply channel) with `failure`, once `recorded` has noted it (a cancelled batch item). False when too late.
 */
function jobWithdrawal(app: FastifyInstance, queues: ReturnType<typeof openQueues>) {
  return async function withdraw(
    kind: RenderKind,
    jobId: string,
    failure: { code: ErrorCode; message: string },
    recorded: () => Promise<void>,
  ): Promise<boolean> {
    const queue = queues.get(kind);
    const job = queue ? await queue.getJob(jobId) : undefined;
    if (!queue || !job || !NOT_STARTED.has(await job.getState())) return false;
    // BullMQ refuses to remove a job its worker has locked (0). Between the state read and the removal a
    // worker could take the job, never finish it: a render outlasts that one round trip by far.
    if ((await queue.remove(jobId)) !== 1) return false;
    await recorded();
    const { replyTo } = job.data as RenderJobData;
    if (replyTo) await app.redis.publish(replyTo, encodeReply({ jobId, ok: false, ...failure }));
    return true;
  };
}

/** This gateway's subscriber of its reply channel, answering the waiters in `pending` (subscribed, or 1 s given to it). */
async function replySubscriber(app: FastifyInstance, redisUrl: string, gatewayId: string, channel: string, pending: Map<string, Waiter>) {
  // Named after the channel, so an operator (or a test) can tell which gateway's subscriber is which.
  const subscriber = createRedis(redisUrl, 'blocking', `gateway-replies-${gatewayId}`);
  subscriber.on('messageBuffer', (_channel: Buffer, message: Buffer) => {
    const reply = decodeReply(message);
    if (reply) pending.get(reply.jobId)?.answer(reply);
  });
  const subscribed = subscriber
    .subscribe(channel)
    .catch((err: Error) => app.log.warn({ err: err.message }, 'reply channel subscribe failed'));
  await Promise.race([subscribed, new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
  // ioredis subscribes again by itself after a reconnect, but what was published meanwhile is gone.
  subscriber.on('ready', () => {
    if (pending.size > 0) void recoverLostReplies(subscriber, channel, pending, app.log);
  });
  return subscriber;
}

/**
 * Each gateway process listens on its own reply channel; workers publish the finished image (or the
 * final failure) straight to it. Waiters are registered before the job is added, so a fast worker cannot
 * answer before anyone listens, and there is no per-request Redis listener.
 */
async function renderQueuePlugin(app: FastifyInstance, opts: RenderQueueOptions) {
  const queues = openQueues(app, opts.prefix);
  const queueWait = queueMetrics(app, queues);

  const pending = new Map<string, Waiter>();
  const gatewayId = randomUUID();
  const channel = replyChannel(opts.prefix, gatewayId);
  const subscriber = await replySubscriber(app, opts.redisUrl, gatewayId, channel, pending);

  // The depth check only has to stop unbounded growth, not be exact: a count younger than DEPTH_TTL_MS is
  // reused, which keeps a Redis round trip off most requests.
  const depth = new Map<RenderKind, { value: number; at: number }>();
  async function waitingCount(kind: RenderKind, queue: Queue): Promise<number> {
    const cached = depth.get(kind);
    if (cached && Date.now() - cached.at < DEPTH_TTL_MS) return cached.value;
    const value = await bounded(queue.getWaitingCount(), ENQUEUE_TIMEOUT_MS);
    depth.set(kind, { value, at: Date.now() });
    return value;
  }

  async function render<K extends RenderKind>(kind: K, payload: RenderPayload<K>, options: RenderOptions = {}): Promise<RenderOutcome> {
    const queue = queues.get(kind);
    if (!queue) throw new AppError('INTERNAL_ERROR', `No queue for ${kind}`);
    // In-process, so first: an account at its limit costs no Redis round trip and queues nothing.
    const release = options.account ? app.accountLimits.acquire(options.account) : undefined;
    try {
      return await enqueueAndWait(kind, queue, payload, options);
    } finally {
      release?.();
    }
  }

  async function enqueueAndWait<K extends RenderKind>(
    kind: K,
    queue: Queue,
    payload: RenderPayload<K>,
    options: RenderOptions,
  ): Promise<RenderOutcome> {
    // BullMQ waits for a connection indefinitely; a request must not, so check first and bound the call.
    if (app.redis.status !== 'ready' || subscriber.status !== 'ready') throw unavailable();
    let waiting: number;
    try {
      waiting = await waitingCount(kind, queue);
    } catch {
      throw unavailable();
    }
    if (waiting >= opts.maxQueueDepth) throw queueFull(opts.queueFullRetryAfterSeconds);

    const jobId = options.jobId ?? randomUUID();
    const { signal } = options;
    if (signal?.aborted) throw signal.reason;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const data: RenderJobData<K> = {
      payload,
      replyTo: channel,
      ...(options.requestId ? { requestId: options.requestId } : {}),
      ...(options.caller && kind === 'screenshot' ? { caller: options.caller } : {}),
    };
    const answered = new Promise<RenderReply>((resolve, reject) => {
      pending.set(jobId, { answer: resolve, queue, kind, data });
      // A screenshot video renders for its duration on top of the page load (and its encoding): waited for.
      const deadlineMs = opts.deadlineMs + (kind === 'screenshot' ? videoExtraMs(payload as { format: string; duration?: number }) : 0);
      timer = setTimeout(() => reject(new AppError('RENDER_TIMEOUT', `Rendering did not finish within ${deadlineMs} ms`)), deadlineMs);
      onAbort = () => reject(signal?.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    answered.catch(() => {}); // handled below; avoids an unhandled rejection if add() throws first

    try {
      try {
        await bounded(queue.add(kind, data, { jobId }), ENQUEUE_TIMEOUT_MS);
      } catch {
        throw unavailable();
      }
      let reply: RenderReply;
      try {
        reply = await answered;
      } catch (err) {
        // Nobody will read this result: drop the job if it has not started (a started one is locked by its
        // worker and cannot be removed; it finishes and its reply is ignored), and any stored result.
        await queue.remove(jobId).catch(() => undefined);
        await app.redis.del(resultKey(opts.prefix, jobId)).catch(() => undefined);
        throw err;
      }
      if (!reply.ok) throw new AppError(reply.code, reply.message);
      queueWait.observe({ format: kind }, reply.meta.queueMs / 1000);
      const image = reply.image ?? (reply.meta.resultKey ? await app.redis.getdelBuffer(reply.meta.resultKey).catch(() => null) : null);
      if (!image) throw new AppError('RENDER_FAILED', 'Failed to generate image: the result expired before it could be read');
      return { image, meta: reply.meta };
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      pending.delete(jobId);
    }
  }

  const withdraw = jobWithdrawal(app, queues);

  app.decorate('renderQueue', { render, withdraw });

  app.addHook('onClose', async () => {
    // BullMQ's close() waits for a connection that may never come (Redis down): bound it, then cut.
    await Promise.allSettled([...queues.values()].map((q) => bounded(q.close(), CLOSE_TIMEOUT_MS)));
    subscriber.disconnect();
  });
}

/** A request waiting for its job's reply, with what it takes to queue the job again. */
interface Waiter {
  answer(reply: RenderReply): void;
  queue: Queue;
  kind: RenderKind;
  data: RenderJobData;
}

/** How long an answer published around a reconnect gets to arrive before its job counts as unanswered. */
const IN_FLIGHT_GRACE_MS = 100;

/**
 * After the reply channel reconnects: each job still waited for that has ended meanwhile lost its reply.
 * A finished job is removed on completion and its image travelled only in the lost message, so it is queued
 * again under the same id (its credit is still only reserved: one charge for the one image delivered);
 * a failed one (kept) is answered with its failure. Jobs still waiting or rendering reply as usual, now that
 * the channel is subscribed again. Without this, such requests would hang until their deadline and 504.
 */
async function recoverLostReplies(subscriber: Redis, channel: string, pending: Map<string, Waiter>, log: FastifyBaseLogger): Promise<void> {
  try {
    // Acknowledged before the states are read: anything published from here on reaches this gateway. A
    // worker publishes a reply just before its job ends, so a job that answered into the gap may still read
    // as active for a moment: the states are read a grace period later.
    await subscriber.subscribe(channel);
    await sleep(IN_FLIGHT_GRACE_MS);
    const ended: Array<[string, Waiter]> = [];
    for (const [jobId, waiter] of [...pending]) {
      const state = await waiter.queue.getJobState(jobId);
      if (state === 'failed') {
        const failed = await waiter.queue.getJob(jobId);
        waiter.answer({ jobId, ok: false, code: 'RENDER_FAILED', message: userFacingFailure(failed?.failedReason) });
      } else if (state === 'completed' || state === 'unknown') ended.push([jobId, waiter]);
    }
    if (ended.length === 0) return;
    // An answer published after the subscription may still be on its way: only jobs left waiting are lost.
    await sleep(IN_FLIGHT_GRACE_MS);
    const lost = ended.filter(([jobId, waiter]) => pending.get(jobId) === waiter);
    log.warn({ jobs: lost.length }, 'reply channel reconnected: renders whose answer was lost are queued again');
    await Promise.all(lost.map(([jobId, { queue, kind, data }]) => queue.add(kind, data, { jobId })));
  } catch (err) {
    // Redis went away again: the next reconnect tries again; meanwhile the deadline still bounds each wait.
    log.warn({ err: (err as Error).message }, 'lost replies not recovered');
  }
}

/** A failed job's reason when it is one of the worker's answers to callers; BullMQ's own (stalls) are not. */
const userFacingFailure = (reason: string | undefined) => (reason?.startsWith('Failed to ') ? reason : ProblemMessages.renderFailed);

export default fp(renderQueuePlugin, { name: 'render-queue', dependencies: ['redis', 'metrics', 'account-limits'], fastify: '5.x' });
