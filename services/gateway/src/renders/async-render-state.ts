import {
  AppError,
  type AsyncRenderStatus,
  type AsyncRenderView,
  ProblemMessages,
  type RenderResultMeta,
  WebhookDelivery,
  type WebhookPayload,
} from '@render/contracts';
import { deliveriesKey, type WebhookJobData, webhookConsumersKey } from '@render/queue';
import type { Queue } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { Compile } from 'typebox/compile';
import { SERVICE_RETRY_AFTER_SECONDS } from '../lib/service-fetch.ts';

export interface KeptImage {
  bytes: Buffer;
  mimeType: string;
  format: string;
}

/** What an async render is recorded as when it is accepted. */
export interface QueuedRender {
  id: string;
  owner: string;
  /** What the render is in the status (`template` for a template's SVG job). */
  kind: string;
  format: string;
  createdAt: Date;
  expiresAtSeconds: number;
  /** When it counts as orphaned (its gateway stopped): epoch milliseconds. */
  orphanAt: number;
  webhook: string;
}

const SWEEP_BATCH = 50;
const checkDelivery = Compile(WebhookDelivery);

/** What a render whose gateway stopped before it ended says (status and webhook); its credit is never charged. */
const INTERRUPTED = {
  code: 'RENDER_FAILED',
  message:
    'Failed to generate image: the render was interrupted (the server handling it stopped). No credit was charged; please submit it again.',
} as const;

const isUuid = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id);

/** Redis errors are an outage of this feature, not of the request: a 503 the caller may retry. */
export async function guarded<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('SERVICE_UNAVAILABLE', 'Async renders are unavailable right now; please retry shortly', undefined, {
      retryAfterSeconds: SERVICE_RETRY_AFTER_SECONDS,
    });
  }
}

/** The status of render `id` as its hash's fields say. */
export const viewOf = (id: string, fields: Record<string, string>): AsyncRenderView => ({
  id,
  kind: fields.kind ?? 'unknown',
  format: fields.format ?? 'unknown',
  status: (fields.status ?? 'queued') as AsyncRenderStatus,
  ...(fields.errorCode ? { error: { code: fields.errorCode, message: fields.errorMessage ?? '' } } : {}),
  ...(fields.size ? { size: Number(fields.size) } : {}),
  ...(fields.width ? { width: Number(fields.width) } : {}),
  ...(fields.height ? { height: Number(fields.height) } : {}),
  createdAt: fields.createdAt ?? new Date(0).toISOString(),
  ...(fields.finishedAt ? { finishedAt: fields.finishedAt } : {}),
  ...(fields.expiresAt ? { expiresAt: fields.expiresAt } : {}),
  ...(fields.status === 'done' ? { imageUrl: `/api/renders/${id}/image` } : {}),
});

/** A finished render's fields and webhook payload. */
export function doneRender(id: string, image: Buffer, meta: RenderResultMeta): { fields: Record<string, string>; payload: WebhookPayload } {
  return {
    fields: {
      status: 'done',
      format: meta.format,
      mimeType: meta.mimeType,
      size: String(image.length),
      width: String(meta.width),
      height: String(meta.height),
      finishedAt: new Date().toISOString(),
    },
    payload: { id, status: 'done', format: meta.format, size: image.length },
  };
}

/** A failed render's fields and webhook payload: what a synchronous call would have answered (a 422, a 402…). */
export function failedRender(id: string, format: string, err: unknown): { fields: Record<string, string>; payload: WebhookPayload } {
  const error =
    err instanceof AppError ? { code: err.code, message: err.message } : { code: 'RENDER_FAILED', message: ProblemMessages.renderFailed };
  return {
    fields: { status: 'failed', errorCode: error.code, errorMessage: error.message, finishedAt: new Date().toISOString() },
    payload: { id, status: 'failed', format, size: 0, error },
  };
}

/**
 * Async renders' state in Redis under the gateway's prefix, so any replica answers the status: a hash per
 * render (`<prefix>:async-render:<id>`) and the image bytes next to it (`…:image`), both expiring with the
 * render; the renders not yet ended, scored by when they count as orphaned (the gateway that ends one
 * removes it, and whoever removes it first, that gateway or a sweep, records its end and sends its webhook).
 */
export class AsyncRenderState {
  private readonly openKey: string;
  private readonly consumersKey: string;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly webhooks: Queue<WebhookJobData>,
  ) {
    this.openKey = `${prefix}:async-renders:open`;
    this.consumersKey = webhookConsumersKey(prefix);
  }

  private statusKey(id: string): string {
    return `${this.prefix}:async-render:${id}`;
  }

  private imageKey(id: string): string {
    return `${this.statusKey(id)}:image`;
  }

  /** Records an accepted render as queued and open. */
  async open(render: QueuedRender): Promise<void> {
    const key = this.statusKey(render.id);
    await this.redis
      .multi()
      .hset(key, {
        owner: render.owner,
        kind: render.kind,
        format: render.format,
        status: 'queued',
        createdAt: render.createdAt.toISOString(),
        expiresAt: new Date(render.expiresAtSeconds * 1000).toISOString(),
        // Read back only by a sweep, should this gateway stop before the render ends.
        webhook: render.webhook,
      })
      .expireat(key, render.expiresAtSeconds)
      .zadd(this.openKey, render.orphanAt, render.id)
      .exec();
  }

  async markRendering(id: string): Promise<void> {
    await this.redis.hset(this.statusKey(id), { status: 'rendering' }).catch(() => undefined);
  }

  /** The image first, then the status that points at it: a status read as done always finds its image. */
  async keepImage(id: string, image: Buffer, expiresAtSeconds: number): Promise<void> {
    await this.redis.set(this.imageKey(id), image, 'EXAT', expiresAtSeconds);
  }

  /** Records the render's end and queues its webhook, unless a sweep already ended it. */
  async finish(id: string, job: WebhookJobData, fields: Record<string, string>, expiresAtSeconds: number): Promise<void> {
    // Claimed first: a render a sweep already ended (it took longer than any render can) is not ended twice.
    if ((await this.redis.zrem(this.openKey, id)) === 0) return;
    await this.redis.multi().hset(this.statusKey(id), fields).expireat(this.statusKey(id), expiresAtSeconds).exec();
    // The job id is the render id: a gateway retrying this (it does not) could not deliver twice.
    await this.webhooks.add('deliver', job, { jobId: id });
  }

  /** The render's fields when `userId` owns it. Another account's render reads as missing: its ids are not confirmed. */
  async owned(id: string, userId: string): Promise<Record<string, string> | null> {
    if (!isUuid(id)) return null;
    const fields = await this.redis.hgetall(this.statusKey(id));
    return fields.owner === userId ? fields : null;
  }

  async image(id: string, userId: string): Promise<{ view: AsyncRenderView; image: KeptImage | null } | null> {
    const fields = await this.owned(id, userId);
    if (!fields) return null;
    const view = viewOf(id, fields);
    if (view.status !== 'done') return { view, image: null };
    const bytes = await this.redis.getBuffer(this.imageKey(id));
    return { view, image: bytes ? { bytes, mimeType: fields.mimeType ?? 'application/octet-stream', format: view.format } : null };
  }

  /** The account's latest webhook delivery attempts, newest first (lines that do not parse are left out). */
  async deliveries(userId: string): Promise<WebhookDelivery[]> {
    const raw = await this.redis.lrange(deliveriesKey(this.prefix, userId), 0, -1);
    return raw.flatMap((line) => {
      try {
        const parsed: unknown = JSON.parse(line);
        return checkDelivery.Check(parsed) ? [parsed] : [];
      } catch {
        return [];
      }
    });
  }

  /** Workers delivering webhooks now (a current heartbeat). */
  liveConsumers(): Promise<number> {
    return this.redis.zcount(this.consumersKey, Date.now(), '+inf');
  }

  /**
   * Renders whose gateway stopped (crashed, killed) before they ended would stay "queued" or "rendering" until
   * they expire, and their webhook would never come: any gateway marks them failed and sends it. Their credit
   * was only reserved, and the account service's sweep gives reservations that were never settled back.
   */
  async sweepOrphans(log: FastifyBaseLogger, now = Date.now()): Promise<void> {
    const ids = await this.redis.zrangebyscore(this.openKey, '-inf', now, 'LIMIT', 0, SWEEP_BATCH);
    for (const id of ids) {
      if ((await this.redis.zrem(this.openKey, id)) === 0) continue; // another gateway took it
      const fields = await this.redis.hgetall(this.statusKey(id));
      if (!fields.owner || !fields.webhook || fields.status === 'done' || fields.status === 'failed') continue;
      const finishedAt = new Date().toISOString();
      await this.redis.hset(this.statusKey(id), {
        status: 'failed',
        errorCode: INTERRUPTED.code,
        errorMessage: INTERRUPTED.message,
        finishedAt,
      });
      const payload: WebhookPayload = { id, status: 'failed', format: fields.format ?? 'unknown', size: 0, error: { ...INTERRUPTED } };
      await this.webhooks.add('deliver', { userId: fields.owner, url: fields.webhook, payload }, { jobId: id });
      log.warn({ renderId: id }, 'async render lost its gateway; marked failed and its webhook queued');
    }
  }
}
