import type { BucketState } from '@render/contracts';

/**
 * The RateLimit-Policy and RateLimit fields of the IETF httpapi draft (draft-ietf-httpapi-ratelimit-headers-11):
 * Structured Field Lists whose items are a quoted policy name with parameters. Policy: `q` (quota), `w` (window
 * in seconds), `qu` (quota unit, "requests" when absent). RateLimit: `r` (quota left), `t` (seconds within which
 * no more than `r` may be used: until the next unit is back; absent when the bucket is full).
 */

/** A token bucket the call drew from: its policy name, window and state after the take. */
export interface BucketLimit {
  name: string;
  windowSeconds: number;
  state: BucketState;
}

/** A concurrency limit: its quota and how many of its slots are in use when the answer goes out. */
export interface ConcurrencyLimit {
  name: string;
  quota: number;
  inUse(): number;
}

// Policy names are our own tokens (letters, digits, dashes): quoting them needs no escaping.
const item = (name: string, params: Record<string, number | string>) =>
  [`"${name}"`, ...Object.entries(params).map(([k, v]) => `${k}=${typeof v === 'string' ? `"${v}"` : v}`)].join(';');

export function rateLimitPolicy(buckets: readonly BucketLimit[], concurrency: ConcurrencyLimit | null): string {
  const items = buckets.map((b) => item(b.name, { q: b.state.capacity, w: b.windowSeconds }));
  if (concurrency) items.push(item(concurrency.name, { q: concurrency.quota, qu: 'concurrent-requests' }));
  return items.join(', ');
}

export function rateLimit(buckets: readonly BucketLimit[], concurrency: ConcurrencyLimit | null): string {
  const items = buckets.map(({ name, state }) =>
    item(name, state.nextTokenMs > 0 ? { r: state.remaining, t: Math.ceil(state.nextTokenMs / 1000) } : { r: state.remaining }),
  );
  if (concurrency) items.push(item(concurrency.name, { r: Math.max(0, concurrency.quota - concurrency.inUse()) }));
  return items.join(', ');
}
