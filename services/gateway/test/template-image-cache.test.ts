import { testRedisUrl } from '@render/test-stack/redis';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CachedImage, ImageCache } from '../src/images/image-cache.ts';
import { uniquePrefix } from './helpers/stack.ts';

let redis: Redis;
const prefix = uniquePrefix('tpl-cache');

beforeAll(async () => {
  redis = new Redis(await testRedisUrl());
});

afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

const image = (bytes: number, fill = 1): CachedImage => ({
  bytes: Buffer.alloc(bytes, fill),
  format: 'png',
  mimeType: 'image/png',
  width: 10,
  height: 10,
});

describe('ImageCache (real Redis)', () => {
  it('keys a rendition by template version and query', () => {
    const key = ImageCache.keyOf('t1', '2026-01-01T00:00:00.000Z', 't1?a=1');
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(ImageCache.keyOf('t1', '2026-01-02T00:00:00.000Z', 't1?a=1')).not.toBe(key);
    expect(ImageCache.keyOf('t1', '2026-01-01T00:00:00.000Z', 't1?a=2')).not.toBe(key);
  });

  it('round-trips bytes and metadata, with a TTL', async () => {
    const cache = new ImageCache(redis, { prefix, namespace: 'tpl-img', ttlSeconds: 60, maxEntries: 10, maxEntryBytes: 1024 });
    await cache.set('k1', image(100, 7));
    const hit = await cache.get('k1');
    expect(hit?.bytes.equals(Buffer.alloc(100, 7))).toBe(true);
    expect(hit).toMatchObject({ format: 'png', mimeType: 'image/png', width: 10, height: 10 });
    const ttl = await redis.ttl(`${prefix}:tpl-img:k1`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60);
    expect(await cache.get('missing')).toBeUndefined();
  });

  it('does not keep entries above the size cap and evicts the oldest past the count', async () => {
    const cache = new ImageCache(redis, {
      prefix: `${prefix}-b`,
      namespace: 'tpl-img',
      ttlSeconds: 60,
      maxEntries: 2,
      maxEntryBytes: 1024,
    });
    await cache.set('big', image(2048));
    expect(await cache.get('big')).toBeUndefined();
    await cache.set('a', image(10));
    await cache.set('b', image(10));
    await cache.set('c', image(10));
    expect(await cache.get('a')).toBeUndefined();
    expect(await cache.get('b')).toBeDefined();
    expect(await cache.get('c')).toBeDefined();
    expect(await redis.zcard(`${prefix}-b:tpl-img:index`)).toBe(2);
    const keys = await redis.keys(`${prefix}-b:*`);
    if (keys.length > 0) await redis.del(...keys);
  });
});
