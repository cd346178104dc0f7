import type { RenderWorkerHandle } from '@render/render-worker';
import { creditsUsed } from '@render/test-stack/account-calls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_TOKEN, type Stack, startStack, verifiedUser } from './helpers/auth-stack.ts';
import { type RecordingProxy, recordingProxy } from './helpers/recording-proxy.ts';
import { startGateway, startWorker, type TestGateway, uniquePrefix } from './helpers/stack.ts';

// Credits leased ahead for a busy API key (KeyLeases): fewer calls to the account service, the same ledger.

const HTML = '<p style="margin:0">lease</p>';
const FREE_LIMIT = 50;

let auth: Stack;
let worker: RenderWorkerHandle;
let prefix: string;

beforeAll(async () => {
  prefix = uniquePrefix('leases');
  auth = await startStack();
  worker = await startWorker({ QUEUE_PREFIX: prefix, RENDER_QUEUES: 'html', RENDER_PAGES: '4' });
});

afterAll(async () => {
  await worker?.close();
  await auth?.close();
});

const statuses = async (userId: string) => {
  const rows = await auth.db.selectFrom('credit_ledger').select('status').where('user_id', '=', userId).execute();
  const counts: Record<string, number> = {};
  for (const { status } of rows) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
};

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** `waves` rounds of `concurrency` converts at once with the key; the statuses answered. */
async function waves(gateway: TestGateway, apiKey: string, count: number, concurrency = 8): Promise<number[]> {
  const answered: number[] = [];
  for (let w = 0; w < count; w++) {
    const round = await Promise.all(
      Array.from({ length: concurrency }, async () => {
        const res = await gateway.post('/api/html-to-img/convert', { html: HTML, width: 100, height: 50 }, { 'x-api-key': apiKey });
        await res.arrayBuffer();
        return res.status;
      }),
    );
    answered.push(...round);
  }
  return answered;
}

const usedThrough = (gateway: TestGateway, token: string): Promise<number> => creditsUsed(gateway.url, token);

/**
 * Every render answered, with fewer reservation calls than renders (spares leased ahead), and each image
 * charged once; the ledger's statuses once the spares nobody took have gone back.
 */
async function expectLeasedAhead(
  proxy: RecordingProxy,
  gateway: TestGateway,
  user: { userId: string; token: string },
  answered: number[],
): Promise<Record<string, number>> {
  expect(answered.filter((status) => status !== 200)).toEqual([]);
  const reserves = proxy.calls.filter((call) => call.path === '/internal/credits/reserve');
  expect(reserves.some((call) => Array.isArray(call.body.spares))).toBe(true);
  expect(reserves.length).toBeLessThan(answered.length * 0.75);
  // Read through the gateway, usage counts every answered render at once (pending charges go first).
  expect(await usedThrough(gateway, user.token)).toBe(answered.length);
  // Spares nobody took go back when their time is up: only the images are charged.
  await until(async () => !(await statuses(user.userId)).leased, 5_000);
  const final = await statuses(user.userId);
  expect(final.charged).toBe(answered.length);
  return final;
}

describe('credits leased ahead for a busy API key', () => {
  it('reserves ahead for renders in flight: fewer reservation calls than renders, each image charged once, no spare kept', async () => {
    const proxy = await recordingProxy(auth.url);
    const gateway = await startGateway({ QUEUE_PREFIX: prefix, AUTH_SERVICE_URL: proxy.url, INTERNAL_TOKEN, KEY_LEASE_TTL_MS: '1000' });
    try {
      const user = await verifiedUser(auth);
      await auth.db.updateTable('users').set({ plan: 'pro' }).where('id', '=', user.userId).execute();
      const answered = await waves(gateway, user.apiKey, 5);
      const final = await expectLeasedAhead(proxy, gateway, user, answered);
      expect(final.reserved).toBeUndefined();
    } finally {
      await gateway.close();
      await proxy.close();
    }
  });

  it('leases for a key calling one at a time in a loop too: fewer reservation calls than renders, each charged once', async () => {
    const proxy = await recordingProxy(auth.url);
    // A low threshold: a busy CI machine may render this loop slower than the default 10 a second.
    const gateway = await startGateway({
      QUEUE_PREFIX: prefix,
      AUTH_SERVICE_URL: proxy.url,
      INTERNAL_TOKEN,
      KEY_LEASE_TTL_MS: '1000',
      KEY_LEASE_STEADY_PER_SECOND: '2',
    });
    try {
      const user = await verifiedUser(auth);
      await auth.db.updateTable('users').set({ plan: 'pro' }).where('id', '=', user.userId).execute();
      // One at a time, back to back (a script's loop): past the threshold the key leases ahead.
      const answered = await waves(gateway, user.apiKey, 40, 1);
      await expectLeasedAhead(proxy, gateway, user, answered);
    } finally {
      await gateway.close();
      await proxy.close();
    }
  });

  it('never leases past a Free account’s limit: exactly the credits left are delivered, the rest get 402', async () => {
    // The address's anonymous allowance (where a Free account out of credits falls back) is one unit, spent first.
    const anon = { ANON_RATE_LIMIT_PER_MINUTE: '1', ANON_RATE_LIMIT_PER_DAY: '1' };
    const gateway = await startGateway({
      QUEUE_PREFIX: prefix,
      AUTH_SERVICE_URL: auth.url,
      INTERNAL_TOKEN,
      KEY_LEASE_TTL_MS: '1000',
      ...anon,
    });
    try {
      // A call without credentials counts before its body is read, so an empty SVG spends the unit.
      const spent = await gateway.post('/api/svg-to-img/convert', { svg: '' });
      expect(spent.status).toBe(400);
      await spent.arrayBuffer();
      const user = await verifiedUser(auth);
      const left = 14;
      await auth.db
        .insertInto('credit_ledger')
        .values(
          Array.from({ length: FREE_LIMIT - left }, (_, i) => ({
            user_id: user.userId,
            request_id: `seed-${user.userId}-${i}`,
            status: 'charged' as const,
          })),
        )
        .execute();
      const answered = await waves(gateway, user.apiKey, 4);
      expect(answered.filter((status) => status === 200)).toHaveLength(left);
      expect(answered.filter((status) => status === 402)).toHaveLength(answered.length - left);
      await until(async () => !(await statuses(user.userId)).leased, 5_000);
      expect((await statuses(user.userId)).charged).toBe(FREE_LIMIT);
    } finally {
      await gateway.close();
    }
  });

  it('drops every lease at once when a key is regenerated through another replica: the old key gets 401, its spares go back', async () => {
    // Spares kept for a minute: only the change can end them within this test.
    const first = await startGateway({ QUEUE_PREFIX: prefix, AUTH_SERVICE_URL: auth.url, INTERNAL_TOKEN, KEY_LEASE_TTL_MS: '60000' });
    const second = await startGateway({ QUEUE_PREFIX: prefix, AUTH_SERVICE_URL: auth.url, INTERNAL_TOKEN });
    try {
      const user = await verifiedUser(auth);
      await auth.db.updateTable('users').set({ plan: 'pro' }).where('id', '=', user.userId).execute();
      for (let w = 0; w < 6 && !(await statuses(user.userId)).leased; w++) await waves(first, user.apiKey, 1);
      expect((await statuses(user.userId)).leased).toBeGreaterThan(0);

      const regenerated = await fetch(`${second.url}/api/auth/api-key/regenerate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${user.token}` },
      });
      expect(regenerated.status).toBe(200);
      const old = await first.post('/api/html-to-img/convert', { html: HTML, width: 100, height: 50 }, { 'x-api-key': user.apiKey });
      expect(old.status).toBe(401);
      await until(async () => !(await statuses(user.userId)).leased, 3_000);
      expect((await statuses(user.userId)).reserved).toBeUndefined();
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });
});
