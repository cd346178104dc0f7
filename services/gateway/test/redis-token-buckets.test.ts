import { RedisTokenBuckets } from '@render/queue';
import { testRedisUrl } from '@render/test-stack/redis';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniquePrefix } from './helpers/stack.ts';

// The anonymous limits' buckets (packages/queue): per minute and per day in one Redis hash per address, taken
// all or nothing by one script call that also answers what each bucket has left (the RateLimit fields).

let redis: Redis;

beforeAll(async () => {
  redis = new Redis(await testRedisUrl());
});

afterAll(async () => {
  redis?.disconnect();
});

const limits = [
  { capacity: 20, windowMs: 60_000 },
  { capacity: 3, windowMs: 86_400_000 },
];

describe('RedisTokenBuckets', () => {
  it('takes units from every bucket and says what each has left and when its next unit is back', async () => {
    const buckets = new RedisTokenBuckets(redis, uniquePrefix('rl'), limits);
    const first = await buckets.take('198.18.0.1', 2);
    expect(first.allowed).toBe(true);
    expect(first.buckets[0]).toMatchObject({ allowed: true, capacity: 20, remaining: 18, retryAfterMs: 0 });
    expect(first.buckets[1]).toMatchObject({ allowed: true, capacity: 3, remaining: 1, retryAfterMs: 0 });
    // One unit every 3 s and every 8 h: the state is read right after the take, so at most that.
    expect(first.buckets[0]?.nextTokenMs).toBeLessThanOrEqual(3_000);
    expect(first.buckets[0]?.nextTokenMs).toBeGreaterThan(2_000);
    expect(first.buckets[1]?.nextTokenMs).toBeLessThanOrEqual(28_800_000);
  });

  it('takes nothing when one bucket lacks the units, and says which and for how long', async () => {
    const prefix = uniquePrefix('rl');
    const buckets = new RedisTokenBuckets(redis, prefix, limits);
    expect((await buckets.take('ip', 3)).allowed).toBe(true);
    const refused = await buckets.take('ip', 1);
    expect(refused.allowed).toBe(false);
    // The minute had enough and keeps it: 17 before, 17 after.
    expect(refused.buckets[0]).toMatchObject({ allowed: true, remaining: 17, retryAfterMs: 0 });
    expect(refused.buckets[1]).toMatchObject({ allowed: false, remaining: 0 });
    expect(refused.buckets[1]?.retryAfterMs).toBeGreaterThan(28_000_000);
    expect((await buckets.take('ip', 0)).buckets[0]?.remaining).toBe(17);
    // One hash per key, kept as long as the longest window needs to refill.
    const keys = await redis.keys(`${prefix}:*`);
    expect(keys).toEqual([`${prefix}:20/60000,3/86400000:ip`]);
    expect(await redis.pttl(keys[0] as string)).toBeGreaterThan(86_000_000);
  });

  it('keeps differently configured replicas apart (the limits are part of the key)', async () => {
    const prefix = uniquePrefix('rl');
    await new RedisTokenBuckets(redis, prefix, limits).take('ip', 3);
    const other = new RedisTokenBuckets(redis, prefix, [
      { capacity: 20, windowMs: 60_000 },
      { capacity: 4, windowMs: 86_400_000 },
    ]);
    expect((await other.take('ip', 1)).allowed).toBe(true);
  });
});
