/**
 * In-memory token buckets. Good enough for one auth process; with several replicas each keeps its own
 * counts (limits multiply by the replica count), so this moves to Redis when the service is scaled out.
 */
export class RateLimiter {
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

  /** Drops buckets that have refilled completely: they behave exactly like absent ones. */
  private prune(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + (now - bucket.updatedAt) * this.refillPerMs >= this.capacity) this.buckets.delete(key);
    }
  }
}

/** All limiters must allow; every one is charged so a burst cannot slip through the stricter window. */
export const takeAll = (key: string, ...limiters: RateLimiter[]): boolean => limiters.map((l) => l.take(key)).every(Boolean);
