import { type BucketState, type BucketTake, bucketState, type TokenBucketStore } from '@render/contracts';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../schema.ts';

/**
 * Token buckets in Postgres, shared by every replica of a service: `capacity` takes per `windowMs`,
 * refilled continuously. One upsert per take, on the database's clock, so replicas neither race nor
 * disagree about time. The capacity and window are part of the row key, so differently configured
 * replicas never share a bucket.
 */
export class PostgresTokenBuckets {
  private readonly refillPerMs: number;

  constructor(
    private readonly db: Kysely<DB>,
    /** Names the limit, e.g. "login:ip". */
    private readonly name: string,
    private readonly capacity: number,
    private readonly windowMs: number,
  ) {
    this.refillPerMs = capacity / windowMs;
  }

  /** Takes `units` tokens (one by default) for `key`; not allowed when fewer are left (the caller answers 429, saying when to retry). */
  async take(key: string, units = 1): Promise<BucketState> {
    const refilled = sql<number>`least(${this.capacity}::double precision, rate_limit_buckets.tokens + extract(epoch from (now() - rate_limit_buckets.updated_at)) * 1000 * ${this.refillPerMs}::double precision)`;
    const row = await this.db
      .insertInto('rate_limit_buckets')
      .values({
        key: `${this.name}:${this.capacity}/${this.windowMs}:${key}`,
        tokens: this.capacity >= units ? this.capacity - units : this.capacity,
        allowed: this.capacity >= units,
        updated_at: sql<Date>`now()`,
      })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          tokens: sql<number>`case when ${refilled} >= ${units}::double precision then ${refilled} - ${units}::double precision else ${refilled} end`,
          allowed: sql<boolean>`${refilled} >= ${units}::double precision`,
          updated_at: sql<Date>`now()`,
        }),
      )
      .returning(['allowed', 'tokens'])
      .executeTakeFirstOrThrow();
    return bucketState(Number(row.tokens), this.capacity, this.refillPerMs, row.allowed, units);
  }

  /** Rows of buckets that have refilled completely behave like absent ones; drops those older than `olderThanMs`. */
  static async prune(db: Kysely<DB>, olderThanMs: number): Promise<number> {
    const result = await db
      .deleteFrom('rate_limit_buckets')
      .where('updated_at', '<', sql<Date>`now() - ${olderThanMs} * interval '1 millisecond'`)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

/** What several buckets answered together: allowed when every one did, else when to come back. */
export interface SharedTake {
  allowed: boolean;
  /** Whole seconds until every refusing bucket has a token again (0 when allowed). */
  retryAfterSeconds: number;
}

/**
 * Several Postgres buckets (limits) per key as one `TokenBucketStore`. Every bucket is charged, so a burst
 * cannot slip through the stricter window, and all must allow.
 */
export class PostgresBucketSet implements TokenBucketStore {
  private readonly buckets: readonly PostgresTokenBuckets[];

  constructor(...buckets: PostgresTokenBuckets[]) {
    this.buckets = buckets;
  }

  async take(key: string, units = 1): Promise<BucketTake> {
    const states = await Promise.all(this.buckets.map((b) => b.take(key, units)));
    return { allowed: states.every((s) => s.allowed), buckets: states };
  }
}

/** Every bucket is charged (so a burst cannot slip through the stricter window) and all must allow. */
export async function takeAllShared(key: string, ...buckets: PostgresTokenBuckets[]): Promise<SharedTake> {
  return sharedTake((await new PostgresBucketSet(...buckets).take(key)).buckets);
}

/** Several takes as one verdict: refused when any was, to be retried once the slowest refusal has passed. */
export function sharedTake(states: readonly BucketState[]): SharedTake {
  const allowed = states.every((s) => s.allowed);
  const waitMs = Math.max(0, ...states.map((s) => s.retryAfterMs));
  return { allowed, retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(waitMs / 1000)) };
}
