import type { RenderWorkerHandle } from '@render/render-worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The real account service, in-process on a throwaway database, exactly as its own tests start it.
import { INTERNAL_TOKEN, type Stack, seedCharged, startStack, verifiedUser } from './helpers/auth-stack.ts';
import { recordingProxy } from './helpers/recording-proxy.ts';
import { startGateway, startWorker, type TestGateway, uniquePrefix } from './helpers/stack.ts';

const HTML = '<html><body style="margin:0;background:#00f"></body></html>';
// Never finishes: the worker's render deadline fails it, so the call ends in an error.
const ENDLESS = '<html><body><script>for(;;){}</script></body></html>';
// The date is the oldest charge's plus 30 days (test/limit-headers.test.ts holds it to the ledger).
const LIMIT_MESSAGE =
  /^You have used all 50 credits of your plan for this rolling 30-day window\. Your next credit comes back on \d{1,2} [A-Z][a-z]+ \d{4} at \d\d:\d\d UTC, when the oldest one leaves the window\. Upgrade to Pro for unlimited conversions\.$/;

let auth: Stack;
let worker: RenderWorkerHandle;
let gateway: TestGateway;
let strictGateway: TestGateway;
let authDownGateway: TestGateway;
let queuePrefix: string;

beforeAll(async () => {
  const prefix = uniquePrefix('credits');
  queuePrefix = prefix;
  auth = await startStack();
  worker = await startWorker({ QUEUE_PREFIX: prefix, RENDER_QUEUES: 'html', RENDER_TIMEOUT_MS: '1000' });
  gateway = await startGateway({ QUEUE_PREFIX: prefix, AUTH_SERVICE_URL: auth.url, INTERNAL_TOKEN });
  strictGateway = await startGateway({ QUEUE_PREFIX: prefix, AUTH_SERVICE_URL: auth.url, INTERNAL_TOKEN, ANON_RATE_LIMIT_PER_MINUTE: '3' });
  authDownGateway = await startGateway({ QUEUE_PREFIX: prefix, AUTH_SERVICE_URL: 'http://127.0.0.1:1', INTERNAL_TOKEN });
});

afterAll(async () => {
  await Promise.all([gateway?.close(), strictGateway?.close(), authDownGateway?.close()]);
  await worker?.close();
  await auth?.close();
});

/** A gateway of the test's own on the shared queues, calling the account service at `authUrl`, settling every `batchMs`. */
const ownGateway = (authUrl: string, batchMs?: string) =>
  startGateway({
    QUEUE_PREFIX: queuePrefix,
    AUTH_SERVICE_URL: authUrl,
    INTERNAL_TOKEN,
    ...(batchMs ? { CREDIT_SETTLE_BATCH_MS: batchMs } : {}),
  });

/** The HTML convert call this file makes, on `on`, with `headers`. */
const convertOn = (on: TestGateway, headers: Record<string, string> = {}) =>
  on.post('/api/html-to-img/convert', { html: HTML, width: 50, height: 50 }, headers);

/** A convert with the key on `on` that answers an image, read to its end. */
async function convertAndRead(on: TestGateway, apiKey: string): Promise<void> {
  const res = await convertOn(on, { 'x-api-key': apiKey });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
}

const used = async (token: string): Promise<number> => {
  const res = await auth.call('GET', '/api/auth/usage', { token });
  return ((await res.json()) as { data: { used: number } }).data.used;
};

describe('authenticated convert calls and credits', () => {
  it('charges one credit for an image, with the key in X-API-Key or as a Bearer', async () => {
    const user = await verifiedUser(auth);
    expect(user.apiKey).toMatch(/^rk_/);
    const res = await convertOn(gateway, { 'x-api-key': user.apiKey });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(await used(user.token)).toBe(1);

    const bearer = await convertOn(gateway, { authorization: `Bearer ${user.apiKey}` });
    expect(bearer.status).toBe(200);
    expect(await used(user.token)).toBe(2);
  });

  it('accepts the session token (JWT) as a Bearer and charges that account', async () => {
    const user = await verifiedUser(auth);
    const res = await convertOn(gateway, { authorization: `Bearer ${user.token}` });
    expect(res.status).toBe(200);
    expect(await used(user.token)).toBe(1);
  });

  it('settles the charge after the answer, which already counts the credit as used', async () => {
    const user = await verifiedUser(auth);
    const ledger = () => auth.db.selectFrom('credit_ledger').select('status').where('user_id', '=', user.userId).execute();
    const own = await ownGateway(auth.url);
    try {
      const res = await convertOn(own, { 'x-api-key': user.apiKey });
      expect(res.status).toBe(200);
      // Reserved or already charged, the credit counts as used the moment the image is answered.
      expect(await used(user.token)).toBe(1);
    } finally {
      await own.close();
    }
    expect(await ledger()).toEqual([{ status: 'charged' }]);
  });

  it('records an unlimited (Pro) account’s use, and withholds the image if its reservation is refused after all', async () => {
    const user = await verifiedUser(auth);
    await auth.db.updateTable('users').set({ plan: 'pro' }).where('id', '=', user.userId).execute();
    // The session token, whose identity the gateway caches (API keys are verified on every call).
    const convert = () => convertOn(gateway, { authorization: `Bearer ${user.token}` });
    const ok = await convert();
    expect(ok.status).toBe(200);
    expect(await used(user.token)).toBe(1);

    // Downgraded and out of credits while the gateway still holds the session as Pro (its identity cache):
    // the render runs alongside the reservation, but the refusal wins and nothing is charged.
    await auth.db.updateTable('users').set({ plan: 'free' }).where('id', '=', user.userId).execute();
    await seedCharged(auth, user.userId, 49);
    const refused = await convert();
    expect(refused.status).toBe(402);
    expect(refused.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(await refused.json()).toMatchObject({ success: false, code: 'PAYMENT_REQUIRED', message: expect.stringMatching(LIMIT_MESSAGE) });
    expect(await used(user.token)).toBe(50);
  });

  it('does not charge a failed render', async () => {
    const user = await verifiedUser(auth);
    const res = await gateway.post('/api/html-to-img/convert', { html: ENDLESS, width: 50, height: 50 }, { 'x-api-key': user.apiKey });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(await used(user.token)).toBe(0);
    const rows = await auth.db.selectFrom('credit_ledger').select('status').where('user_id', '=', user.userId).execute();
    expect(rows).toEqual([{ status: 'released' }]);
  });

  it('lets exactly one of 50 concurrent converts use the last credit; the rest are served free on the address’s allowance', async () => {
    const user = await verifiedUser(auth);
    await seedCharged(auth, user.userId, 49);
    const from = { 'x-forwarded-for': `198.51.100.${Math.floor(Math.random() * 250) + 1}` };
    const results = await Promise.all(Array.from({ length: 50 }, () => convertOn(gateway, { 'x-api-key': user.apiKey, ...from })));
    const statuses = results.map((r) => r.status);
    // The rest fall back to the address's anonymous allowance (unbounded on this gateway): free images, never a second charge.
    expect(statuses.every((s) => s === 200)).toBe(true);
    await Promise.all(results.map((r) => r.arrayBuffer().catch(() => undefined)));
    expect(await used(user.token)).toBe(50);
  });

  it('serves a Free account out of credits on its address’s anonymous allowance, never worse off than no account, then 402', async () => {
    const user = await verifiedUser(auth);
    await seedCharged(auth, user.userId, 50);
    const from = { 'x-forwarded-for': `203.0.113.${Math.floor(Math.random() * 250) + 1}` };
    const call = () => convertOn(strictGateway, { 'x-api-key': user.apiKey, ...from });
    for (let i = 0; i < 3; i++) {
      const res = await call();
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(res.headers.get('x-credits-remaining')).toBe('0');
      expect(res.headers.get('ratelimit')).toMatch(/"anon-minute";r=\d+/);
      await res.arrayBuffer();
    }
    // The address's minute (3 here) is spent: the account's own refusal, which says when credits come back.
    const spent = await call();
    expect(spent.status).toBe(402);
    expect(await spent.json()).toMatchObject({ code: 'PAYMENT_REQUIRED', message: expect.stringMatching(LIMIT_MESSAGE) });
    // Nothing was charged past the plan, and the fallback used the same allowance as a call without a key.
    expect(await used(user.token)).toBe(50);
    const anonymous = await convertOn(strictGateway, from);
    expect(anonymous.status).toBe(429);
    await anonymous.arrayBuffer();
  });

  it('answers 401 for a wrong key or token, before looking at the body', async () => {
    const attempts: Record<string, string>[] = [
      { 'x-api-key': 'rk_not-a-real-key' },
      { authorization: 'Bearer rk_nope' },
      { authorization: 'Bearer not.a.jwt' },
      { authorization: 'Basic abc' },
    ];
    for (const headers of attempts) {
      const res = await gateway.post('/api/html-to-img/convert', { html: '' }, headers);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
    }
  });

  it('answers 503 to authenticated calls when the account service is down, and still serves anonymous ones', async () => {
    const res = await convertOn(authDownGateway, { 'x-api-key': 'rk_whatever' });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    const anonymous = await convertOn(authDownGateway);
    expect(anonymous.status).toBe(200);
  });
});

describe('API keys: verified by the reservation itself', () => {
  const convert = (apiKey: string, body: unknown = { html: HTML, width: 50, height: 50 }, on = gateway) =>
    on.post('/api/html-to-img/convert', body, { 'x-api-key': apiKey });
  const ledger = (userId: string) =>
    auth.db.selectFrom('credit_ledger').select(['request_id', 'status']).where('user_id', '=', userId).execute();

  it('refuses a key regenerated right after it was used: 401 at once, no image, nothing charged', async () => {
    const user = await verifiedUser(auth);
    const ok = await convert(user.apiKey);
    expect(ok.status).toBe(200);
    await ok.arrayBuffer();
    const regenerated = await auth.call('POST', '/api/auth/api-key/regenerate', { token: user.token });
    const { apiKey } = (await regenerated.json()) as { apiKey: string };

    const refused = await convert(user.apiKey);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ success: false, code: 'UNAUTHORIZED', message: 'Invalid API key' });
    expect(await used(user.token)).toBe(1);
    expect(await ledger(user.userId)).toHaveLength(1);
    expect((await convert(apiKey)).status).toBe(200);
    expect(await used(user.token)).toBe(2);
  });

  it('gives back the credit of a call refused before its render, before answering it', async () => {
    const user = await verifiedUser(auth);
    // The key is checked (and the credit reserved) before the body is read: a body the schema refuses
    // gets its 400, and its credit back first. Once as the key's first call, once after a render.
    for (const expected of [0, 1]) {
      const bad = await convert(user.apiKey, { html: 123 });
      expect(bad.status).toBe(400);
      expect(await used(user.token)).toBe(expected);
      if (expected === 0) expect((await convert(user.apiKey)).status).toBe(200);
    }
    // The render's charge went along with the second refused call's reservation.
    expect((await ledger(user.userId)).map((row) => row.status).sort()).toEqual(['charged', 'released', 'released']);
  });
});

describe('charges settled after the answer, in batches', () => {
  const statuses = async (userId: string) =>
    (await auth.db.selectFrom('credit_ledger').select(['request_id', 'status']).where('user_id', '=', userId).execute()).map(
      (row) => row.status,
    );

  it('carries each charge on the next reservation call, and sends those left when the gateway closes', async () => {
    const proxy = await recordingProxy(auth.url);
    // A long batch window, so only the calls themselves and the close move charges.
    const own = await ownGateway(proxy.url, '600000');
    let closed = false;
    try {
      const user = await verifiedUser(auth);
      for (let i = 0; i < 3; i++) {
        await convertAndRead(own, user.apiKey);
      }
      // Answered and counted, not yet settled: the last charge waits for a call to carry it.
      expect(await used(user.token)).toBe(3);
      const reserves = proxy.calls.filter((call) => call.path === '/internal/credits/reserve');
      const jobs = reserves.map((call) => call.body.requestId);
      // Each charge goes with what its render made (for the account's usage lists); each reserve with its kind.
      type Charge = { requestId: string; kind: string; format: string; sizeBytes: number; renderMs: number };
      const charged = reserves.map((call) => call.body.charged as Charge[] | undefined);
      expect(charged.map((charges) => charges?.map((charge) => charge.requestId))).toEqual([undefined, [jobs[0]], [jobs[1]]]);
      expect(charged[1]![0]).toEqual({
        requestId: jobs[0],
        kind: 'html',
        format: 'png',
        sizeBytes: expect.any(Number),
        renderMs: expect.any(Number),
      });
      expect(reserves.map((call) => call.body.kind)).toEqual(['html', 'html', 'html']);
      expect((await statuses(user.userId)).sort()).toEqual(['charged', 'charged', 'reserved']);
      await own.close();
      closed = true;
      expect(proxy.calls.filter((call) => call.path === '/internal/credits/settle-batch').map((call) => call.body)).toEqual([
        {
          requestIds: [{ requestId: jobs[2], kind: 'html', format: 'png', sizeBytes: expect.any(Number), renderMs: expect.any(Number) }],
          outcome: 'charged',
        },
      ]);
      expect(await statuses(user.userId)).toEqual(['charged', 'charged', 'charged']);
      expect(await used(user.token)).toBe(3);
    } finally {
      if (!closed) await own.close();
      await proxy.close();
    }
  });

  it('retries a batch the account service did not confirm until it is charged: a delivered image is never left unbilled', async () => {
    let refusals = 2;
    const proxy = await recordingProxy(auth.url, (path) => path === '/internal/credits/settle-batch' && refusals-- > 0);
    const own = await ownGateway(proxy.url, '20');
    const user = await verifiedUser(auth);
    try {
      await convertAndRead(own, user.apiKey);
      const deadline = Date.now() + 5_000;
      while ((await statuses(user.userId))[0] !== 'charged' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(await statuses(user.userId)).toEqual(['charged']);
      expect(proxy.calls.filter((call) => call.path === '/internal/credits/settle-batch')).toHaveLength(3);
      // Each refused settle is counted, for the CreditsSettleFailing alert.
      const metrics = await (await fetch(`${own.url}/metrics`, { headers: { 'x-internal-token': INTERNAL_TOKEN } })).text();
      expect(metrics).toMatch(/^credits_settle_failures_total\{[^}]*outcome="charged"[^}]*\} 2$/m);
    } finally {
      await own.close();
      await proxy.close();
    }
  });

  it('leaves a batch the account service did not confirm reserved, counted as used, for its sweep', async () => {
    const proxy = await recordingProxy(auth.url, (path) => path === '/internal/credits/settle-batch');
    const own = await ownGateway(proxy.url, '600000');
    const user = await verifiedUser(auth);
    try {
      await convertAndRead(own, user.apiKey);
    } finally {
      await own.close();
      await proxy.close();
    }
    expect(proxy.calls.map((call) => call.path)).toEqual(['/internal/credits/reserve', '/internal/credits/settle-batch']);
    expect(await statuses(user.userId)).toEqual(['reserved']);
    expect(await used(user.token)).toBe(1);
    // The sweep releases what is left reserved past the timeout (here: made to look old enough).
    await auth.db
      .updateTable('credit_ledger')
      .set({ created_at: new Date(Date.now() - 11 * 60_000) })
      .where('user_id', '=', user.userId)
      .execute();
    expect(await auth.app.reconcileCredits()).toBeGreaterThanOrEqual(1);
    expect(await statuses(user.userId)).toEqual(['released']);
  });
});

describe('anonymous convert calls', () => {
  it('are allowed up to the per-IP limit, then 429 with a clear message; credentials are not limited', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      // An invalid body still counts: the limit is checked before the body is parsed, so it is cheap.
      const res = await strictGateway.post('/api/svg-to-img/convert', { svg: '' });
      statuses.push(res.status);
      if (res.status === 429) {
        // One call comes back every 60 / 3 seconds.
        expect(res.headers.get('retry-after')).toBe('20');
        expect((await res.json()).message).toMatch(/anonymous use is limited to 3 per minute/);
      } else await res.arrayBuffer();
    }
    expect(statuses).toEqual([400, 400, 400, 429]);
    const user = await verifiedUser(auth);
    const res = await convertOn(strictGateway, { 'x-api-key': user.apiKey });
    expect(res.status).toBe(200);
  });

  it('share one limit across gateway replicas (the buckets live in Redis)', async () => {
    const prefix = uniquePrefix('anon-shared');
    const replicas = await Promise.all(
      [1, 2].map(() => startGateway({ QUEUE_PREFIX: prefix, AUTH_SERVICE_URL: auth.url, INTERNAL_TOKEN, ANON_RATE_LIMIT_PER_MINUTE: '3' })),
    );
    try {
      const statuses: number[] = [];
      for (const replica of [replicas[0], replicas[1], replicas[0], replicas[1]]) {
        const res = await replica!.post('/api/svg-to-img/convert', { svg: '' });
        statuses.push(res.status);
        await res.arrayBuffer();
      }
      expect(statuses).toEqual([400, 400, 400, 429]);
    } finally {
      await Promise.all(replicas.map((replica) => replica.close()));
    }
  });
});
