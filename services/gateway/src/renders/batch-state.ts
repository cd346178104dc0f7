import {
  type BatchItemKind,
  type BatchItemStatus,
  type BatchItemView,
  type BatchStatus,
  type BatchView,
  type BatchWebhookPayload,
  batchFileName,
} from '@render/contracts';
import type { WebhookJobData } from '@render/queue';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/** What a batch is recorded as when it is accepted. */
export interface OpenedBatch {
  id: string;
  owner: string;
  createdAt: Date;
  expiresAtSeconds: number;
  /** When it counts as orphaned unless its gateway says it is alive (`heartbeat`): epoch milliseconds. */
  orphanAt: number;
  webhook: string | null;
  items: readonly { kind: BatchItemKind; format: string }[];
}

/** An item as kept: its view without the index (the hash field is the index). */
type StoredItem = Omit<BatchItemView, 'index'>;

export interface MadeImage {
  bytes: Buffer;
  mimeType: string;
  width: number;
  height: number;
}

const SWEEP_BATCH = 20;
const isUuid = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id);

/** What an item whose gateway stopped before it ended says; its credits were only reserved, never charged. */
export const INTERRUPTED = {
  code: 'RENDER_FAILED',
  message: 'Failed to generate image: the batch was interrupted (the server handling it stopped). No credit was charged for this item.',
} as const;

/** The job id of a batch's one webhook delivery (BullMQ ids may not hold ':'): a second add does nothing. */
export const batchWebhookJobId = (id: string) => `batch-${id}`;

/**
 * Batches' state in Redis under the gateway's prefix, so any replica answers the status and the archive: a
 * hash per batch (`<prefix>:batch:<id>`: owner, counts, status), a hash of its items by index (`…:items`,
 * each a JSON view) and each made image (`…:image:<index>`), all expiring with the batch; the batches not yet
 * ended, scored by when they count as orphaned (renewed by their gateway as items start and end; whoever
 * removes one first, that gateway or a sweep, records its end and queues its webhook).
 */
export class BatchState {
  private readonly openKey: string;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {
    this.openKey = `${prefix}:batches:open`;
  }

  private key(id: string): string {
    return `${this.prefix}:batch:${id}`;
  }

  private itemsKey(id: string): string {
    return `${this.key(id)}:items`;
  }

  private imageKey(id: string, index: number): string {
    return `${this.key(id)}:image:${index}`;
  }

  async open(batch: OpenedBatch): Promise<void> {
    const items = Object.fromEntries(
      batch.items.map((item, index) => [
        String(index),
        JSON.stringify({ kind: item.kind, format: item.format, status: 'queued' } satisfies StoredItem),
      ]),
    );
    await this.redis
      .multi()
      .hset(this.key(batch.id), {
        owner: batch.owner,
        status: 'queued',
        total: String(batch.items.length),
        done: '0',
        failed: '0',
        createdAt: batch.createdAt.toISOString(),
        expiresAt: new Date(batch.expiresAtSeconds * 1000).toISOString(),
        // Read back only by a sweep, should this gateway stop before the batch ends.
        webhook: batch.webhook ?? '',
      })
      .expireat(this.key(batch.id), batch.expiresAtSeconds)
      .hset(this.itemsKey(batch.id), items)
      .expireat(this.itemsKey(batch.id), batch.expiresAtSeconds)
      .zadd(this.openKey, batch.orphanAt, batch.id)
      .exec();
  }

  /** The batch's gateway is alive and working on it: it is not an orphan before `orphanAt`. */
  async heartbeat(id: string, orphanAt: number): Promise<void> {
    await this.redis.zadd(this.openKey, 'XX', orphanAt, id);
  }

  async itemRunning(id: string, index: number, item: StoredItem): Promise<void> {
    await this.redis
      .multi()
      .hset(this.key(id), { status: 'running' })
      .hset(this.itemsKey(id), String(index), JSON.stringify({ ...item, status: 'running' }))
      .exec();
  }

  /** The image first, then the item's status that points at it: an item read as done always has its image. */
  async itemDone(id: string, index: number, item: StoredItem, image: MadeImage, expiresAtSeconds: number): Promise<void> {
    await this.redis.set(this.imageKey(id, index), image.bytes, 'EXAT', expiresAtSeconds);
    const done: StoredItem = {
      ...item,
      status: 'done',
      contentType: image.mimeType,
      size: image.bytes.length,
      width: image.width,
      height: image.height,
      file: batchFileName(index, item.format),
    };
    await this.redis.multi().hset(this.itemsKey(id), String(index), JSON.stringify(done)).hincrby(this.key(id), 'done', 1).exec();
  }

  async itemFailed(id: string, index: number, item: StoredItem, error: { code: string; message: string }): Promise<void> {
    const failed: StoredItem = { ...item, status: 'failed', error };
    await this.redis.multi().hset(this.itemsKey(id), String(index), JSON.stringify(failed)).hincrby(this.key(id), 'failed', 1).exec();
  }

  /** Records the batch's end and answers its webhook delivery, unless a sweep already ended it (then null). */
  async finish(id: string, owner: string, webhook: string | null): Promise<WebhookJobData | null> {
    if ((await this.redis.zrem(this.openKey, id)) === 0) return null;
    await this.redis.hset(this.key(id), { status: 'done', finishedAt: new Date().toISOString() });
    return webhook ? { userId: owner, url: webhook, payload: await this.webhookPayload(id) } : null;
  }

  private async webhookPayload(id: string): Promise<BatchWebhookPayload> {
    const [total, done, failed] = await this.redis.hmget(this.key(id), 'total', 'done', 'failed');
    return { id, type: 'batch', status: 'done', total: Number(total), done: Number(done), failed: Number(failed) };
  }

  /** The batch's status when `userId` owns it; another account's batch reads as missing, as an unknown one. */
  async view(id: string, userId: string): Promise<BatchView | null> {
    if (!isUuid(id)) return null;
    const [fields, items] = await Promise.all([this.redis.hgetall(this.key(id)), this.redis.hgetall(this.itemsKey(id))]);
    if (fields.owner !== userId) return null;
    const total = Number(fields.total);
    const views: BatchItemView[] = Array.from({ length: total }, (_, index) => {
      const raw = items[String(index)];
      const stored = raw
        ? (JSON.parse(raw) as StoredItem)
        : { kind: 'html' as const, format: 'unknown', status: 'failed' as BatchItemStatus };
      return { index, ...stored };
    });
    const status = (fields.status ?? 'queued') as BatchStatus;
    return {
      id,
      status,
      total,
      done: Number(fields.done ?? 0),
      failed: Number(fields.failed ?? 0),
      createdAt: fields.createdAt ?? new Date(0).toISOString(),
      ...(fields.finishedAt ? { finishedAt: fields.finishedAt } : {}),
      expiresAt: fields.expiresAt ?? new Date(0).toISOString(),
      ...(status === 'done' ? { archiveUrl: `/api/batches/${id}/archive` } : {}),
      items: views,
    };
  }

  /** The images of a batch's done items, with their file names (an image already expired is left out). */
  async images(id: string, items: readonly BatchItemView[]): Promise<{ name: string; bytes: Buffer; format: string }[]> {
    const done = items.filter((item) => item.status === 'done');
    const bytes = await Promise.all(done.map((item) => this.redis.getBuffer(this.imageKey(id, item.index))));
    return done.flatMap((item, i) => {
      const image = bytes[i];
      return image ? [{ name: item.file ?? batchFileName(item.index, item.format), bytes: image, format: item.format }] : [];
    });
  }

  /**
   * Batches whose gateway stopped (crashed, killed) before they ended would stay running until they expire and
   * their webhook would never come: any gateway marks their unfinished items failed, ends them and answers the
   * webhooks to queue. Those items' credits were only reserved; the account service's sweep gives them back.
   */
  async sweepOrphans(log: FastifyBaseLogger, now = Date.now()): Promise<{ jobId: string; job: WebhookJobData }[]> {
    const ids = await this.redis.zrangebyscore(this.openKey, '-inf', now, 'LIMIT', 0, SWEEP_BATCH);
    const webhooks: { jobId: string; job: WebhookJobData }[] = [];
    for (const id of ids) {
      if ((await this.redis.zrem(this.openKey, id)) === 0) continue; // another gateway took it
      const fields = await this.redis.hgetall(this.key(id));
      if (!fields.owner || fields.status === 'done') continue;
      const items = await this.redis.hgetall(this.itemsKey(id));
      for (const [index, raw] of Object.entries(items)) {
        const item = JSON.parse(raw) as StoredItem;
        if (item.status === 'queued' || item.status === 'running') await this.itemFailed(id, Number(index), item, { ...INTERRUPTED });
      }
      await this.redis.hset(this.key(id), { status: 'done', finishedAt: new Date().toISOString() });
      if (fields.webhook)
        webhooks.push({
          jobId: batchWebhookJobId(id),
          job: { userId: fields.owner, url: fields.webhook, payload: await this.webhookPayload(id) },
        });
      log.warn({ batchId: id }, 'batch lost its gateway; its unfinished items marked failed');
    }
    return webhooks;
  }
}
