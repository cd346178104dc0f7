import { randomBytes } from 'node:crypto';
import { ChartShortUrlsInternalRoutes } from '@render/contracts';
import { createDb, type DB, dbPlugin, migrateToLatest, repositoriesPlugin } from '@render/db';
import { INTERNAL_TOKEN_HEADER } from '@render/fastify-kit';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import app, { serverOptions } from '../src/app.ts';
import { loadTemplatesConfig } from '../src/config.ts';
import chartShortUrlsRoutes from '../src/routes/chart-short-urls.routes.ts';

// The templates service's side of QuickChart short URLs, on its own migrated database: what it stores, how
// long it answers, and that expired rows are swept. (services/gateway/test/quickchart-short-urls.test.ts
// covers the public calls over the whole stack.)
const adminUrl = process.env.TEST_DATABASE_URL;
if (!adminUrl) throw new Error('TEST_DATABASE_URL is required (run the tests through ./scripts/test)');

const TOKEN = 'chart-short-urls-test-token';
const databaseName = `render_test_${randomBytes(6).toString('hex')}`;
const admin = new pg.Client({ connectionString: adminUrl });
let databaseUrl: string;
let db: Kysely<DB>;
let server: FastifyInstance;

beforeAll(async () => {
  await admin.connect();
  await admin.query(`create database ${admin.escapeIdentifier(databaseName)}`);
  const url = new URL(adminUrl);
  url.pathname = `/${databaseName}`;
  databaseUrl = url.toString();
  db = createDb(databaseUrl, { poolSize: 2 });
  await migrateToLatest(db);
  const config = loadTemplatesConfig({
    DATABASE_URL: databaseUrl,
    INTERNAL_TOKEN: TOKEN,
    LOG_LEVEL: 'silent',
    CHART_SHORT_URL_TTL_DAYS: '7',
  });
  server = Fastify(serverOptions(config));
  await server.register(app, { config });
  await server.ready();
});

afterAll(async () => {
  await server?.close();
  await db?.destroy();
  await admin.query(`drop database if exists ${admin.escapeIdentifier(databaseName)} with (force)`);
  await admin.end();
});

const STORED = { chart: "{type:'bar'}", width: 500, height: 300, devicePixelRatio: 2, format: 'png', version: '2' };

const call = (method: 'GET' | 'POST', url: string, payload?: unknown, token = TOKEN) =>
  server.inject({ method, url, headers: { [INTERNAL_TOKEN_HEADER]: token }, ...(payload ? { payload: payload as object } : {}) });

describe('chart short URLs in the templates service', () => {
  it('keeps the request under a new random id for CHART_SHORT_URL_TTL_DAYS, and reads it back', async () => {
    const created = await call('POST', ChartShortUrlsInternalRoutes.create.url, { request: STORED });
    expect(created.statusCode).toBe(200);
    const { id, request, expiresAt } = created.json() as { id: string; request: unknown; expiresAt: string };
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(request).toEqual(STORED);
    expect((Date.parse(expiresAt) - Date.now()) / 86_400_000).toBeCloseTo(7, 2);
    const read = await call('GET', `/internal/chart-short-urls/${id}`);
    expect(read.json()).toEqual({ id, request: STORED, expiresAt });
    const again = await call('POST', ChartShortUrlsInternalRoutes.create.url, { request: STORED });
    expect((again.json() as { id: string }).id).not.toBe(id);
  });

  it('an unknown or expired id is a 404; a malformed one a 400 before the database; no token, nothing', async () => {
    expect((await call('GET', '/internal/chart-short-urls/AAAAAAAAAAAAAAAAAAAAAA')).statusCode).toBe(404);
    const { id } = (await call('POST', ChartShortUrlsInternalRoutes.create.url, { request: STORED })).json() as { id: string };
    await db
      .updateTable('chart_short_urls')
      .set({ expires_at: new Date(Date.now() - 1) })
      .where('id', '=', id)
      .execute();
    const expired = await call('GET', `/internal/chart-short-urls/${id}`);
    expect(expired.statusCode).toBe(404);
    expect(expired.json()).toMatchObject({ code: 'NOT_FOUND', message: expect.stringMatching(/does not exist or has expired/) });
    expect((await call('GET', '/internal/chart-short-urls/x')).statusCode).toBe(400);
    expect((await call('GET', `/internal/chart-short-urls/${id}`, undefined, 'wrong-token-wrong-token')).statusCode).toBe(401);
  });

  it('refuses a request that is not a checked QuickChart request, and an owner that is not a user id', async () => {
    for (const body of [{ request: { ...STORED, width: 0 } }, { request: { chart: 'x' } }, { request: STORED, userId: 'nobody' }]) {
      const res = await call('POST', ChartShortUrlsInternalRoutes.create.url, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it('sweeps expired rows away on its interval, and leaves live ones', async () => {
    const sweeper = Fastify({ logger: false });
    await sweeper.register(dbPlugin, { url: databaseUrl });
    await sweeper.register(repositoriesPlugin);
    await sweeper.register(chartShortUrlsRoutes, { ttlDays: 1, sweepEveryMs: 20 });
    await sweeper.ready();
    try {
      const old = new Date(Date.now() - 1000);
      await db
        .insertInto('chart_short_urls')
        .values({ id: 'expired_sweep_0123456', request: '{}', user_id: null, expires_at: old })
        .execute();
      await expect
        .poll(async () => (await db.selectFrom('chart_short_urls').select('id').where('expires_at', '<=', new Date()).execute()).length)
        .toBe(0);
      expect((await db.selectFrom('chart_short_urls').select('id').execute()).length).toBeGreaterThan(0);
    } finally {
      await sweeper.close();
    }
  });
});
