import { randomUUID } from 'node:crypto';
import { AuthInternalRoutes, WebhookLimits, WebhookSecretInternalResponse } from '@render/contracts';
import type { Logger } from '@render/logger';
import {
  createRedis,
  DELIVERIES_TTL_SECONDS,
  deliveriesKey,
  WEBHOOK_CONSUMER_HEARTBEAT_MS,
  WEBHOOK_CONSUMER_TTL_MS,
  WEBHOOK_TIMEOUT_MS,
  type WebhookDeliveryRecord,
  type WebhookJobData,
  webhookConsumersKey,
  webhookJob,
} from '@render/queue';
import { type Job, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { Compile } from 'typebox/compile';
import { sendWebhook } from './webhook-sender.ts';

export interface WebhookWorkerOptions {
  redisUrl: string;
  prefix: string;
  allowlist: Set<string>;
  /** The account service, which holds each account's webhook secret. */
  authServiceUrl: string;
  internalToken: string;
  concurrency: number;
  timeoutMs?: number;
  logger: Logger;
  /** Each attempt's result, for the `webhook_deliveries_total` counter. */
  onAttempt?: (result: WebhookAttemptResult) => void;
}

/** delivered; retrying: this attempt failed and BullMQ will try again; failed: given up (the last attempt, or final). */
export type WebhookAttemptResult = 'delivered' | 'retrying' | 'failed';

const checkSecret = Compile(WebhookSecretInternalResponse);
const SECRET_TIMEOUT_MS = 5_000;
const FIRST_BEAT_WAIT_MS = 2_000;

/**
 * Consumes the `webhook` queue: signs each attempt with the account's current secret (fetched from the
 * account service per attempt, so a rotation covers retries and no secret is kept here), POSTs it under the
 * egress policy, records the attempt for the dashboard, and lets BullMQ retry a failure with its backoff.
 */
export function startWebhookWorker(opts: WebhookWorkerOptions): { worker: Worker; connection: Redis; listed: Promise<void> } {
  const { logger } = opts;
  const connection = createRedis(opts.redisUrl, 'blocking', 'render-worker-webhook');

  async function record(userId: string, entry: WebhookDeliveryRecord): Promise<void> {
    const key = deliveriesKey(opts.prefix, userId);
    await connection
      .multi()
      .lpush(key, JSON.stringify(entry))
      .ltrim(key, 0, WebhookLimits.deliveriesKept - 1)
      .expire(key, DELIVERIES_TTL_SECONDS)
      .exec()
      .catch((err: Error) => logger.warn({ err: err.message }, 'recording a webhook delivery failed'));
  }

  async function secretOf(userId: string): Promise<string | { missing: true }> {
    const response = await fetch(new URL(AuthInternalRoutes.webhookSecret.url, opts.authServiceUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-internal-token': opts.internalToken },
      body: JSON.stringify({ userId }),
      signal: AbortSignal.timeout(SECRET_TIMEOUT_MS),
    });
    if (response.status === 404) return { missing: true };
    const answer: unknown = await response.json().catch(() => undefined);
    if (!response.ok || !checkSecret.Check(answer)) throw new Error(`the account service answered ${response.status}`);
    return answer.secret;
  }

  async function deliver(job: Job<WebhookJobData>): Promise<void> {
    if (!webhookJob.isValid(job.data)) throw new UnrecoverableError(`Invalid webhook job: ${webhookJob.describeInvalid(job.data)}`);
    const { userId, url, payload } = job.data;
    const attempt = job.attemptsMade + 1;
    const last = attempt >= (job.opts.attempts ?? 1);
    const base = { renderId: payload.id, url, attempt, at: new Date().toISOString() };
    const fail = async (
      entry: Pick<WebhookDeliveryRecord, 'statusCode' | 'error' | 'errorCode'>,
      final: boolean,
      message: string,
    ): Promise<never> => {
      await record(userId, { ...base, ok: false, final: final || last, ...entry });
      opts.onAttempt?.(final || last ? 'failed' : 'retrying');
      throw final ? new UnrecoverableError(message) : new Error(message);
    };

    let secret: string | { missing: true };
    try {
      secret = await secretOf(userId);
    } catch (err) {
      const error = 'could not sign the delivery: the account service is unavailable';
      return fail({ error, errorCode: 'SIGNING_UNAVAILABLE' }, false, (err as Error).message);
    }
    if (typeof secret !== 'string')
      return fail({ error: 'the account no longer exists', errorCode: 'ACCOUNT_GONE' }, true, 'account not found');
    const result = await sendWebhook(new URL(url), JSON.stringify(payload), secret, {
      allowlist: opts.allowlist,
      timeoutMs: opts.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
    });
    if (result.kind === 'refused')
      return fail({ error: `refused by the egress policy: ${result.reason}`, errorCode: 'REFUSED' }, true, result.reason);
    if (result.kind === 'failed') return fail({ error: result.reason, errorCode: result.code }, false, result.reason);
    if (result.statusCode < 200 || result.statusCode >= 300)
      return fail({ statusCode: result.statusCode }, false, `the webhook answered ${result.statusCode}`);
    await record(userId, { ...base, ok: true, final: true, statusCode: result.statusCode });
    opts.onAttempt?.('delivered');
  }

  const worker = new Worker<WebhookJobData>(webhookJob.queueName, deliver, {
    connection,
    prefix: opts.prefix,
    concurrency: opts.concurrency,
  });
  worker.on('error', (err) => logger.warn({ err: err.message, queue: webhookJob.queueName }, 'worker error'));
  worker.on('failed', (job, err) => {
    if (job) logger.info({ jobId: job.id, attempt: job.attemptsMade, reason: err.message }, 'webhook delivery failed');
  });
  const listed = announceConsumer(worker, connection, opts.prefix, logger);
  return { worker, connection, listed };
}

/**
 * Keeps this process listed as a consumer of the webhook queue (`webhookConsumersKey`) while its worker runs,
 * and unlisted from the moment it starts closing: the gateway accepts webhooks only while someone is listed.
 * Resolves once the first heartbeat is written (or failed: the next one retries).
 */
function announceConsumer(worker: Worker, connection: Redis, prefix: string, logger: Logger): Promise<void> {
  const key = webhookConsumersKey(prefix);
  const id = randomUUID();
  const beat = () =>
    connection
      .multi()
      .zadd(key, Date.now() + WEBHOOK_CONSUMER_TTL_MS, id)
      // Entries of workers that stopped without a word (killed, crashed) go with the next heartbeat.
      .zremrangebyscore(key, '-inf', Date.now())
      .pexpire(key, WEBHOOK_CONSUMER_TTL_MS)
      .exec()
      .catch((err: Error) => logger.warn({ err: err.message }, 'webhook consumer heartbeat failed'));
  const timer = setInterval(beat, WEBHOOK_CONSUMER_HEARTBEAT_MS).unref();
  worker.once('closing', () => {
    clearInterval(timer);
    connection.zrem(key, id).catch(() => undefined);
  });
  // Bounded: with Redis away the heartbeat waits for it, and the worker's start must not.
  return Promise.race([beat().then(() => undefined), new Promise<void>((resolve) => setTimeout(resolve, FIRST_BEAT_WAIT_MS).unref())]);
}
