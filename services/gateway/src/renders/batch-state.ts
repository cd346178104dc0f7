import {
  type BatchEndStatus,
  type BatchItemKind,
  type BatchItemStatus,
  type BatchItemView,
  type BatchStatus,
  type BatchView,
  type BatchWebhookPayload,
  batchFileName,
} from '@render/contracts';
import type { RenderKind, WebhookJobData } from '@render/queue';
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
  /** Each item's job: its queue and ledger ids, by index (what a cancel, from any replica, withdraws and releases). */
  jobs: readonly ItemJob[];
}

/** Where an item's render goes and what it reserved: the queue, the job id (its first credit's) and further credits. */
export interface ItemJob {
  queue: RenderKind;
  jobId: string;
  extras: string[];
}

/** What a cancel found: unknown (or someone else's), already ended, or done now (the items it cancelled, those running). */
export type CancelOutcome = { kind: 'missing' } | { kind: 'ended' } | { kind: 'cancelling'; cancelled: number[]; running: number[] };

/** An item as kept: its view without the index (the hash field is the index). */
type StoredItem = Omit<BatchItemView, 'index'>;

export interface MadeImage {
  bytes: Buffer;
  mimeType: string;
  width: number;
  height: number;
}

const SWEEP_BATCH = 20;
/** Whether a batch with this status has ended (its archive ready, nothing left to cancel). */
export const hasEnded = (status: string | undefined): boolean => status === 'done' || status === 'cancelled';
const isUuid = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id);

/** What an item whose gateway stopped before it ended says; its credits were only reserved, never charged. */
export const INTERRUPTED = {
  code: 'RENDER_FAILED',
  message: 'Failed to generate image: the batch was interrupted (the server handling it stopped). No credit was charged for this item.',
} as const;

/** The job id of a batch's one webhook delivery (BullMQ ids may not hold ':'): a second add does nothing. */
export const batchWebhookJobId = (id: string) => `batch-${id}`;

// Items change status through these scripts only, each one atomic in Redis: an item moves on only from the
// statuses named (so of a cancel and a lane starting the same item, or of a withdrawal and the item's own
// failure, exactly one wins), and each count is incremented by the move that made it.

/** KEYS batch, items; ARGV index, the item's new JSON, the count to increment ('' none), then the statuses it may leave. */
const MOVE_ITEM = `local raw = redis.call('HGET', KEYS[2], ARGV[1])
if not raw then return 0 end
local status = cjson.decode(raw).status
for i = 4, #ARGV do
  if status == ARGV[i] then
    redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
    if ARGV[3] ~= '' then redis.call('HINCRBY', KEYS[1], ARGV[3], 1) end
    return 1
  end
end
return 0`;

/** KEYS batch, items; ARGV index, the item's running JSON. A queued item of a batch not being cancelled starts. */
const START_ITEM = `local batch = redis.call('HGET', KEYS[1], 'status')
if batch ~= 'queued' and batch ~= 'running' then return 0 end
local raw = redis.call('HGET', KEYS[2], ARGV[1])
if not raw or cjson.decode(raw).status ~= 'queued' then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[1], 'status', 'running')
return 1`;

/**
 * KEYS batch, items, open batches; ARGV id, owner, now (ISO). Only the owner's batch, and only while it is
 * open (its end removes it from the open set first): its queued items cancelled, its status cancelling.
 * Answers the outcome, the indexes cancelled and those running (comma-separated).
 */
const CANCEL = `if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[2] then return {'missing'} end
if not redis.call('ZSCORE', KEYS[3], ARGV[1]) then return {'ended'} end
redis.call('HSET', KEYS[1], 'status', 'cancelling')
redis.call('HSETNX', KEYS[1], 'cancelledAt', ARGV[3])
local items = redis.call('HGETALL', KEYS[2])
local cancelled, running = {}, {}
for i = 1, #items, 2 do
  local item = cjson.decode(items[i + 1])
  if item.status == 'queued' then
    item.status = 'cancelled'
    redis.call('HSET', KEYS[2], items[i], cjson.encode(item))
    table.insert(cancelled, items[i])
  elseif item.status == 'running' then
    table.insert(running, items[i])
  end
end
if #cancelled > 0 then redis.call('HINCRBY', KEYS[1], 'cancelled', #cancelled) end
return {'cancelling', table.concat(cancelled, ','), table.concat(running, ',')}`;

const indexes = (list: string | undefined) => (list ? list.split(',').map(Number) : []);
/** How a batch ends: cancelled when a cancel was asked before its end, else done. */
const endOf = (status: string | undefined): BatchEndStatus => (status === 'cancelling' ? 'cancelled' : 'done');

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

  private jobsKey(id: string): string {
    return `${this.key(id)}:jobs`;
  }

  /** Moves item `index` to `item` if its status is one of `from`; counts it in `count`. False when it was not. */
  private async move(id: string, index: number, item: StoredItem, count: 'done' | 'failed' | 'cancelled', from: BatchItemStatus[]) {
    const moved = await this.redis.eval(MOVE_ITEM, 2, this.key(id), this.itemsKey(id), String(index), JSON.stringify(item), count, ...from);
    return moved === 1;
  }

  async open(batch: OpenedBatch): Promise<void> {
    const items = Object.fromEntries(
      batch.items.map((item, index) => [
        String(index),
        JSON.stringify({ kind: item.kind, format: item.format, status: 'queued' } satisfies StoredItem),
      ]),
    );
    const multi = this.redis.multi();
    if (batch.jobs.length > 0) {
      const jobs = Object.fromEntries(batch.jobs.map((job, index) => [String(index), JSON.stringify(job)]));
      multi.hset(this.jobsKey(batch.id), jobs).expireat(this.jobsKey(batch.id), batch.expiresAtSeconds);
    }
    await multi
      .hset(this.key(batch.id), {
        owner: batch.owner,
        status: 'queued',
        total: String(batch.items.length),
        done: '0',
        failed: '0',
        cancelled: '0',
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

  /** Starts a queued item; false when it may not start (cancelled, or the batch is being cancelled). */
  async itemRunning(id: string, index: number, item: StoredItem): Promise<boolean> {
    const started = await this.redis.eval(
      START_ITEM,
      2,
      this.key(id),
      this.itemsKey(id),
      String(index),
      JSON.stringify({ ...item, status: 'running' }),
    );
    return started === 1;
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
    if (!(await this.move(id, index, done, 'done', ['running']))) await this.redis.del(this.imageKey(id, index));
  }

  /** A running item failed (one a cancel withdrew first stays cancelled; a sweep fails a queued one too). */
  async itemFailed(id: string, index: number, item: StoredItem, error: { code: string; message: string }): Promise<void> {
    await this.move(id, index, { ...item, status: 'failed', error }, 'failed', ['running', 'queued']);
  }

  /** A running item whose job a cancel withdrew before any worker took it; false when it had ended meanwhile. */
  itemCancelled(id: string, index: number, item: StoredItem): Promise<boolean> {
    return this.move(id, index, { ...item, status: 'cancelled' }, 'cancelled', ['running']);
  }

  /**
   * Cancels the owner's batch while it is open: its queued items at once (atomically: no lane starts one
   * after), the batch `cancelling` until its running items end. Another account's batch reads as missing.
   */
  async cancel(id: string, userId: string): Promise<CancelOutcome> {
    if (!isUuid(id)) return { kind: 'missing' };
    const keys = [this.key(id), this.itemsKey(id), this.openKey];
    const [outcome, cancelled, running] = (await this.redis.eval(CANCEL, 3, ...keys, id, userId, new Date().toISOString())) as string[];
    if (outcome === 'missing' || outcome === 'ended') return { kind: outcome };
    return { kind: 'cancelling', cancelled: indexes(cancelled), running: indexes(running) };
  }

  /** The jobs of the batch's items, by index (what it reserved; read back by a cancel). */
  async jobs(id: string): Promise<Map<number, ItemJob>> {
    const raw = await this.redis.hgetall(this.jobsKey(id));
    return new Map(Object.entries(raw).map(([index, job]) => [Number(index), JSON.parse(job) as ItemJob]));
  }

  /**
   * Records the batch's end (cancelled when a cancel was asked first, else done) and answers its webhook
   * delivery, unless a sweep already ended it (then null). Leaving the open set first is what ends it: a
   * cancel from then on finds it ended.
   */
  async finish(id: string, owner: string, webhook: string | null): Promise<WebhookJobData | null> {
    if ((await this.redis.zrem(this.openKey, id)) === 0) return null;
    const status = endOf((await this.redis.hget(this.key(id), 'status')) ?? undefined);
    await this.redis.hset(this.key(id), { status, finishedAt: new Date().toISOString() });
    return webhook ? { userId: owner, url: webhook, payload: await this.webhookPayload(id, status) } : null;
  }

  private async webhookPayload(id: string, status: BatchEndStatus): Promise<BatchWebhookPayload> {
    const [total, done, failed, cancelled] = await this.redis.hmget(this.key(id), 'total', 'done', 'failed', 'cancelled');
    const count = (value: string | null | undefined) => Number(value ?? 0);
    return { id, type: 'batch', status, total: count(total), done: count(done), failed: count(failed), cancelled: count(cancelled) };
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
      cancelled: Number(fields.cancelled ?? 0),
      createdAt: fields.createdAt ?? new Date(0).toISOString(),
      ...(fields.cancelledAt ? { cancelledAt: fields.cancelledAt } : {}),
      ...(fields.finishedAt ? { finishedAt: fields.finishedAt } : {}),
      expiresAt: fields.expiresAt ?? new Date(0).toISOString(),
      ...(hasEnded(status) ? { archiveUrl: `/api/batches/${id}/archive` } : {}),
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
      if (!fields.owner || hasEnded(fields.status)) continue;
      const items = await this.redis.hgetall(this.itemsKey(id));
      for (const [index, raw] of Object.entries(items)) {
        const item = JSON.parse(raw) as StoredItem;
        if (item.status === 'queued' || item.status === 'running') await this.itemFailed(id, Number(index), item, { ...INTERRUPTED });
      }
      const status = endOf(fields.status);
      await this.redis.hset(this.key(id), { status, finishedAt: new Date().toISOString() });
      if (fields.webhook)
        webhooks.push({
          jobId: batchWebhookJobId(id),
          job: { userId: fields.owner, url: fields.webhook, payload: await this.webhookPayload(id, status) },
        });
      log.warn({ batchId: id }, 'batch lost its gateway; its unfinished items marked failed');
    }
    return webhooks;
  }
}
