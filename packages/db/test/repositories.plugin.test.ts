import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, dbPlugin, migrateToLatest, repositoriesPlugin } from '../src/index.ts';
import { newUser } from './helpers/new-user.ts';
import { createThrowawayDatabase, type ThrowawayDatabase } from './helpers/throwaway-database.ts';

let database: ThrowawayDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  database = await createThrowawayDatabase();
  const db = createDb(database.url, { poolSize: 1 });
  await migrateToLatest(db);
  await db.destroy();
  app = Fastify();
  await app.register(dbPlugin, { url: database.url, poolSize: 2 });
  await app.register(repositoriesPlugin);
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await database?.drop();
});

describe('repositories plugin', () => {
  it('decorates the app with every repository over the db pool', async () => {
    const { users, apiKeys, credits, emailCodes, passwordResets, stripeEvents, subscriptions, templates } = app.repositories;
    for (const repository of [users, apiKeys, credits, emailCodes, passwordResets, stripeEvents, subscriptions, templates]) {
      expect(repository).toBeDefined();
    }
    const user = await users.create(newUser('Ada', 'ada@example.com'));
    expect(await users.findById(user!.id)).toMatchObject({ email: 'ada@example.com' });
  });

  it('runs a transaction over every repository: all of it commits or none of it does', async () => {
    await expect(
      app.repositories.transaction(async (repositories) => {
        await repositories.users.create(newUser('Ada', 'rolled-back@example.com'));
        await repositories.stripeEvents.record('evt_rolled_back', 'test');
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await app.repositories.users.findByEmail('rolled-back@example.com')).toBeUndefined();
    expect(await app.repositories.stripeEvents.exists('evt_rolled_back')).toBe(false);

    await app.repositories.transaction(async (repositories) => {
      // Nested: joins the outer transaction (kysely cannot nest them).
      await repositories.transaction((inner) => inner.stripeEvents.record('evt_committed', 'test'));
      await repositories.users.create(newUser('Ada', 'committed@example.com'));
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
