import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, dbPlugin, migrateToLatest, repositoriesPlugin } from '../src/index.ts';

const adminUrl = process.env.TEST_DATABASE_URL;
if (!adminUrl) throw new Error('TEST_DATABASE_URL is required (run the tests through ./scripts/test)');

const databaseName = `render_test_${randomBytes(6).toString('hex')}`;
const admin = new pg.Client({ connectionString: adminUrl });
let app: FastifyInstance;

const newUser = (email: string) => ({
  name: 'Ada',
  email,
  password_hash: 'x',
  company: null,
  usage_source: 'other',
  referral_source: 'other',
  planned_services: [],
});

beforeAll(async () => {
  await admin.connect();
  await admin.query(`create database ${admin.escapeIdentifier(databaseName)}`);
  const url = new URL(adminUrl);
  url.pathname = `/${databaseName}`;
  const db = createDb(url.toString(), { poolSize: 1 });
  await migrateToLatest(db);
  await db.destroy();
  app = Fastify();
  await app.register(dbPlugin, { url: url.toString(), poolSize: 2 });
  await app.register(repositoriesPlugin);
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await admin.query(`drop database if exists ${admin.escapeIdentifier(databaseName)} with (force)`);
  await admin.end();
});

describe('repositories plugin', () => {
  it('decorates the app with every repository over the db pool', async () => {
    const { users, apiKeys, credits, emailCodes, passwordResets, stripeEvents, subscriptions, templates } = app.repositories;
    for (const repository of [users, apiKeys, credits, emailCodes, passwordResets, stripeEvents, subscriptions, templates]) {
      expect(repository).toBeDefined();
    }
    const user = await users.create(newUser('ada@example.com'));
    expect(await users.findById(user!.id)).toMatchObject({ email: 'ada@example.com' });
  });

  it('runs a transaction over every repository: all of it commits or none of it does', async () => {
    await expect(
      app.repositories.transaction(async (repositories) => {
        await repositories.users.create(newUser('rolled-back@example.com'));
        await repositories.stripeEvents.record('evt_rolled_back', 'test');
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await app.repositories.users.findByEmail('rolled-back@example.com')).toBeUndefined();
    expect(await app.repositories.stripeEvents.exists('evt_rolled_back')).toBe(false);

    await app.repositories.transaction(async (repositories) => {
      // Nested: joins the outer transaction (kysely cannot nest them).
      await repositories.transaction((inner) => inner.stripeEvents.record('evt_committed', 'test'));
      await repositories.users.create(newUser('committed@example.com'));
    });
    expect(await app.repositories.stripeEvents.exists('evt_committed')).toBe(true);
    expect(await app.repositories.users.findByEmail('committed@example.com')).toBeDefined();
  });

  it('needs the db plugin', async () => {
    const bare = Fastify();
    await expect(bare.register(repositoriesPlugin).ready()).rejects.toThrow(/db/);
    await bare.close();
  });
});
