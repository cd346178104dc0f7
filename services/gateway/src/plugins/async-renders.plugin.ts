import { randomUUID } from 'node:crypto';
import {
  AppError,
  type AsyncRenderAccepted,
  type AsyncRenderView,
  parseWebhookUrl,
  type WebhookDelivery,
  WebhookMessages,
} from '@render/contracts';
import { Gauge } from '@render/fastify-kit';
import {
  type RenderKind,
  type RenderPayload,
  type WebhookJobData,
  webhookConsumersKey,
  webhookJob,
  webhookJobOptions,
} from '@render/queue';
import { Queue } from 'bullmq';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { SERVICE_RETRY_AFTER_SECONDS } from '../lib/service-fetch.ts';
import { AsyncRenderState, doneRender, failedRender, guarded, type KeptImage, viewOf } from '../renders/async-render-state.ts';
import { webhookAddressRefusal, webhookPortRefusal } from '../webhooks/webhook-target.ts';
import type { RenderOutcome } from './render-queue.plugin.ts';

/** A finished async render's image as kept for `GET /api/renders/{id}/image`. */
export type { KeptImage };

export interface AsyncRenderJob<K extends RenderKind> {
  kind: K;
  /** What the render is in the status (`template` for a template's SVG job). */
  label: string;
  payload: RenderPayload<K>;
  /** The webhook, already parsed (an absolute http(s) URL). */
  webhook: URL;
}

export interface AsyncRenders {
  /** The webhook URL of a body, parsed; a 400 when it is not an absolute http(s) URL or uses a port not allowed. */
  webhookTarget(raw: string): URL;
  /**
   * Records the render as queued and starts the same billed pipeline as a synchronous call in the
   * background; resolves with the 202 answer's data once the status can be read.
   */
  submit<K extends RenderKind>(request: FastifyRequest, job: AsyncRenderJob<K>): Promise<AsyncRenderAccepted['data']>;
  /** The render's status for its owner; null for an unknown, expired or someone else's render. */
  status(id: string, userId: string): Promise<AsyncRenderView | null>;
  image(id: string, userId: string): Promise<{ view: AsyncRenderView; image: KeptImage | null } | null>;
  /** The account's latest webhook delivery attempts, newest first. */
  deliveries(userId: string): Promise<WebhookDelivery[]>;
  /**
   * Another feature's webhook (a batch's), accepted as a render's is: parsed, its address checked with the
   * workers' policy, and a worker delivering webhooks required (503 otherwise).
   */
  acceptWebhook(raw: string): Promise<URL>;
  /** Queues a delivery on the webhook queue; `jobId` makes a second add of the same delivery do nothing. */
  deliver(job: WebhookJobData, jobId: string): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    asyncRenders: AsyncRenders;
  }
}

export interface AsyncRendersOptions {
  prefix: string;
  ttlSeconds: number;
  webhookRetryBaseMs: number;
  webhookAttempts: number;
  /** host:port pairs a webhook may target although not public (the workers' RENDER_EGRESS_ALLOWLIST). */
  webhookAllowlist: Set<string>;
  /** Ports a webhook may use (`WEBHOOK_PORTS`); null: any. */
  webhookPorts: Set<string> | null;
  /** An open render older than this has lost its gateway (see `sweepOrphans`). */
  orphanAfterMs: number;
  sweepEveryMs: number;
}

const CLOSE_TIMEOUT_MS = 2_000;
/** A worker (re)starting takes seconds; its first heartbeat comes as soon as it runs. */
const NO_CONSUMER_RETRY_AFTER_SECONDS = 30;
const SCRAPE_TIMEOUT_MS = 3_000;
const WEBHOOK_JOB_STATES = ['waiting', 'delayed', 'active', 'failed'] as const;

function webhookTarget(raw: string, ports: Set<string> | null): URL {
  const url = parseWebhookUrl(raw);
  if (!url) throw new AppError('VALIDATION_ERROR', WebhookMessages.invalid);
  const refusal = webhookPortRefusal(url, ports);
  if (refusal) throw new AppError('VALIDATION_ERROR', refusal);
  return url;
}

/**
 * A webhook is accepted only while a worker consumes the webhook queue (its heartbeat in
 * `webhookConsumersKey`): otherwise its job would wait in Redis, which never evicts, for a consumer that may
 * never come (a stack started without one), and the caller would wait for a call that never comes.
 */
async function requireConsumer(state: AsyncRenderState): Promise<void> {
  const live = await guarded(() => state.liveConsumers());
  if (live > 0) return;
  throw new AppError(
    'SERVICE_UNAVAILABLE',
    'Webhooks cannot be accepted right now: no render worker is delivering them. Retry later, or call without "webhook" for a synchronous answer.',
    undefined,
    { retryAfterSeconds: NO_CONSUMER_RETRY_AFTER_SECONDS },
  );
}

/** Webhooks of other features (a batch's): accepted as a render's, delivered through the same queue. */
function otherWebhooks(
  state: AsyncRenderState,
  webhooks: Queue<WebhookJobData>,
  opts: AsyncRendersOptions,
): Pick<AsyncRenders, 'acceptWebhook' | 'deliver'> {
  return {
    async acceptWebhook(raw) {
      const url = webhookTarget(raw, opts.webhookPorts);
      const refusal = await webhookAddressRefusal(url, opts.webhookAllowlist);
      if (refusal) throw refusal;
      await requireConsumer(state);
      return url;
    },
    async deliver(job, jobId) {
      await webhooks.add('deliver', job, { jobId });
    },
  };
}

/**
 * Async renders (`webhook` in a convert body). State lives in Redis under the gateway's prefix, so any
 * replica answers the status: a hash per render (`<prefix>:async-render:<id>`) and the image bytes next to
 * it (`…:image`), both expiring `ttlSeconds` after submission. When the render ends, a webhook job goes to
 * the `webhook` queue, which the render workers deliver (they own the egress policy).
 */
async function asyncRendersPlugin(app: FastifyInstance, opts: AsyncRendersOptions) {
  const { redis, credits } = app;
  const webhooks = new Queue<WebhookJobData>(webhookJob.queueName, {
    connection: redis,
    prefix: opts.prefix,
    defaultJobOptions: webhookJobOptions(opts.webhookRetryBaseMs, opts.webhookAttempts),
  });
  webhooks.on('error', (err) => app.log.debug({ err: err.message }, 'webhook queue error'));
  webhookGauges(app, webhooks, webhookConsumersKey(opts.prefix));
  const state = new AsyncRenderState(redis, opts.prefix, webhooks);
  // Renders still running in the background; a closing gateway lets them end (bounded by the render deadline).
  const running = new Set<Promise<void>>();

  async function runInBackground<K extends RenderKind>(
    id: string,
    userId: string,
    rendering: Promise<RenderOutcome>,
    job: AsyncRenderJob<K>,
    expiresAtSeconds: number,
  ): Promise<void> {
    const format = String((job.payload as { format?: unknown }).format ?? 'unknown');
    await state.markRendering(id);
    let ended: ReturnType<typeof doneRender>;
    try {
      const { image, meta } = await rendering;
      await state.keepImage(id, image, expiresAtSeconds);
      ended = doneRender(id, image, meta);
    } catch (err) {
      // What a synchronous call would have answered (a 422, a 402 with no credits left…); never charged.
      ended = failedRender(id, format, err);
    }
    await state.finish(id, { userId, url: job.webhook.href, payload: ended.payload }, ended.fields, expiresAtSeconds);
  }

  async function submit<K extends RenderKind>(request: FastifyRequest, job: AsyncRenderJob<K>) {
    const caller = request.caller;
    // The webhook is signed with the account's secret, and the status is the owner's only: no anonymous ones.
    if (caller?.kind !== 'account') throw new AppError('UNAUTHORIZED', WebhookMessages.signedIn);
    // Resolved now with the workers' policy (the 400 a delivery would end in), after the caller is known, so
    // anonymous calls cannot make the gateway resolve names.
    const refusal = await webhookAddressRefusal(job.webhook, opts.webhookAllowlist);
    if (refusal) throw refusal;
    await requireConsumer(state);
    // A key's credit was reserved in onRequest: a refusal (no credits left, a regenerated key) is this call's
    // 402/401 now rather than a failed render later. (A session's credit is reserved by the render itself.)
    const refused = await request.billing?.refusal();
    if (refused) throw refused;
    // The account's in-flight slot is taken now, so an account at its limit gets its 429 instead of a 202 for a
    // render that would fail with it; the background render holds it until it ends.
    const releaseSlot = app.accountLimits.acquire({ id: caller.userId, plan: caller.plan, role: caller.role });
    const id = randomUUID();
    const createdAt = new Date();
    const expiresAtSeconds = Math.floor(createdAt.getTime() / 1000) + opts.ttlSeconds;
    const format = String((job.payload as { format?: unknown }).format ?? 'unknown');
    const orphanAt = createdAt.getTime() + opts.orphanAfterMs;
    try {
      await state.open({
        id,
        owner: caller.userId,
        kind: job.label,
        format,
        createdAt,
        expiresAtSeconds,
        orphanAt,
        webhook: job.webhook.href,
      });
    } catch {
      releaseSlot();
      throw new AppError('QUEUE_UNAVAILABLE', 'The render queue is unavailable right now; please retry shortly', undefined, {
        retryAfterSeconds: SERVICE_RETRY_AFTER_SECONDS,
      });
    }
    // Started before the 202 goes out, so the credit reserved in onRequest is claimed by this render (not given
    // back by the answer), and not tied to this connection: the caller hanging up must not end or release it.
    const rendering = credits.renderBilled(request, job.kind, job.payload, { endsWithClient: false, slotHeld: true });
    rendering.then(releaseSlot, releaseSlot);
    const background = runInBackground(id, caller.userId, rendering, job, expiresAtSeconds).catch((err: Error) =>
      app.log.error({ renderId: id, err: err.message }, 'async render could not record its outcome or queue its webhook'),
    );
    running.add(background);
    background.finally(() => running.delete(background));
    return { id, status: 'queued' as const, statusUrl: `/api/renders/${id}` };
  }

  const status = (id: string, userId: string) =>
    guarded(async () => {
      const fields = await state.owned(id, userId);
      return fields ? viewOf(id, fields) : null;
    });

  let sweeping: Promise<void> | undefined;
  const sweeper = setInterval(() => {
    sweeping ??= state
      .sweepOrphans(app.log)
      .catch((err: Error) => app.log.debug({ err: err.message }, 'async render sweep failed; next time'))
      .finally(() => {
        sweeping = undefined;
      });
  }, opts.sweepEveryMs).unref();

  app.decorate('asyncRenders', {
    webhookTarget: (raw) => webhookTarget(raw, opts.webhookPorts),
    submit,
    status,
    image: (id, userId) => guarded(() => state.image(id, userId)),
    deliveries: (userId) => guarded(() => state.deliveries(userId)),
    ...otherWebhooks(state, webhooks, opts),
  } satisfies AsyncRenders);
  app.addHook('onClose', async () => {
    clearInterval(sweeper);
    await sweeping;
    await Promise.allSettled(running);
    await Promise.race([webhooks.close(), new Promise((resolve) => setTimeout(resolve, CLOSE_TIMEOUT_MS).unref())]);
  });
}

/**
 * `webhook_queue_jobs` (label state: waiting, delayed (retries waiting for their backoff), active, failed) and
 * `webhook_consumers` (workers whose heartbeat is current), read on scrape; left out while Redis is away.
 */
function webhookGauges(app: FastifyInstance, webhooks: Queue, consumersKey: string): void {
  const bounded = <T>(promise: Promise<T>) =>
    Promise.race([promise, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), SCRAPE_TIMEOUT_MS).unref())]).catch(
      () => undefined,
    );
  new Gauge({
    name: 'webhook_queue_jobs',
    help: 'Webhook deliveries in the webhook queue, by state (the queue depth is waiting + delayed + active)',
    labelNames: ['state'] as const,
    registers: [app.metrics],
    async collect() {
      this.reset();
      if (app.redis.status !== 'ready') return;
      const counts = await bounded(webhooks.getJobCounts(...WEBHOOK_JOB_STATES));
      // BullMQ adds `paused` to a `waiting` count; only the states asked for are shown.
      if (counts) for (const state of WEBHOOK_JOB_STATES) this.set({ state }, counts[state] ?? 0);
    },
  });
  new Gauge({
    name: 'webhook_consumers',
    help: 'Render worker processes delivering webhooks (a current heartbeat); none: webhooks are refused with 503',
    registers: [app.metrics],
    async collect() {
      this.reset();
      if (app.redis.status !== 'ready') return;
      const live = await bounded(app.redis.zcount(consumersKey, Date.now(), '+inf'));
      if (live !== undefined) this.set(live);
    },
  });
}

export default fp(asyncRendersPlugin, {
  name: 'async-renders',
  dependencies: ['redis', 'metrics', 'credits', 'account-limits'],
  fastify: '5.x',
});
