import { createHash } from 'node:crypto';
import { ImageMeta } from '@render/contracts';
import type { RenderedImage } from '@render/queue';
import type { Redis } from 'ioredis';
import { Compile } from 'typebox/compile';

/** A cached rendition: the image and its metadata, as the worker described it. */
export type CachedImage = RenderedImage;

const metaShape = Compile(ImageMeta);

export interface ImageCacheOptions {
  prefix: string;
  /** Keys are `<prefix>:<namespace>:…`: one cache per use (signed template URLs, convert calls). */
  namespace: string;
  /** The longest an entry is kept (each `set` may ask for less). */
  ttlSeconds: number;
  maxEntries: number;
  maxEntryBytes: number;
}

/**
 * Rendered images in Redis, so an identical request renders (and charges) once: signed template URLs (an
 * `<img>` on a busy page) and convert calls that ask for it (`cache`). Bounded three ways, since Redis runs
 * with noeviction and its memory is the queues' too: every entry expires after its TTL, entries above
 * `maxEntryBytes` are not kept, and an index sorted by insertion time evicts the oldest past `maxEntries`.
 */
export class ImageCache {
  private readonly index: string;

  constructor(
    private readonly redis: Redis,
    private readonly opts: ImageCacheOptions,
  ) {
    this.index = `${opts.prefix}:${opts.namespace}:index`;
  }

  /** A key made of parts (e.g. a template version and the exact query, signature excluded). */
  static keyOf(...parts: string[]): string {
    return createHash('sha256').update(parts.join('\n')).digest('hex');
  }

  private entryKey(key: string) {
    return `${this.opts.prefix}:${this.opts.namespace}:${key}`;
  }

  async get(key: string): Promise<CachedImage | undefined> {
    const [meta, bytes] = await this.redis.hmgetBuffer(this.entryKey(key), 'meta', 'bytes');
    if (!meta || !bytes) return undefined;
    // An entry written by another version of the gateway may not fit: it is a miss, and gets rewritten.
    const parsed: unknown = JSON.parse(meta.toString('utf8'));
    return metaShape.Check(parsed)
      ? {
          format: parsed.format,
          mimeType: parsed.mimeType,
          width: parsed.width,
          height: parsed.height,
          warnings: parsed.warnings,
          ...(parsed.metadata ? { metadata: parsed.metadata } : {}),
          bytes,
        }
      : undefined;
  }

  async set(key: string, image: CachedImage, ttlSeconds = this.opts.ttlSeconds): Promise<void> {
    if (image.bytes.length > this.opts.maxEntryBytes) return;
    const { bytes, ...meta } = image;
    const now = Date.now();
    const entry = this.entryKey(key);
    await this.redis
      .multi()
      .hset(entry, 'meta', JSON.stringify(meta), 'bytes', bytes)
      .expire(entry, Math.min(ttlSeconds, this.opts.ttlSeconds))
      .zadd(this.index, now, key)
      // Members whose entries have expired by now carry no data; drop them so they do not count.
      .zremrangebyscore(this.index, '-inf', now - this.opts.ttlSeconds * 1000)
      .expire(this.index, this.opts.ttlSeconds)
      .exec();
    const excess = (await this.redis.zcard(this.index)) - this.opts.maxEntries;
    if (excess > 0) {
      const evicted = (await this.redis.zpopmin(this.index, excess)).filter((_, i) => i % 2 === 0);
      if (evicted.length > 0) await this.redis.del(...evicted.map((k) => this.entryKey(k)));
    }
  }
}
