import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiKeysRepository,
  ChartShortUrlsRepository,
  createDb,
  type DB,
  migrateDown,
  migrateToLatest,
  PostgresTokenBuckets,
  TemplatesRepository,
  takeAllShared,
  UsersRepository,
} from '../src/index.ts';
import { migrations } from '../src/migrations/index.ts';
import { newUser } from './helpers/new-user.ts';
import { createThrowawayDatabase, type ThrowawayDatabase } from './helpers/throwaway-database.ts';

let database: ThrowawayDatabase;
let db: Kysely<DB>;

/** The tables the migrations create besides `service_heartbeats`. */
const TABLES = [
  'users',
  'api_keys',
  'email_codes',
  'password_resets',
  'templates',
  'template_stars',
  'rate_limit_buckets',
  'chart_short_urls',
];

async function tableExists(name: string): Promise<boolean> {
  const { rows } = await sql<{
    exists: boolean;
  }>`select to_regclass(${`public.${name}`}) is not null as exists`.execute(db);
  return rows[0]?.exists ?? false;
}

async function tableRowCount(name: 'templates'): Promise<number> {
  const row = await db
    .selectFrom(name)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

beforeAll(async () => {
  database = await createThrowawayDatabase();
  db = createDb(database.url, { poolSize: 2 });
});

afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

describe('migrations', () => {
  it('migrate up to latest, applying every migration in order', async () => {
    const results = await migrateToLatest(db);
    expect(results.map((r) => [r.migrationName, r.direction, r.status])).toEqual(
      Object.keys(migrations).map((name) => [name, 'Up', 'Success']),
    );
    expect(await tableExists('service_heartbeats')).toBe(true);
    for (const table of TABLES) {
      expect(await tableExists(table)).toBe(true);
    }
  });

  it('is a no-op when already at latest', async () => {
    expect(await migrateToLatest(db)).toEqual([]);
  });

  it('creates service_heartbeats with a defaulted started_at', async () => {
    await db.insertInto('service_heartbeats').values({ service: 'gateway', version: 'test' }).execute();
    const row = await db.selectFrom('service_heartbeats').selectAll().executeTakeFirstOrThrow();
    expect(row.service).toBe('gateway');
    expect(row.started_at).toBeInstanceOf(Date);
  });

  it('accounts: emails are stored lowercased and a user has at most one active API key', async () => {
    const users = new UsersRepository(db);
    await expect(users.create(newUser('Ada', 'Ada@Example.com', ['html2img']))).rejects.toThrow(/check constraint/);
    const created = await users.create(newUser('Ada', 'ada@example.com', ['html2img']));
    expect(created).toMatchObject({ role: 'user', status: 'pending', plan: 'free', planned_services: ['html2img'] });
    expect(await users.create(newUser('Ada', 'ada@example.com', ['html2img']))).toBeUndefined();

    const keys = new ApiKeysRepository(db);
    const key = (n: number) => ({ user_id: created!.id, key_hash: `hash-${n}`, key_ciphertext: 'c', prefix: 'rk_live_' });
    await keys.replace(key(1));
    await keys.replace(key(2));
    expect((await keys.findActiveByUserId(created!.id))?.key_hash).toBe('hash-2');
    expect(await keys.findOwnerByHash('hash-1')).toBeUndefined();
    await expect(db.insertInto('api_keys').values(key(3)).execute()).rejects.toThrow(/api_keys_one_active_per_user/);
    await db.deleteFrom('users').execute();
  });

  it('templates: public is irreversible in the schema and stars cannot go negative', async () => {
    const owner = await new UsersRepository(db).create(newUser('Tess', 'tess@example.com', ['svg2img']));
    const templates = new TemplatesRepository(db);
    const id = await templates.create(owner!.id, { name: 'T', width: 100, height: 100, svg: '<svg/>', variables: [] });
    await expect(db.updateTable('templates').set({ is_public: true }).where('id', '=', id).execute()).rejects.toThrow(
      /templates_published_check/,
    );
    expect(await templates.publish(id, owner!.id)).toBe(true);
    expect(
      await templates.updatePrivate(id, owner!.id, { name: 'U', width: 100, height: 100, svg: '<svg/>', variables: [] }),
    ).toBeUndefined();
    expect(await templates.setStar(id, owner!.id, false)).toBe(0);
    await expect(db.updateTable('templates').set({ star_count: -1 }).where('id', '=', id).execute()).rejects.toThrow(/check constraint/);
    await db.deleteFrom('users').execute();
    expect(await tableRowCount('templates')).toBe(0);
  });

  it('chart short URLs: read back until they expire, random ids only, owned rows go with the account', async () => {
    const owner = await new UsersRepository(db).create(newUser('Quinn', 'quinn@example.com', ['html2img']));
    const urls = new ChartShortUrlsRepository(db);
    const later = new Date(Date.now() + 60_000);
    const request = { chart: "{type:'bar'}", width: 500 };
    await urls.create({ id: 'owned_0123456789ab', request, userId: owner!.id, expiresAt: later });
    await urls.create({ id: 'anonymous-0123456789', request, userId: null, expiresAt: later });
    await urls.create({ id: 'expired_0123456789ab', request, userId: null, expiresAt: new Date(Date.now() - 1000) });
    expect(await urls.findLive('owned_0123456789ab')).toMatchObject({ request, user_id: owner!.id });
    expect((await urls.findLive('anonymous-0123456789'))?.user_id).toBeNull();
    expect(await urls.findLive('expired_0123456789ab')).toBeUndefined();
    expect(await urls.findLive('unknown_0123456789ab')).toBeUndefined();
    await expect(urls.create({ id: 'short', request, userId: null, expiresAt: later })).rejects.toThrow(/check constraint/);
    expect(await urls.deleteExpired()).toBe(1);
    await db.deleteFrom('users').execute();
    const left = await db.selectFrom('chart_short_urls').select('id').execute();
    expect(left.map((row) => row.id)).toEqual(['anonymous-0123456789']);
  });

  it('rate-limit buckets: shared takes, refill on the database clock, and pruning of refilled rows', async () => {
    const login = new PostgresTokenBuckets(db, 'test:login', 2, 60_000);
    const other = new PostgresTokenBuckets(db, 'test:login', 2, 60_000); // another replica, same limit
    expect((await login.take('a')).allowed).toBe(true);
    expect((await other.take('a')).allowed).toBe(true);
    expect((await login.take('a')).allowed).toBe(false);
    expect((await other.take('b')).allowed).toBe(true); // keys are separate
    // Half the window later, one token has come back.
    await db
      .updateTable('rate_limit_buckets')
      .set({ updated_at: sql<Date>`updated_at - interval '30 seconds'` })
      .where('key', 'like', '%:a')
      .execute();
    expect((await other.take('a')).allowed).toBe(true);
    expect((await login.take('a')).allowed).toBe(false);
    expect((await takeAllShared('c', login, new PostgresTokenBuckets(db, 'test:hour', 1, 3_600_000))).allowed).toBe(true);
    expect((await takeAllShared('c', login, new PostgresTokenBuckets(db, 'test:hour', 1, 3_600_000))).allowed).toBe(false);

    await db
      .updateTable('rate_limit_buckets')
      .set({ updated_at: sql<Date>`now() - interval '2 hours'` })
      .where('key', 'like', '%:b')
      .execute();
    expect(await PostgresTokenBuckets.prune(db, 3_600_000)).toBe(1);
    const keys = await db.selectFrom('rate_limit_buckets').select('key').execute();
    expect(keys.map((k) => k.key.split(':').at(-1)).sort()).toEqual(['a', 'c', 'c']);
  });

  it('migrates all the way down', async () => {
    const results = await migrateDown(db, { all: true });
    expect(results.every((r) => r.direction === 'Down' && r.status === 'Success')).toBe(true);
    expect(results).toHaveLength(Object.keys(migrations).length);
    expect(await tableExists('service_heartbeats')).toBe(false);
    for (const table of TABLES) {
      expect(await tableExists(table)).toBe(false);
    }
  });
});
