import type { TokenBucketStore } from '@render/contracts';
import { describe, expect, it } from 'vitest';
import { MemoryTokenBuckets, TokenBuckets, takeAll } from '../src/token-buckets.ts';

// The in-memory buckets (the anonymous limit's fallback while Redis is away) report what they left, the same
// way the Redis and Postgres ones do (contracts' bucketState): the RateLimit and Retry-After headers read it.

const clock = () => {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
};

describe('TokenBuckets', () => {
  it('says what is left, when the next token is back, and when a refused take may be retried', () => {
    const time = clock();
    const minute = new TokenBuckets(20, 60_000, time.now);
    expect(minute.take('a')).toEqual({ allowed: true, capacity: 20, remaining: 19, nextTokenMs: 3_000, retryAfterMs: 0 });
    expect(minute.take('a', 19)).toMatchObject({ allowed: true, remaining: 0, nextTokenMs: 3_000 });
    expect(minute.take('a')).toEqual({ allowed: false, capacity: 20, remaining: 0, nextTokenMs: 3_000, retryAfterMs: 3_000 });
    time.advance(1_500);
    expect(minute.take('a')).toMatchObject({ allowed: false, retryAfterMs: 1_500, nextTokenMs: 1_500 });
    // A render costing 4 units waits for all four.
    expect(minute.take('a', 4)).toMatchObject({ allowed: false, retryAfterMs: 10_500 });
    time.advance(1_500);
    expect(minute.take('a')).toMatchObject({ allowed: true, remaining: 0 });
    // Another key starts full, and a full bucket has no next token to wait for.
    expect(minute.peek('b')).toEqual({ allowed: true, capacity: 20, remaining: 20, nextTokenMs: 0, retryAfterMs: 0 });
  });

  it('takes from every bucket or from none (a day refused does not spend the minute)', () => {
    const time = clock();
    const buckets = [new TokenBuckets(5, 60_000, time.now), new TokenBuckets(3, 86_400_000, time.now)];
    for (let i = 0; i < 3; i++) expect(takeAll(buckets, 'ip').allowed).toBe(true);
    const refused = takeAll(buckets, 'ip');
    expect(refused.allowed).toBe(false);
    expect(refused.buckets[0]).toMatchObject({ allowed: true, remaining: 2 });
    expect(refused.buckets[1]).toMatchObject({ allowed: false, remaining: 0, retryAfterMs: 28_800_000 });
    expect(buckets[0]?.peek('ip').remaining).toBe(2);
  });
});

describe('MemoryTokenBuckets', () => {
  it('is a TokenBucketStore: several limits per key, taken all or nothing, each reporting what is left', async () => {
    const time = clock();
    const store: TokenBucketStore = new MemoryTokenBuckets(
      [
        { capacity: 5, windowMs: 60_000 },
        { capacity: 3, windowMs: 86_400_000 },
      ],
      time.now,
    );
    expect(await store.take('ip', 2)).toMatchObject({ allowed: true, buckets: [{ remaining: 3 }, { remaining: 1 }] });
    const refused = await store.take('ip', 2);
    // The day bucket lacks a unit: nothing is taken from the minute bucket either.
    expect(refused.allowed).toBe(false);
    expect(refused.buckets.map((b) => b.remaining)).toEqual([3, 1]);
    expect(refused.buckets[1]?.retryAfterMs).toBeGreaterThan(0);
    expect((await store.take('other')).buckets.map((b) => b.remaining)).toEqual([4, 2]);
  });
});
