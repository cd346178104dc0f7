import { randomUUID } from 'node:crypto';
import type { CreditStatus, LedgerRenderKind } from '@render/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_TOKEN, json, type Stack, startStack, verifiedUser } from './helpers/stack.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});

afterAll(async () => {
  await stack?.close();
});

const internal = (path: string, body: unknown) => stack.call('POST', path, { body, headers: { 'x-internal-token': INTERNAL_TOKEN } });
const daily = async (token: string) => json(await stack.call('GET', '/api/auth/usage/daily', { token }));
const recent = (token: string, query = '') => stack.call('GET', `/api/auth/usage/recent${query}`, { token });
const utcDate = (at: Date) => at.toISOString().slice(0, 10);

interface SeedRow {
  at: Date;
  status?: CreditStatus;
  kind?: LedgerRenderKind | null;
  format?: string | null;
  sizeBytes?: number | null;
  renderMs?: number | null;
}

/** Ledger rows straight in the database, at given times (the API only ever records "now"). */
async function seed(userId: string, rows: SeedRow[]) {
  await stack.db
    .insertInto('credit_ledger')
    .values(
      rows.map((row) => ({
        user_id: userId,
        request_id: randomUUID(),
        status: row.status ?? 'charged',
        created_at: row.at,
        kind: row.kind === undefined ? 'html' : row.kind,
        format: row.format === undefined ? 'png' : row.format,
        size_bytes: row.sizeBytes ?? null,
        render_ms: row.renderMs ?? null,
      })),
    )
    .execute();
}

describe('GET /api/auth/usage/daily', () => {
  it('answers 31 zero-filled UTC days, oldest first, from the window start to today', async () => {
    const user = await verifiedUser(stack);
    const before = Date.now();
    const body = await daily(user.token);
    expect(body.success).toBe(true);
    const since = Date.parse(body.data.since);
    // The window of GET /api/auth/usage: now − 30 days.
    expect(since).toBeGreaterThanOrEqual(before - 30 * DAY_MS - 1000);
    expect(since).toBeLessThanOrEqual(Date.now() - 30 * DAY_MS);
    const days = body.data.days as Array<{ date: string; renders: number }>;
    expect(days).toHaveLength(31);
    expect(days[0]!.date).toBe(utcDate(new Date(since)));
    expect(days.at(-1)!.date).toBe(utcDate(new Date()));
    for (let i = 1; i < days.length; i++) expect(Date.parse(days[i]!.date) - Date.parse(days[i - 1]!.date)).toBe(DAY_MS);
    expect(days.every((day) => day.renders === 0)).toBe(true);
  });

  it('counts charged and in-flight renders per day within the window only, not released ones nor other accounts', async () => {
    const [user, other] = await Promise.all([verifiedUser(stack), verifiedUser(stack)]);
    const now = Date.now();
    await seed(user.userId, [
      { at: new Date(now) },
      { at: new Date(now), status: 'reserved' },
      { at: new Date(now), status: 'released' },
      { at: new Date(now - 3 * DAY_MS) },
      { at: new Date(now - 3 * DAY_MS) },
      { at: new Date(now - 30 * DAY_MS + 60_000) }, // just inside the window: its first day
      { at: new Date(now - 30 * DAY_MS - 60_000) }, // just outside
      { at: new Date(now - 45 * DAY_MS) },
      { at: new Date(now - 2 * DAY_MS), kind: null, format: null }, // recorded before kinds were kept: still a render
    ]);
    await seed(other.userId, [{ at: new Date(now) }, { at: new Date(now - 3 * DAY_MS) }]);

    const body = await daily(user.token);
    const days = body.data.days as Array<{ date: string; renders: number }>;
    const byDate = Object.fromEntries(days.map((day) => [day.date, day.renders]));
    expect(days).toHaveLength(31);
    expect(byDate[utcDate(new Date())]).toBe(2);
    expect(byDate[utcDate(new Date(now - 3 * DAY_MS))]).toBe(2);
    expect(byDate[utcDate(new Date(now - 2 * DAY_MS))]).toBe(1);
    expect(byDate[utcDate(new Date(now - 30 * DAY_MS + 60_000))]).toBe(1);
    // The days add up to the credits GET /api/auth/usage counts as used.
    const usage = await json(await stack.call('GET', '/api/auth/usage', { token: user.token }));
    expect(days.reduce((sum, day) => sum + day.renders, 0)).toBe(usage.data.used);
    expect(usage.data.used).toBe(6);
  });

  it('accepts the API key as well as a session, and nothing else', async () => {
    const user = await verifiedUser(stack);
    expect((await daily(user.apiKey)).data.days).toHaveLength(31);
    expect((await stack.call('GET', '/api/auth/usage/daily')).status).toBe(401);
    expect((await stack.call('GET', '/api/auth/usage/daily', { token: 'rk_not-a-key' })).status).toBe(401);
  });
});

describe('GET /api/auth/usage/recent', () => {
  it('lists renders newest first with what the ledger recorded at reserve and settle time', async () => {
    const user = await verifiedUser(stack);
    const [a, b, c, d] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    // Kind and format at reserve time; size and render time with the charge (single, batched, carried).
    expect((await internal('/internal/credits/reserve', { userId: user.userId, requestId: a, kind: 'chart', format: 'png' })).status).toBe(
      200,
    );
    expect((await internal('/internal/credits/settle', { requestId: a, outcome: 'charged', sizeBytes: 1234, renderMs: 56 })).status).toBe(
      200,
    );
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await internal('/internal/credits/reserve', { userId: user.userId, requestId: b, kind: 'code' })).status).toBe(200);
    const charges = [{ requestId: b, format: 'jpeg', sizeBytes: 999, renderMs: 12 }];
    expect(await json(await internal('/internal/credits/settle-batch', { requestIds: charges, outcome: 'charged' }))).toEqual({
      settled: 1,
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(
      (await internal('/internal/credits/reserve', { userId: user.userId, requestId: c, kind: 'template', format: 'svg' })).status,
    ).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const carried = [{ requestId: c, format: 'svg', sizeBytes: 321, renderMs: 7 }];
    const reserved = await internal('/internal/credits/reserve', {
      userId: user.userId,
      requestId: d,
      kind: 'screenshot',
      format: 'webp',
      charged: carried,
    });
    expect(reserved.status).toBe(200);

    const res = await recent(user.token);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.success).toBe(true);
    expect(body.data.map((row: { kind: string }) => row.kind)).toEqual(['screenshot', 'template', 'code', 'chart']);
    expect(body.data[0]).toMatchObject({ kind: 'screenshot', format: 'webp', sizeBytes: null, renderMs: null, status: 'reserved' });
    expect(body.data[1]).toMatchObject({ kind: 'template', format: 'svg', sizeBytes: 321, renderMs: 7, status: 'charged' });
    expect(body.data[2]).toMatchObject({ kind: 'code', format: 'jpeg', sizeBytes: 999, renderMs: 12, status: 'charged' });
    expect(body.data[3]).toMatchObject({ kind: 'chart', format: 'png', sizeBytes: 1234, renderMs: 56, status: 'charged' });
    for (const row of body.data) {
      expect(typeof row.id).toBe('string');
      expect(Date.now() - Date.parse(row.createdAt)).toBeLessThan(60_000);
    }
    // A release keeps what was known; nothing more is made up.
    await internal('/internal/credits/settle', { requestId: d, outcome: 'released' });
    expect((await json(await recent(user.apiKey, '?limit=1'))).data[0]).toMatchObject({
      kind: 'screenshot',
      format: 'webp',
      status: 'released',
      sizeBytes: null,
    });
  });

  it('shows 20 by default and up to `limit`, only the account’s own, and not rows without a kind or format', async () => {
    const [user, other] = await Promise.all([verifiedUser(stack), verifiedUser(stack)]);
    const now = Date.now();
    await seed(
      user.userId,
      Array.from({ length: 25 }, (_, i) => ({ at: new Date(now - i * 60_000), format: `f${i}`, sizeBytes: i, renderMs: i })),
    );
    await seed(user.userId, [
      { at: new Date(now + 1000), kind: null, format: null }, // before kinds were kept
      { at: new Date(now + 1000), kind: 'html', format: null, status: 'released' }, // refused before its body was read
    ]);
    await seed(other.userId, [{ at: new Date(now + 2000), format: 'other' }]);

    const all = (await json(await recent(user.token))).data as Array<{ format: string; createdAt: string }>;
    expect(all).toHaveLength(20);
    expect(all.map((row) => row.format)).toEqual(Array.from({ length: 20 }, (_, i) => `f${i}`));
    expect((await json(await recent(user.token, '?limit=100'))).data).toHaveLength(25);
    expect((await json(await recent(user.token, '?limit=3'))).data.map((row: { format: string }) => row.format)).toEqual([
      'f0',
      'f1',
      'f2',
    ]);
    expect((await json(await recent(user.token, '?limit=1'))).data).toHaveLength(1);
  });

  it('refuses a limit outside 1-100 with a 400 that says so', async () => {
    const user = await verifiedUser(stack);
    for (const limit of ['0', '101', '-1', 'abc', '1.5', '', '007']) {
      const res = await recent(user.token, `?limit=${limit}`);
      expect(res.status, `limit=${limit}`).toBe(400);
      expect((await json(res)).message).toBe('limit must be a whole number between 1 and 100');
    }
    expect((await recent(user.token, '?limit=100')).status).toBe(200);
  });

  it('needs a session or the API key', async () => {
    expect((await stack.call('GET', '/api/auth/usage/recent')).status).toBe(401);
    expect((await recent('not-a-token')).status).toBe(401);
  });
});
