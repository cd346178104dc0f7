import { randomUUID } from 'node:crypto';
import { AppError } from '@render/contracts';
import {
  createRedis,
  defaultRenderJobOptions,
  type RenderKind,
  type RenderPayload,
  type RenderResultMeta,
  renderJobs,
  renderKinds,
  resultKey,
} from '@render/queue';
import { Queue, QueueEvents } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';

export interface RenderOutcome {
  image: Buffer;
  meta: RenderResultMeta;
}

export interface RenderQueueClient {
  /** Enqueues a job on its format's queue and waits (sync REST) for the image or a clear failure. */
  render<K extends RenderKind>(kind: K, payload: RenderPayload<K>): Promise<RenderOutcome>;
}

declare module 'fastify' {
  interface FastifyInstance {
    renderQueue: RenderQueueClient;
  }
}

const ENQUEUE_TIMEOUT_MS = 3_000;
const CLOSE_TIMEOUT_MS = 2_000;
const DEPTH_TTL_MS = 200;

const unavailable = () => new AppError('QUEUE_UNAVAILABLE', 'The render queue is unavailable right now; please retry shortly');

function bounded<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

interface Waiter {
  resolve(meta: RenderResultMeta): void;
  reject(err: Error): void;
}

export interface RenderQueueOptions {
  redisUrl: string;
  prefix: string;
  deadlineMs: number;
  maxQueueDepth: number;
}

/**
 * Waiting is driven by one QueueEvents stream reader per queue and a map of pending job ids, registered
 * before the job is added, so there is no per-request listener and no race with a fast worker.
 */
async function renderQueuePlugin(app: FastifyInstance, opts: RenderQueueOptions) {
  const queues = new Map<RenderKind, Queue>();
  const events: QueueEvents[] = [];
  const eventConnections: Redis[] = [];
  const pending = new Map<string, Waiter>();

  for (const kind of renderKinds) {
    const def = renderJobs[kind];
    const queue = new Queue(def.queueName, { connection: app.redis, prefix: opts.prefix, defaultJobOptions: defaultRenderJobOptions });
    queue.on('error', (err) => app.log.debug({ err: err.message, queue: def.queueName }, 'queue error'));
    queues.set(kind, queue);

    const eventsConnection = createRedis(opts.redisUrl, 'blocking', `gateway-events-${kind}`);
    eventConnections.push(eventsConnection);
    const qe = new QueueEvents(def.queueName, { connection: eventsConnection, prefix: opts.prefix });
    qe.on('error', (err) => app.log.debug({ err: err.message, queue: def.queueName }, 'queue events error'));
    qe.on('completed', ({ jobId, returnvalue }) => {
      const waiter = pending.get(jobId);
      if (waiter) waiter.resolve(returnvalue as unknown as RenderResultMeta);
    });
    qe.on('failed', ({ jobId, failedReason }) => {
      const waiter = pending.get(jobId);
      if (waiter) waiter.reject(new AppError('RENDER_FAILED', failedReason || 'Failed to generate image'));
    });
    events.push(qe);
  }

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

  async function render<K extends RenderKind>(kind: K, payload: RenderPayload<K>): Promise<RenderOutcome> {
    const queue = queues.get(kind);
    if (!queue) throw new AppError('INTERNAL_ERROR', `No queue for ${kind}`);
    const jobId = randomUUID();

    // BullMQ waits for a connection indefinitely; a request must not, so check first and bound the call.
    if (app.redis.status !== 'ready') throw unavailable();
    let waiting: number;
    try {
      waiting = await waitingCount(kind, queue);
    } catch {
      throw unavailable();
    }
    if (waiting >= opts.maxQueueDepth) {
      throw new AppError('QUEUE_FULL', 'The render queue is full right now; please retry shortly');
    }

    let timer: NodeJS.Timeout | undefined;
    const done = new Promise<RenderResultMeta>((resolve, reject) => {
      pending.set(jobId, { resolve, reject });
      timer = setTimeout(
        () => reject(new AppError('RENDER_TIMEOUT', `Rendering did not finish within ${opts.deadlineMs} ms`)),
        opts.deadlineMs,
      );
    });
    done.catch(() => {}); // handled below; avoids an unhandled rejection if add() throws first

    try {
      try {
        await bounded(queue.add(kind, payload, { jobId }), ENQUEUE_TIMEOUT_MS);
      } catch {
        throw unavailable();
      }
      let meta: RenderResultMeta;
      try {
        meta = await done;
      } catch (err) {
        if (err instanceof AppError && err.code === 'RENDER_TIMEOUT') {
          // Nobody will read this result: drop the job if it has not started, and its result if it has.
          await queue.remove(jobId).catch(() => undefined);
          await app.redis.del(resultKey(opts.prefix, jobId)).catch(() => undefined);
        }
        throw err;
      }
      const image = await app.redis.getdelBuffer(meta.resultKey).catch(() => null);
      if (!image) throw new AppError('RENDER_FAILED', 'Failed to generate image: the result expired before it could be read');
      return { image, meta };
    } finally {
      clearTimeout(timer);
      pending.delete(jobId);
    }
  }

  app.decorate('renderQueue', { render });

  app.addHook('onClose', async () => {
    for (const waiter of pending.values()) waiter.reject(new AppError('QUEUE_UNAVAILABLE', 'The server is shutting down'));
    // BullMQ's close() waits for a connection that may never come (Redis down): bound it, then cut.
    await Promise.allSettled([...events, ...queues.values()].map((c) => bounded(c.close(), CLOSE_TIMEOUT_MS)));
    for (const connection of eventConnections) connection.disconnect();
  });
}

export default fp(renderQueuePlugin, { name: 'render-queue', dependencies: ['redis'], fastify: '5.x' });
