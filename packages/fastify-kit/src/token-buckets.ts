import { type BucketState, type BucketTake, bucketState, type TokenBucketStore } from '@render/contracts';

/**
 * In-memory token buckets (e.g. per client IP or per account). Per process: with N replicas a key gets N
 * times the limit; limits that must hold across replicas use @render/queue's RedisTokenBuckets.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; updatedAt: number }>();
  private readonly refillPerMs: number;

  constructor(
    readonly capacity: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.refillPerMs = capacity / windowMs;
  }

  /** Takes `units` tokens for `key`, or none when fewer are left (the caller answers 429 with what it says). */
  take(key: string, units = 1): BucketState {
    return this.apply(key, units, true);
  }

  /** What `take` would answer, without taking anything. */
  peek(key: string, units = 1): BucketState {
    return this.apply(key, units, false);
  }

  private apply(key: string, units: number, commit: boolean): BucketState {
    const tokens = this.level(key);
    const allowed = tokens >= units;
    const left = allowed && commit ? tokens - units : tokens;
    if (commit) {
      this.buckets.set(key, { tokens: left, updatedAt: this.now() });
      if (this.buckets.size > 50_000) this.prune(this.now());
    }
    return bucketState(left, this.capacity, this.refillPerMs, allowed, units);
  }

  /** The tokens `key` has now (refilled), without taking any. */
  level(key: string): number {
    const now = this.now();
    const bucket = this.buckets.get(key);
    if (!bucket) return this.capacity;
    return Math.min(this.capacity, bucket.tokens + (now - bucket.updatedAt) * this.refillPerMs);
  }

  /** Full buckets behave exactly like absent ones, so they can go (bounds memory under many keys). */
  private prune(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + (now - bucket.updatedAt) * this.refillPerMs >= this.capacity) this.buckets.delete(key);
    }
  }
}

/**
 * Takes `units` from every bucket of `key`, or from none when one of them has fewer (so a refusal by the
 * longer window does not also spend the shorter one). Answers each bucket's state, in order.
 */
export function takeAll(buckets: readonly TokenBuckets[], key: string, units = 1): BucketTake {
  const allowed = buckets.every((bucket) => bucket.peek(key, units).allowed);
  return { allowed, buckets: buckets.map((bucket) => (allowed ? bucket.take(key, units) : bucket.peek(key, units))) };
}

/**
 * In-memory buckets per key under several limits at once (e.g. per minute and per day), taken all or nothing:
 * the one-process `TokenBucketStore` (a fallback while a shared store is away, or a limit per replica).
 */
export class MemoryTokenBuckets implements TokenBucketStore {
  private readonly buckets: TokenBuckets[];

  constructor(limits: readonly { capacity: number; windowMs: number }[], now: () => number = Date.now) {
    this.buckets = limits.map((limit) => new TokenBuckets(limit.capacity, limit.windowMs, now));
  }

  async take(key: string, units = 1): Promise<BucketTake> {
    return takeAll(this.buckets, key, units);
  }
}
