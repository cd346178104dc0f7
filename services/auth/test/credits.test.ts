import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditLimitMessage, creditsShortMessage } from '../src/lib/credits.ts';
import { INTERNAL_TOKEN, json, type Stack, seedCharged, startStack, verifiedUser } from './helpers/stack.ts';

let stack: Stack;
let unlimited: Stack;

beforeAll(async () => {
  [stack, unlimited] = await Promise.all([startStack(), startStack({ LAUNCH_UNLIMITED: 'true' })]);
});

afterAll(async () => {
  await Promise.all([stack?.close(), unlimited?.close()]);
});

const internal = (s: Stack, path: string, body: unknown, token = INTERNAL_TOKEN) =>
  s.call('POST', path, { body, headers: { 'x-internal-token': token } });
const reserve = (s: Stack, userId: string, requestId = randomUUID(), charged?: string[]) =>
  internal(s, '/internal/credits/reserve', { userId, requestId, ...(charged ? { charged } : {}) });
const settle = (s: Stack, requestId: string, outcome: 'charged' | 'released') =>
  internal(s, '/internal/credits/settle', { requestId, outcome });
const usage = async (s: Stack, token: string) => (await json(await s.call('GET', '/api/auth/usage', { token }))).data;
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const reserveByKey = (s: Stack, apiKey: string, requestId = randomUUID(), charged?: string[]) =>
  internal(s, '/internal/credits/reserve', { apiKeyHash: sha256(apiKey), requestId, ...(charged ? { charged } : {}) });
const settleBatch = (s: Stack, requestIds: string[], outcome: 'charged' | 'released', token = INTERNAL_TOKEN) =>
  internal(s, '/internal/credits/settle-batch', { requestIds, outcome }, token);
const reserveMany = (s: Stack, userId: string, requestIds: string[], charged?: string[]) =>
  internal(s, '/internal/credits/reserve-batch', {
    userId,
    requests: requestIds.map((requestId) => ({ requestId, kind: 'html', format: 'png' })),
    ...(charged ? { charged } : {}),
  });
const ledgerRows = (s: Stack, userId: string) =>
  s.db.selectFrom('credit_ledger').select(['request_id', 'status']).where('user_id', '=', userId).orderBy('request_id').execute();
const statusOf = async (s: Stack, requestId: string) =>
  (await s.db.selectFrom('credit_ledger').select('status').where('request_id', '=', requestId).executeTakeFirst())?.status;

/** 50 reserves at once (`reserveFor` names the account its way) for a Free account with one credit left: exactly one takes it. */
async function expectOneOfFiftyTakesTheLast(reserveFor: (user: Awaited<ReturnType<typeof verifiedUser>>) => Promise<Response>) {
  const user = await verifiedUser(stack);
  await seedCharged(stack, user.userId, 49);
  const results = await Promise.all(Array.from({ length: 50 }, () => reserveFor(user)));
  const statuses = results.map((r) => r.status);
  expect(statuses.filter((s) => s === 200)).toHaveLength(1);
  expect(statuses.filter((s) => s === 402)).toHaveLength(49);
  expect((await usage(stack, user.token)).used).toBe(50);
}

describe('credits: reserve, settle and usage', () => {
  it('needs the internal token', async () => {
    const user = await verifiedUser(stack);
    expect((await internal(stack, '/internal/credits/reserve', { userId: user.userId, requestId: 'x' }, 'wrong-token-123456')).status).toBe(
      401,
    );
    expect((await stack.call('POST', '/internal/credits/settle', { body: { requestId: 'x', outcome: 'charged' } })).status).toBe(401);
    expect((await stack.call('GET', '/api/auth/usage')).status).toBe(401);
  });

  it('starts a free user at 0 of 50 and counts reserved and charged, not released', async () => {
    const user = await verifiedUser(stack);
    const fresh = await usage(stack, user.token);
    expect(fresh).toMatchObject({ totalCredits: 50, used: 0, limit: 50, remaining: 50, plan: 'free', window: { days: 30 } });
    expect(Date.now() - Date.parse(fresh.window.since)).toBeGreaterThan(29.9 * 24 * 3600 * 1000);

    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    for (const id of [a, b, c]) {
      const res = await reserve(stack, user.userId, id);
      expect(res.status).toBe(200);
      expect((await json(res)).reservationId).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect((await usage(stack, user.token)).used).toBe(3); // reserved ones count while in flight
    expect((await settle(stack, a, 'charged')).status).toBe(200);
    expect((await json(await settle(stack, b, 'released'))).status).toBe('released');
    const after = await usage(stack, user.token);
    expect(after).toMatchObject({ used: 2, remaining: 48 });
  });

  it('is idempotent per requestId: a retried reserve or settle never charges twice', async () => {
    const user = await verifiedUser(stack);
    const id = randomUUID();
    const first = await json(await reserve(stack, user.userId, id));
    const again = await json(await reserve(stack, user.userId, id));
    expect(again.reservationId).toBe(first.reservationId);
    expect((await json(await settle(stack, id, 'charged'))).status).toBe('charged');
    // A late 'released' after the charge changes nothing.
    expect((await json(await settle(stack, id, 'released'))).status).toBe('charged');
    expect((await json(await settle(stack, 'never-reserved', 'released'))).status).toBeNull();
    expect((await usage(stack, user.token)).used).toBe(1);
  });

  it('refuses the 51st credit with 402, and forgets credits older than 30 days', async () => {
    const user = await verifiedUser(stack);
    await seedCharged(stack, user.userId, 30, 31); // outside the window
    const oldest = await seedCharged(stack, user.userId, 49, 29);
    expect(await usage(stack, user.token)).toMatchObject({ used: 49, remaining: 1 });
    expect(await json(await reserve(stack, user.userId))).toMatchObject({ remaining: 0, limit: 50 });
    const refused = await reserve(stack, user.userId);
    expect(refused.status).toBe(402);
    // The next credit comes back when the oldest one in the window (29 days old) leaves it: tomorrow.
    const returnsAt = new Date(oldest.getTime() + 30 * 24 * 60 * 60 * 1000);
    expect(await json(refused)).toEqual({
      success: false,
      code: 'PAYMENT_REQUIRED',
      message: creditLimitMessage(returnsAt),
      limit: 50,
      resetsAt: returnsAt.toISOString(),
    });
    expect(creditLimitMessage(new Date('2026-12-03T14:05:59.000Z'))).toBe(
      'You have used all 50 credits of your plan for this rolling 30-day window. Your next credit comes back on 3 December 2026 at 14:05 UTC, ' +
        'when the oldest one leaves the window. Upgrade to Pro for unlimited conversions.',
    );
    expect(await usage(stack, user.token)).toMatchObject({ used: 50, remaining: 0 });
  });

  it('lets exactly one of 50 concurrent reserves take the last credit', async () => {
    await expectOneOfFiftyTakesTheLast((user) => reserve(stack, user.userId));
  });

  it('gives Pro users and administrators unlimited credits', async () => {
    const pro = await verifiedUser(stack);
    await stack.db.updateTable('users').set({ plan: 'pro' }).where('id', '=', pro.userId).execute();
    await seedCharged(stack, pro.userId, 60);
    expect(await json(await reserve(stack, pro.userId))).toMatchObject({ remaining: null, limit: null });
    expect(await usage(stack, pro.token)).toMatchObject({ plan: 'pro', used: 61, limit: null, remaining: null, totalCredits: null });

    const admin = await verifiedUser(stack);
    await stack.db.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.userId).execute();
    await seedCharged(stack, admin.userId, 60);
    expect((await reserve(stack, admin.userId)).status).toBe(200);
    expect((await usage(stack, admin.token)).limit).toBeNull();
  });

  it('lifts every limit with LAUNCH_UNLIMITED', async () => {
    const user = await verifiedUser(unlimited);
    await seedCharged(unlimited, user.userId, 60);
    expect(await json(await reserve(unlimited, user.userId))).toMatchObject({ remaining: null, limit: null });
    expect(await usage(unlimited, user.token)).toMatchObject({ plan: 'free', used: 61, limit: null });
  });

  it('tells the gateway the rules in force: the launch period is one setting (LAUNCH_UNLIMITED)', async () => {
    const rules = (s: Stack, token = INTERNAL_TOKEN) => s.call('GET', '/internal/plan-rules', { headers: { 'x-internal-token': token } });
    expect(await json(await rules(stack))).toEqual({ launchPeriod: false, freeCredits: 50, windowDays: 30 });
    expect(await json(await rules(unlimited))).toEqual({ launchPeriod: true, freeCredits: null, windowDays: 30 });
    expect((await rules(stack, 'wrong-token-0123456789')).status).toBe(401);
  });

  it('answers 404 for an unknown account and 400 for a malformed one', async () => {
    expect((await reserve(stack, randomUUID())).status).toBe(404);
    expect((await reserve(stack, 'not-a-uuid')).status).toBe(400);
  });
});

describe('credits: reserved by API key, settled in batches', () => {
  it('verifies the key and reserves in one call, answering the owner, plan and credits left', async () => {
    const user = await verifiedUser(stack);
    const id = randomUUID();
    const res = await reserveByKey(stack, user.apiKey, id);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toEqual({
      reservationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      userId: user.userId,
      role: 'user',
      plan: 'free',
      // The default key: its id (usage is recorded by it) and the widest scope.
      keyId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      scope: 'full',
      remaining: 49,
      limit: 50,
      spares: [],
    });
    // Idempotent per requestId, like the reservation by account id.
    expect(await json(await reserveByKey(stack, user.apiKey, id))).toMatchObject({ reservationId: body.reservationId, remaining: 49 });
    expect((await reserveByKey(stack, user.apiKey)).status).toBe(200);
    expect((await usage(stack, user.token)).used).toBe(2);
  });

  it('leases spares ahead within the limit: counted against it, not in the usage shown until a render takes one', async () => {
    const user = await verifiedUser(stack);
    await seedCharged(stack, user.userId, 44);
    const spares = Array.from({ length: 8 }, () => randomUUID());
    const leased = await json(
      await internal(stack, '/internal/credits/reserve', {
        apiKeyHash: sha256(user.apiKey),
        requestId: randomUUID(),
        kind: 'html',
        spares,
      }),
    );
    // 44 used + this one leaves 5: five spares are leased, the other three refused, and nothing is left.
    expect(leased).toMatchObject({ remaining: 0 });
    expect(leased.spares).toHaveLength(5);
    expect(spares).toEqual(expect.arrayContaining(leased.spares));
    expect((await usage(stack, user.token)).used).toBe(45);
    expect((await reserveByKey(stack, user.apiKey)).status).toBe(402);

    // A render takes a spare: charged with what it was; the spares nobody took go back and cost nothing.
    const [taken = '', ...unused] = leased.spares as string[];
    const charged = await internal(stack, '/internal/credits/settle-batch', {
      requestIds: [{ requestId: taken, kind: 'svg', format: 'webp', sizeBytes: 10, renderMs: 3 }],
      outcome: 'charged',
    });
    expect(await json(charged)).toEqual({ settled: 1 });
    expect(await json(await settleBatch(stack, unused, 'released'))).toEqual({ settled: unused.length });
    expect((await usage(stack, user.token)).used).toBe(46);
    const row = await stack.db
      .selectFrom('credit_ledger')
      .select(['kind', 'format', 'status'])
      .where('request_id', '=', taken)
      .executeTakeFirst();
    expect(row).toEqual({ kind: 'svg', format: 'webp', status: 'charged' });
    expect((await reserveByKey(stack, user.apiKey)).status).toBe(200);

    // No limit, no refusal: a Pro account gets every spare asked for.
    await stack.db.updateTable('users').set({ plan: 'pro' }).where('id', '=', user.userId).execute();
    const pro = await json(
      await internal(stack, '/internal/credits/reserve', {
        apiKeyHash: sha256(user.apiKey),
        requestId: randomUUID(),
        spares: spares.slice(0, 2).map(() => randomUUID()),
      }),
    );
    expect(pro).toMatchObject({ remaining: null });
    expect(pro.spares).toHaveLength(2);
  });

  it('refuses an unknown or regenerated key with 401 and reserves nothing', async () => {
    const user = await verifiedUser(stack);
    expect((await reserveByKey(stack, `${user.apiKey}x`)).status).toBe(401);
    const regenerated = await stack.call('POST', '/api/auth/api-key/regenerate', { token: user.token });
    const { apiKey } = await json(regenerated);
    const refused = await reserveByKey(stack, user.apiKey);
    expect(refused.status).toBe(401);
    expect(await json(refused)).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
    expect((await usage(stack, user.token)).used).toBe(0);
    expect((await reserveByKey(stack, apiKey)).status).toBe(200);
    expect((await internal(stack, '/internal/credits/reserve', { apiKeyHash: 'not-hex', requestId: 'x' })).status).toBe(400);
    expect(
      (await internal(stack, '/internal/credits/reserve', { apiKeyHash: sha256(apiKey), userId: user.userId, requestId: 'x' })).status,
    ).toBe(400);
  });

  it('answers 402 with the owner when the window is used up, and no limit for Pro', async () => {
    const user = await verifiedUser(stack);
    const oldest = await seedCharged(stack, user.userId, 49);
    expect(await json(await reserveByKey(stack, user.apiKey))).toMatchObject({ remaining: 0, limit: 50 });
    const refused = await reserveByKey(stack, user.apiKey);
    expect(refused.status).toBe(402);
    const returnsAt = new Date(oldest.getTime() + 30 * 24 * 60 * 60 * 1000);
    const refusal = {
      success: false,
      code: 'PAYMENT_REQUIRED',
      message: creditLimitMessage(returnsAt),
      limit: 50,
      resetsAt: returnsAt.toISOString(),
    };
    expect(await json(refused)).toEqual({
      ...refusal,
      owner: { userId: user.userId, role: 'user', plan: 'free', keyId: expect.any(String), scope: 'full' },
    });
    // Asked by account id, the owner is the caller already.
    expect(await json(await reserve(stack, user.userId))).toEqual(refusal);

    await stack.db.updateTable('users').set({ plan: 'pro' }).where('id', '=', user.userId).execute();
    expect(await json(await reserveByKey(stack, user.apiKey))).toMatchObject({ plan: 'pro', remaining: null });
  });

  it('lets exactly one of 50 concurrent reserves by key take the last credit', async () => {
    await expectOneOfFiftyTakesTheLast((user) => reserveByKey(stack, user.apiKey));
  });

  it('settles the charges a reservation call carries, whatever its answer', async () => {
    const user = await verifiedUser(stack);
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    for (const id of [a, b, c]) expect((await reserve(stack, user.userId, id)).status).toBe(200);
    expect((await reserveByKey(stack, user.apiKey, randomUUID(), [a, b])).status).toBe(200);
    expect([await statusOf(stack, a), await statusOf(stack, b), await statusOf(stack, c)]).toEqual(['charged', 'charged', 'reserved']);
    // A refused key still settles what it carried (unknown ids are no error).
    expect((await reserveByKey(stack, 'rk_unknown', randomUUID(), [c, 'never-reserved'])).status).toBe(401);
    expect(await statusOf(stack, c)).toBe('charged');
    expect((await reserve(stack, user.userId, randomUUID(), [])).status).toBe(200);
    expect(await json(await reserve(stack, user.userId))).toMatchObject({ userId: user.userId, plan: 'free', remaining: 44 });
  });

  it('settles a batch in one call, only rows still reserved, and needs the internal token', async () => {
    const user = await verifiedUser(stack);
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    for (const id of ids) await reserve(stack, user.userId, id);
    expect((await settleBatch(stack, ids, 'charged', 'wrong-token-123456')).status).toBe(401);
    expect(await json(await settleBatch(stack, [ids[0]!, ids[1]!, 'never-reserved'], 'charged'))).toEqual({ settled: 2 });
    // Idempotent: settled rows stay as they are.
    expect(await json(await settleBatch(stack, ids, 'released'))).toEqual({ settled: 1 });
    expect(await Promise.all(ids.map((id) => statusOf(stack, id)))).toEqual(['charged', 'charged', 'released']);
    expect((await usage(stack, user.token)).used).toBe(2);
    expect((await settleBatch(stack, [], 'charged')).status).toBe(400);
  });
});

describe('abandoned reservations', () => {
  it('releases reservations left unsettled past the timeout, and only those', async () => {
    const user = await verifiedUser(stack);
    const row = (status: 'reserved' | 'charged', minutesAgo: number) => ({
      user_id: user.userId,
      request_id: randomUUID(),
      status,
      created_at: new Date(Date.now() - minutesAgo * 60_000),
    });
    const [stale, fresh, charged] = [row('reserved', 11), row('reserved', 1), row('charged', 30)];
    await stack.db.insertInto('credit_ledger').values([stale, fresh, charged]).execute();
    expect((await usage(stack, user.token)).used).toBe(3);

    expect(await stack.app.reconcileCredits()).toBe(1);
    const statuses = await stack.db
      .selectFrom('credit_ledger')
      .select(['request_id', 'status'])
      .where('user_id', '=', user.userId)
      .execute();
    expect(Object.fromEntries(statuses.map((r) => [r.request_id, r.status]))).toEqual({
      [stale.request_id]: 'released',
      [fresh.request_id]: 'reserved',
      [charged.request_id]: 'charged',
    });
    expect((await usage(stack, user.token)).used).toBe(2);
    // A settle arriving late for the released row changes nothing; running again finds nothing to do.
    expect((await json(await settle(stack, stale.request_id, 'charged'))).status).toBe('released');
    expect(await stack.app.reconcileCredits()).toBe(0);
  });
});

describe('admin overview counts generations from the ledger', () => {
  it('counts charged conversions per window, not released or reserved ones', async () => {
    const { CreditLedgerRepository } = await import('@render/db');
    const ledger = new CreditLedgerRepository(stack.db);
    const before = await ledger.generationCounts();
    const user = await verifiedUser(stack);
    await seedCharged(stack, user.userId, 2);
    await seedCharged(stack, user.userId, 1, 10);
    const released = randomUUID();
    await reserve(stack, user.userId, released);
    await settle(stack, released, 'released');
    await reserve(stack, user.userId); // still in flight
    const after = await ledger.generationCounts();
    expect(after.total - before.total).toBe(3);
    expect(after.last24h - before.last24h).toBe(2);
    expect(after.last7d - before.last7d).toBe(2);
    expect(after.last30d - before.last30d).toBe(3);
  });
});

describe('credits: a batch reserved in one call', () => {
  it('reserves every credit in one call, or none with a 402 saying how many are left', async () => {
    const user = await verifiedUser(stack);
    const oldest = await seedCharged(stack, user.userId, 45, 29);
    const before = await ledgerRows(stack, user.userId);
    const six = Array.from({ length: 6 }, () => randomUUID());
    const refused = await reserveMany(stack, user.userId, six);
    expect(refused.status).toBe(402);
    const returnsAt = new Date(oldest.getTime() + 30 * 24 * 60 * 60 * 1000);
    expect(await json(refused)).toEqual({
      success: false,
      code: 'PAYMENT_REQUIRED',
      message: creditsShortMessage(6, 5, returnsAt),
      limit: 50,
      resetsAt: returnsAt.toISOString(),
    });
    expect(creditsShortMessage(6, 5, null)).toBe(
      'This batch needs 6 credits but your plan has 5 left in this rolling 30-day window: nothing was reserved. ' +
        'Send fewer items, or upgrade to Pro for unlimited conversions.',
    );
    // All or nothing: the ledger is as it was.
    expect(await ledgerRows(stack, user.userId)).toEqual(before);

    const five = six.slice(0, 5);
    expect(await json(await reserveMany(stack, user.userId, five))).toEqual({ reserved: 5, remaining: 0, limit: 50 });
    expect(await Promise.all(five.map((id) => statusOf(stack, id)))).toEqual(Array(5).fill('reserved'));
    expect(await usage(stack, user.token)).toMatchObject({ used: 50, remaining: 0 });
    // A retried call finds its own reservations: not counted twice, not refused, nothing added.
    expect((await reserveMany(stack, user.userId, five)).status).toBe(200);
    expect(await ledgerRows(stack, user.userId)).toHaveLength(before.length + 5);
    // Window used up: the single reserve's message.
    const full = await reserveMany(stack, user.userId, [randomUUID()]);
    expect(full.status).toBe(402);
    expect((await json(full)).message).toBe(creditLimitMessage(returnsAt));
    // Released like any reservation.
    expect(await json(await settleBatch(stack, five, 'released'))).toEqual({ settled: 5 });
    expect(await usage(stack, user.token)).toMatchObject({ used: 45, remaining: 5 });
  });

  it('cannot be overtaken by single reserves running beside it', async () => {
    const user = await verifiedUser(stack);
    await seedCharged(stack, user.userId, 40);
    // Ten left: a batch of eight and eight single reserves at once. Either the batch fits (and two singles do)
    // or it does not (and all eight singles do): never more than the ten.
    const [batch, ...singles] = await Promise.all([
      reserveMany(
        stack,
        user.userId,
        Array.from({ length: 8 }, () => randomUUID()),
      ),
      ...Array.from({ length: 8 }, () => reserve(stack, user.userId)),
    ]);
    const singlesTaken = singles.filter((r) => r.status === 200).length;
    expect(batch?.status === 200 ? singlesTaken === 2 : batch?.status === 402 && singlesTaken === 8).toBe(true);
    expect((await usage(stack, user.token)).used).toBe(batch?.status === 200 ? 50 : 48);
  });

  it('has no limit for Pro accounts, settles the charges it carries, and refuses bad calls', async () => {
    const pro = await verifiedUser(stack);
    await stack.db.updateTable('users').set({ plan: 'pro' }).where('id', '=', pro.userId).execute();
    await seedCharged(stack, pro.userId, 60);
    const earlier = randomUUID();
    expect((await reserve(stack, pro.userId, earlier)).status).toBe(200);
    const ids = Array.from({ length: 20 }, () => randomUUID());
    expect(await json(await reserveMany(stack, pro.userId, ids, [earlier]))).toEqual({ reserved: 20, remaining: null, limit: null });
    expect(await statusOf(stack, earlier)).toBe('charged');

    // Another account's request id: nothing of the call is kept.
    const user = await verifiedUser(stack);
    const taken = await reserveMany(stack, user.userId, [randomUUID(), ids[0] as string]);
    expect(taken.status).toBe(409);
    expect(await ledgerRows(stack, user.userId)).toEqual([]);
    expect((await reserveMany(stack, user.userId, [])).status).toBe(400);
    expect((await reserveMany(stack, randomUUID(), [randomUUID()])).status).toBe(404);
    expect(
      (
        await internal(
          stack,
          '/internal/credits/reserve-batch',
          { userId: user.userId, requests: [{ requestId: 'x' }] },
          'wrong-token-123456',
        )
      ).status,
    ).toBe(401);
  });
});
