import type { TokenBucketStore } from '@render/contracts';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DB, migrateToLatest, PostgresBucketSet, PostgresTokenBuckets, sharedTake, takeAllShared } from '../src/index.ts';
import { createThrowawayDatabase, type ThrowawayDatabase } from './helpers/throwaway-database.ts';

// The auth service's login and mail limits: buckets in Postgres that say what they left, so a 429 carries a
// true Retry-After (how long until the refusing bucket has a token again, on the database's clock).

let database: ThrowawayDatabase;
let db: Kysely<DB>;

beforeAll(async () => {
  database = await createThrowawayDatabase();
  db = createDb(database.url, { poolSize: 2 });
  await migrateToLatest(db);
});

afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

const HOUR_MS = 3_600_000;

describe('PostgresTokenBuckets', () => {
  it('reports the tokens left and, once empty, when the next one is back', async () => {
    const perHour = new PostgresTokenBuckets(db, 'test:hour', 2, HOUR_MS);
    expect(await perHour.take('k')).toMatchObject({ allowed: true, capacity: 2, remaining: 1, retryAfterMs: 0 });
    const last = await perHour.take('k');
    expect(last).toMatchObject({ allowed: true, remaining: 0 });
    // One token every 30 minutes.
    expect(last.nextTokenMs).toBeGreaterThan(HOUR_MS / 2 - 60_000);
    expect(last.nextTokenMs).toBeLessThanOrEqual(HOUR_MS / 2);
    const refused = await perHour.take('k');
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterMs).toBeGreaterThan(HOUR_MS / 2 - 60_000);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(HOUR_MS / 2);
    // Another key is untouched.
    expect(await perHour.take('other')).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('takes from every bucket together and says when the slowest refusal has passed', async () => {
    const perMinute = new PostgresTokenBuckets(db, 'test:minute', 1, 60_000);
    const perHour = new PostgresTokenBuckets(db, 'test:hour5', 5, HOUR_MS);
    expect(await takeAllShared('mail', perMinute, perHour)).toEqual({ allowed: true, retryAfterSeconds: 0 });
    const refused = await takeAllShared('mail', perMinute, perHour);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBeGreaterThan(50);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    const states = [
      { allowed: false, capacity: 1, remaining: 0, nextTokenMs: 10, retryAfterMs: 1_200 },
      { allowed: false, capacity: 5, remaining: 0, nextTokenMs: 10, retryAfterMs: 700_000 },
    ];
    expect(sharedTake(states)).toEqual({ allowed: false, retryAfterSeconds: 700 });
  });

  it('takes several units at once, or none when fewer are left', async () => {
    const perHour = new PostgresTokenBuckets(db, 'test:units', 5, HOUR_MS);
    expect(await perHour.take('k', 3)).toMatchObject({ allowed: true, remaining: 2 });
    expect(await perHour.take('k', 3)).toMatchObject({ allowed: false, remaining: 2 });
    expect(await perHour.take('k', 2)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await perHour.take('fresh', 6)).toMatchObject({ allowed: false, remaining: 5 });
  });

  it('is a TokenBucketStore as a set: each bucket charged and reporting what is left', async () => {
    const store: TokenBucketStore = new PostgresBucketSet(
      new PostgresTokenBuckets(db, 'test:set-minute', 1, 60_000),
      new PostgresTokenBuckets(db, 'test:set-hour', 5, HOUR_MS),
    );
    expect(await store.take('k')).toMatchObject({ allowed: true, buckets: [{ remaining: 0 }, { remaining: 4 }] });
    const refused = await store.take('k');
    expect(refused.allowed).toBe(false);
    expect(refused.buckets.map((b) => [b.allowed, b.remaining])).toEqual([
      [false, 0],
      [true, 3],
    ]);
  });
});
