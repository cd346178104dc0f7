import { BatchWebhookPayload, type WebhookDelivery, WebhookLimits, WebhookPayload } from '@render/contracts';
import type { JobsOptions } from 'bullmq';
import { type Static, Type } from 'typebox';
import { Compile } from 'typebox/compile';

/**
 * A webhook delivery, defined once for both sides: the gateway enqueues it when an async render ends, a
 * render worker (which owns the egress policy) POSTs it. The job carries the account, not the secret: the
 * worker fetches the then-current secret from the account service and signs on every attempt, so a
 * rotation takes effect for retries too and no secret sits in Redis.
 */
export const WebhookJobData = Type.Object({
  userId: Type.String({ minLength: 1, maxLength: 100 }),
  url: Type.String({ minLength: 1, maxLength: WebhookLimits.maxUrlLength }),
  /** A render's outcome, or a batch's once every item has ended. */
  payload: Type.Union([WebhookPayload, BatchWebhookPayload]),
});
export type WebhookJobData = Static<typeof WebhookJobData>;

const compiled = Compile(WebhookJobData);

export const webhookJob = {
  queueName: 'webhook',
  isValid: (data: unknown): data is WebhookJobData => compiled.Check(data),
  describeInvalid: (data: unknown): string => {
    const first = compiled.Errors(data)[0];
    return first ? `${first.instancePath || '(root)'}: ${first.message}` : 'invalid webhook job';
  },
} as const;

/** How long one delivery attempt may take (connect, send, the answer's head) before it counts as failed. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/**
 * Retries with exponential backoff: with the default 45 s base and 12 attempts the last comes ≈ 25.6 h after
 * the first (45 s × (2¹¹ − 1)), i.e. about a day. A refused address is not retried (UnrecoverableError).
 */
export const webhookJobOptions = (baseDelayMs: number, attempts: number): JobsOptions => ({
  attempts,
  backoff: { type: 'exponential', delay: baseDelayMs },
  removeOnComplete: true,
  removeOnFail: { age: 24 * 3600, count: 1_000 },
});

/**
 * Each attempt goes to a capped list per account (`deliveriesKey`), newest first, read by the gateway's
 * `GET /api/webhooks/deliveries`. Redis rather than Postgres: gateway and worker share it already, an attempt
 * is an operational record (bounded in number and age, like the renders it reports on, which live in Redis
 * too), and the worker needs no database or extra service call per attempt.
 */
export const deliveriesKey = (prefix: string, userId: string) => `${prefix}:webhook-deliveries:${userId}`;
export const DELIVERIES_TTL_SECONDS = 7 * 24 * 3600;
export type WebhookDeliveryRecord = Static<typeof WebhookDelivery>;

/**
 * Who consumes the `webhook` queue: a sorted set of consumer ids scored by when their heartbeat runs out (ms
 * epoch). A worker delivering webhooks renews its entry every `WEBHOOK_CONSUMER_HEARTBEAT_MS` and removes it
 * when it closes; the gateway refuses webhooks (503) while no entry is current, so jobs never pile up in a
 * queue nobody reads (Redis runs with noeviction). A heartbeat rather than BullMQ's `getWorkers()`: that
 * one needs CLIENT LIST and CLIENT SETNAME, which some managed Redis offerings refuse.
 */
export const webhookConsumersKey = (prefix: string) => `${prefix}:webhook-consumers`;
export const WEBHOOK_CONSUMER_HEARTBEAT_MS = 5_000;
/** Three missed heartbeats: a worker that stopped without saying so counts as gone after this long. */
export const WEBHOOK_CONSUMER_TTL_MS = 15_000;
