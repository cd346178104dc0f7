import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DB, migrateDown, migrateToLatest } from '../src/index.ts';
import { migrations } from '../src/migrations/index.ts';

// scripts/test always sets this (to the embedded or the given Postgres); fail
// loudly rather than skip, so a misconfigured run cannot pass by testing nothing.
const adminUrl = process.env.TEST_DATABASE_URL;
if (!adminUrl) throw new Error('TEST_DATABASE_URL is required (run the tests through ./scripts/test)');

// Each run gets its own database so it never touches dev data and parallel
// runs against one server cannot collide.
const databaseName = `render_test_${randomBytes(6).toString('hex')}`;
const admin = new pg.Client({ connectionString: adminUrl });
let db: Kysely<DB>;

async function tableExists(name: string): Promise<boolean> {
  const { rows } = await sql<{
    exists: boolean;
  }>`select to_regclass(${`public.${name}`}) is not null as exists`.execute(db);
  return rows[0]?.exists ?? false;
}

beforeAll(async () => {
  await admin.connect();
  await admin.query(`create database ${admin.escapeIdentifier(databaseName)}`);
  const url = new URL(adminUrl);
  url.pathname = `/${databaseName}`;
  db = createDb(url.toString(), { poolSize: 2 });
});

afterAll(async () => {
  await db?.destroy();
  await admin.query(`drop database if exists ${admin.escapeIdentifier(databaseName)} with (force)`);
  await admin.end();
});

describe('migrations', () => {
  it('migrate up to latest, applying every migration in order', async () => {
    const results = await migrateToLatest(db);
    expect(results.map((r) => [r.migrationName, r.direction, r.status])).toEqual(
      Object.keys(migrations).map((name) => [name, 'Up', 'Success']),
    );
    expect(await tableExists('service_heartbeats')).toBe(true);
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

  it('migrates all the way down', async () => {
    const results = await migrateDown(db, { all: true });
    expect(results.every((r) => r.direction === 'Down' && r.status === 'Success')).toBe(true);
    expect(results).toHaveLength(Object.keys(migrations).length);
    expect(await tableExists('service_heartbeats')).toBe(false);
  });
});
