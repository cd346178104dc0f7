/**
 * In-memory token buckets (e.g. per client IP or per account). Per process: with N replicas a key gets N
 * times the limit; limits that must hold across replicas use @render/queue's RedisTokenBuckets.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; updatedAt: number }>();
  private readonly refillPerMs: number;

  constructor(
    private readonly capacity: number,
    windowMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.refillPerMs = capacity / windowMs;
  }

  /** Takes one token for `key`; false when the bucket is empty (the caller answers 429). */
  take(key: string): boolean {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.capacity, updatedAt: now };
    bucket.tokens = Math.min(this.capacity, bucket.tokens + (now - bucket.updatedAt) * this.refillPerMs);
    bucket.updatedAt = now;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    this.buckets.set(key, bucket);
    if (this.buckets.size > 50_000) this.prune(now);
    return allowed;
  }

  /** Full buckets behave exactly like absent ones, so they can go (bounds memory under many keys). */
  private prune(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + (now - bucket.updatedAt) * this.refillPerMs >= this.capacity) this.buckets.delete(key);
    }
  }
}
