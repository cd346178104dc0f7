import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FREE_PLAN_CREDITS, templateImageSigningString } from '@render/contracts';
import type { RenderWorkerHandle } from '@render/render-worker';
import { decodePng } from '@render/test-stack/images';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymousAdvantages, loadGatewayConfig } from '../src/config.ts';
// The real account service, in-process on a throwaway database, exactly as its own tests start it.
import { INTERNAL_TOKEN, type Stack, seedCharged, startStack, verifiedUser } from './helpers/auth-stack.ts';
import { startGateway, startTemplates, startWorker, type TestGateway, uniquePrefix } from './helpers/stack.ts';

// Limits a caller can see (README, "Limits"): RateLimit-Policy / RateLimit on answers subject to the anonymous
// limits or an account's renders in flight, X-Credits-* on billed answers with credentials, Retry-After on every
// 429 and 503, the anonymous cost rule, and GET /api/limits. Each test sends from its own client address
// (X-Forwarded-For from 127.0.0.1, a trusted proxy), so the per-address buckets of one never touch another's.

const HTML = '<html><body style="margin:0;background:#0a0"></body></html>';
/** Holds its page for `ms` in the worker, so renders overlap. */
const busy = (ms: number) => `<body style="margin:0"><script>const end = Date.now() + ${ms}; while (Date.now() < end) {}</script></body>`;
const DAY_MS = 86_400_000;
const WINDOW_MS = 30 * DAY_MS;
const ANON = { ANON_RATE_LIMIT_PER_MINUTE: '20', ANON_RATE_LIMIT_PER_DAY: '40', ANON_MAX_IN_FLIGHT: '2', ANON_MAX_PIXELS: '6000000' };

let auth: Stack;
let launchAuth: Stack;
let worker: RenderWorkerHandle;
let gateway: TestGateway;
let launchGateway: TestGateway;
let templates: { url: string; close(): Promise<void> };
let site: Server;
let sitePort: number;
let prefix: string;
const extraGateways: TestGateway[] = [];

/** A fresh client address (benchmarking range), so its buckets start full. */
let nextAddress = 0;
const client = () => {
  nextAddress += 1;
  return `198.18.${Math.floor(nextAddress / 250)}.${(nextAddress % 250) + 1}`;
};

/** A Structured Field List of items `"name";k=v;…` as { name: { k: v } } (our policy names hold no commas). */
function fields(value: string | null): Record<string, Record<string, string | number>> {
  expect(value).toBeTruthy();
  const out: Record<string, Record<string, string | number>> = {};
  for (const member of (value as string).split(/,\s*/)) {
    const [name, ...params] = member.split(';');
    expect(name).toMatch(/^"[a-z-]+"$/);
    out[(name as string).slice(1, -1)] = Object.fromEntries(
      params.map((p) => {
        const [k, v] = p.split('=') as [string, string];
        return [k, /^"/.test(v) ? v.slice(1, -1) : Number(v)];
      }),
    );
  }
  return out;
}

/** An answer with `status` whose credit headers say `limit` and `remaining`. */
function expectCredits(res: Response, status: number, limit: string, remaining: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('x-credits-limit')).toBe(limit);
  expect(res.headers.get('x-credits-remaining')).toBe(remaining);
}

const html = (g: TestGateway, body: Record<string, unknown>, headers: Record<string, string>) =>
  g.post('/api/html-to-img/convert', { html: HTML, width: 50, height: 50, ...body }, headers);

beforeAll(async () => {
  prefix = uniquePrefix('limits');
  site = createServer((_req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<body style="margin:0"><div style="height:10000px;background:#48c"></div></body>'),
  );
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  sitePort = (site.address() as AddressInfo).port;
  [auth, launchAuth] = await Promise.all([startStack(), startStack({ LAUNCH_UNLIMITED: 'true' })]);
  worker = await startWorker({
    QUEUE_PREFIX: prefix,
    RENDER_QUEUES: 'html,svg,screenshot',
    RENDER_EGRESS_ALLOWLIST: `127.0.0.1:${sitePort}`,
  });
  templates = await startTemplates(auth.databaseUrl, INTERNAL_TOKEN);
  const common = { QUEUE_PREFIX: prefix, INTERNAL_TOKEN, FREE_MAX_IN_FLIGHT: '4', PRO_MAX_IN_FLIGHT: '32', ...ANON };
  gateway = await startGateway({ ...common, AUTH_SERVICE_URL: auth.url, TEMPLATES_SERVICE_URL: templates.url });
  launchGateway = await startGateway({ ...common, AUTH_SERVICE_URL: launchAuth.url });
});

afterAll(async () => {
  await Promise.all([gateway?.close(), launchGateway?.close(), ...extraGateways.map((g) => g.close())]);
  await worker?.close();
  await templates?.close();
  await Promise.all([auth?.close(), launchAuth?.close()]);
  await new Promise((resolve) => site?.close(resolve));
});

describe('anonymous calls', () => {
  it('say their limits: per minute and per day in units, and renders in flight', async () => {
    const from = { 'x-forwarded-for': client() };
    const first = await html(gateway, {}, from);
    expect(first.status).toBe(200);
    expect(fields(first.headers.get('ratelimit-policy'))).toEqual({
      'anon-minute': { q: 20, w: 60 },
      'anon-day': { q: 40, w: 86400 },
      'anon-in-flight': { q: 2, qu: 'concurrent-requests' },
    });
    // One unit comes back every 3 s (20 a minute) and every 2,160 s (40 a day); the render is over, so both slots are free.
    expect(fields(first.headers.get('ratelimit'))).toEqual({
      'anon-minute': { r: 19, t: 3 },
      'anon-day': { r: 39, t: 2160 },
      'anon-in-flight': { r: 2 },
    });
    const second = await html(gateway, {}, from);
    expect(fields(second.headers.get('ratelimit'))).toMatchObject({ 'anon-minute': { r: 18 }, 'anon-day': { r: 38 } });
    // No credentials, no credits to tell.
    expect(second.headers.get('x-credits-remaining')).toBeNull();
    await Promise.all([first.arrayBuffer(), second.arrayBuffer()]);
  });

  it('weigh a render by its pixels and format: one unit per started 1024 × 1024 pixels, AVIF ×4', async () => {
    const from = { 'x-forwarded-for': client() };
    // 2000 × 2000 = 4,000,000 pixels: 4 units.
    const large = await html(gateway, { width: 2000, height: 2000 }, from);
    expect(large.status).toBe(200);
    expect(fields(large.headers.get('ratelimit'))).toMatchObject({ 'anon-minute': { r: 16 }, 'anon-day': { r: 36 } });
    // 1000 × 1000 as AVIF: one unit of pixels, times 4.
    const avif = await html(gateway, { width: 1000, height: 1000, format: 'avif' }, from);
    expect(avif.status).toBe(200);
    expect(avif.headers.get('content-type')).toBe('image/avif');
    expect(fields(avif.headers.get('ratelimit'))).toMatchObject({ 'anon-minute': { r: 12 }, 'anon-day': { r: 32 } });
    await Promise.all([large.arrayBuffer(), avif.arrayBuffer()]);
  });

  it('refuse what only an API key gets: past the size cap, or costing more than a minute’s quota (403, how to get more)', async () => {
    const from = { 'x-forwarded-for': client() };
    const big = await html(gateway, { width: 2500, height: 2500 }, from);
    expect(big.status).toBe(403);
    expect(await big.json()).toMatchObject({
      success: false,
      code: 'ANONYMOUS_LIMIT',
      status: 403,
      type: '/docs?tab=errors#anonymous-limit',
      message:
        'Without an API key an image may have at most 6,000,000 pixels (width × height × scale²); this one would have 6,250,000. ' +
        'Use a smaller size, or sign up for a free API key to render up to 16,000,000 pixels.',
    });
    const scaled = await html(gateway, { width: 1000, height: 1000, scale: 3 }, from);
    expect(scaled.status).toBe(403);
    // 2400 × 2400 AVIF: 6 units of pixels × 4 = 24, more than the 20 of a minute.
    const costly = await html(gateway, { width: 2400, height: 2400, format: 'avif' }, from);
    expect(costly.status).toBe(403);
    const body = await costly.json();
    expect(body.code).toBe('ANONYMOUS_LIMIT');
    expect(body.message).toBe(
      'This render counts 24 units (5.8 megapixels as AVIF), more than the 20 a minute allowed without an API key. ' +
        'Use a smaller size or another format, or sign up for a free API key.',
    );
    // The same with an API key renders.
    const user = await verifiedUser(auth);
    const keyed = await html(gateway, { width: 2500, height: 2500 }, { ...from, 'x-api-key': user.apiKey });
    expect(keyed.status).toBe(200);
    expect(decodePng(Buffer.from(await keyed.arrayBuffer()))).toMatchObject({ width: 2500, height: 2500 });
  });

  it('answer 429 once a minute’s units are spent, with Retry-After and r=0, and say what the render counts', async () => {
    const from = { 'x-forwarded-for': client() };
    // 4 × 4 units + 1 = 17 of 20.
    for (let i = 0; i < 4; i++) expect((await html(gateway, { width: 2000, height: 2000 }, from)).status).toBe(200);
    expect((await html(gateway, {}, from)).status).toBe(200);
    // 3 left: a 4-unit render takes its first unit on arrival, then lacks 1 of the other 3.
    const costly = await html(gateway, { width: 2000, height: 2000 }, from);
    expect(costly.status).toBe(429);
    expect(Number(costly.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(costly.headers.get('retry-after'))).toBeLessThanOrEqual(3);
    expect((await costly.json()).message).toMatch(
      /^This render counts 4 units \(4 megapixels as PNG\) and 2 are left: anonymous use is limited to 20 per minute per address\. Sign up for a free API key to render without these limits, or retry in \d s\.$/,
    );
    // Drain the rest with one-unit calls until the minute refuses at arrival.
    let refused: Response | undefined;
    for (let i = 0; i < 5 && !refused; i++) {
      const res = await html(gateway, {}, from);
      if (res.status === 429) refused = res;
      else await res.arrayBuffer();
    }
    expect(refused).toBeDefined();
    const answer = refused as Response;
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(fields(answer.headers.get('ratelimit'))['anon-minute']?.r).toBe(0);
    expect((await answer.json()).message).toMatch(
      /^Too many conversions without an API key: anonymous use is limited to 20 per minute per address\./,
    );
    // Another address is not affected.
    expect((await html(gateway, {}, { 'x-forwarded-for': client() })).status).toBe(200);
  });

  it('are bounded per day as well, below a Free account’s credits', async () => {
    const daily = await startGateway({
      QUEUE_PREFIX: prefix,
      INTERNAL_TOKEN,
      AUTH_SERVICE_URL: auth.url,
      ...ANON,
      ANON_RATE_LIMIT_PER_DAY: '3',
    });
    extraGateways.push(daily);
    const from = { 'x-forwarded-for': client() };
    for (let i = 0; i < 3; i++) expect((await html(daily, {}, from)).status).toBe(200);
    const refused = await html(daily, {}, from);
    expect(refused.status).toBe(429);
    // A unit comes back every 8 hours (3 a day).
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(28_000);
    expect(retryAfter).toBeLessThanOrEqual(28_800);
    expect(fields(refused.headers.get('ratelimit'))).toMatchObject({ 'anon-minute': { r: 17 }, 'anon-day': { r: 0 } });
    expect((await refused.json()).message).toMatch(
      /^Too many conversions without an API key: anonymous use is limited to 3 units a day per address\. Sign up for a free API key to render without these limits, or retry in [78] h \d+ min\.$/,
    );
    // With a key the account's own limits apply.
    const user = await verifiedUser(auth);
    expect((await html(daily, {}, { ...from, 'x-api-key': user.apiKey })).status).toBe(200);
  });

  it('may have ANON_MAX_IN_FLIGHT renders at once per address (429, Retry-After: 1)', async () => {
    const from = { 'x-forwarded-for': client() };
    const answers = await Promise.all(Array.from({ length: 3 }, () => html(gateway, { html: busy(1500) }, from)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 429]);
    const refused = answers.find((r) => r.status === 429) as Response;
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(fields(refused.headers.get('ratelimit'))['anon-in-flight']).toEqual({ r: 0 });
    expect((await refused.json()).message).toBe(
      'Too many renders in flight from your address: without an API key 2 may run at once. Retry when one has finished, or sign up for a free API key.',
    );
  });

  it('get full pages and elements cut at the anonymous size cap, with a warning that says how to get more', async () => {
    const url = `http://127.0.0.1:${sitePort}/`;
    const body = { url, fullPage: true, outputType: 'json' };
    const anonymous = await gateway.post('/api/screenshot/convert', body, { 'x-forwarded-for': client() });
    expect(anonymous.status).toBe(200);
    // Counted at the cap: 6,000,000 pixels, 6 units.
    expect(fields(anonymous.headers.get('ratelimit'))).toMatchObject({ 'anon-minute': { r: 14 } });
    const { data } = await anonymous.json();
    expect(data).toMatchObject({ width: 1280, height: Math.floor(6_000_000 / 1280) });
    expect(data.warnings).toEqual([
      expect.objectContaining({
        code: 'PAGE_CUT',
        message: expect.stringContaining('allowed without an API key (sign up for a free key to capture more)'),
      }),
    ]);
    // An element is as tall as the page makes it: cut there too.
    const element = await gateway.post(
      '/api/screenshot/convert',
      { url, selector: 'div', outputType: 'json' },
      { 'x-forwarded-for': client() },
    );
    expect(fields(element.headers.get('ratelimit'))).toMatchObject({ 'anon-minute': { r: 14 } });
    expect((await element.json()).data).toMatchObject({ width: 1280, height: Math.floor(6_000_000 / 1280) });

    const user = await verifiedUser(auth);
    const keyed = await gateway.post('/api/screenshot/convert', body, { 'x-api-key': user.apiKey });
    expect((await keyed.json()).data).toMatchObject({ width: 1280, height: 10_000, warnings: [] });
    const keyedElement = await gateway.post(
      '/api/screenshot/convert',
      { url, selector: 'div', outputType: 'json' },
      { 'x-api-key': user.apiKey },
    );
    expect((await keyedElement.json()).data).toMatchObject({ width: 1280, height: 10_000 });
  });
});

describe('calls with credentials', () => {
  it('say the credits left and the plan’s renders in flight, with a key or a session', async () => {
    const user = await verifiedUser(auth);
    const first = await html(gateway, {}, { 'x-api-key': user.apiKey });
    expectCredits(first, 200, '50', '49');
    expect(fields(first.headers.get('ratelimit-policy'))).toEqual({ 'free-in-flight': { q: 4, qu: 'concurrent-requests' } });
    expect(fields(first.headers.get('ratelimit'))).toEqual({ 'free-in-flight': { r: 4 } });
    const session = await html(gateway, {}, { authorization: `Bearer ${user.token}` });
    expect(session.headers.get('x-credits-remaining')).toBe('48');
    // A cache hit charges nothing, and says so.
    const cached = { cache: 60 };
    expect((await html(gateway, cached, { 'x-api-key': user.apiKey })).headers.get('x-credits-remaining')).toBe('47');
    const hit = await html(gateway, cached, { 'x-api-key': user.apiKey });
    expect(hit.headers.get('x-cache')).toBe('HIT');
    expect(hit.headers.get('x-credits-remaining')).toBe('47');
  });

  it('count spares leased ahead as credits still there', async () => {
    const user = await verifiedUser(auth);
    // Several at once: the key leases credits ahead; every answer still tells what is left, at most 50 − its own.
    const answers = await Promise.all(Array.from({ length: 4 }, () => html(gateway, {}, { 'x-api-key': user.apiKey })));
    const remaining = answers.map((r) => Number(r.headers.get('x-credits-remaining')));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    for (const r of remaining) expect(r).toBeGreaterThanOrEqual(46);
    for (const r of remaining) expect(r).toBeLessThanOrEqual(49);
    expect(Math.min(...remaining)).toBe(46);
  });

  it('say "unlimited" for Pro and administrators', async () => {
    const pro = await verifiedUser(auth);
    await auth.db.updateTable('users').set({ plan: 'pro' }).where('id', '=', pro.userId).execute();
    const res = await html(gateway, {}, { 'x-api-key': pro.apiKey });
    expect(res.headers.get('x-credits-limit')).toBe('unlimited');
    expect(res.headers.get('x-credits-remaining')).toBe('unlimited');
    expect(fields(res.headers.get('ratelimit-policy'))).toEqual({ 'pro-in-flight': { q: 32, qu: 'concurrent-requests' } });
    const admin = await verifiedUser(auth);
    await auth.db.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.userId).execute();
    const adminRes = await html(gateway, {}, { 'x-api-key': admin.apiKey });
    expect(adminRes.headers.get('x-credits-limit')).toBe('unlimited');
    // No in-flight limit for administrators: nothing to say.
    expect(adminRes.headers.get('ratelimit')).toBeNull();
  });

  it('answer 402 with when the next credit comes back once the window is used up', async () => {
    const user = await verifiedUser(auth);
    const oldest = await seedCharged(auth, user.userId, 30, 20);
    await seedCharged(auth, user.userId, 20, 2);
    const returnsAt = new Date(oldest.getTime() + WINDOW_MS);
    const both: Record<string, string>[] = [{ 'x-api-key': user.apiKey }, { authorization: `Bearer ${user.token}` }];
    for (const credentials of both) {
      // Past the anonymous size cap, so the address's allowance (a Free account's fallback) cannot serve it either.
      const refused = await html(gateway, { width: 2500, height: 2500 }, credentials);
      expectCredits(refused, 402, '50', '0');
      expect(refused.headers.get('x-credits-reset')).toBe(returnsAt.toISOString());
      const { message } = await refused.json();
      const day = returnsAt.toLocaleDateString('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'long', year: 'numeric' });
      expect(message).toContain(`Your next credit comes back on ${day} at ${returnsAt.toISOString().slice(11, 16)} UTC`);
    }
  });

  it('hit the plan’s renders in flight: 429, Retry-After: 1, r=0', async () => {
    const user = await verifiedUser(auth);
    const answers = await Promise.all(Array.from({ length: 5 }, () => html(gateway, { html: busy(1500) }, { 'x-api-key': user.apiKey })));
    const refused = answers.filter((r) => r.status === 429);
    expect(refused).toHaveLength(1);
    expect(refused[0]?.headers.get('retry-after')).toBe('1');
    expect(fields(refused[0]?.headers.get('ratelimit') ?? null)).toEqual({ 'free-in-flight': { r: 0 } });
  });

  it('never show a template owner’s credits on a public signed image URL (charged to the owner all the same)', async () => {
    const owner = await verifiedUser(auth);
    const created = await gateway.post(
      '/api/template',
      {
        name: 'Card',
        width: 100,
        height: 50,
        svg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50"><text x="5" y="30" data-variable="title">Hi</text></svg>',
        variables: [{ name: 'title', type: 'text', defaultValue: 'Hi' }],
      },
      { authorization: `Bearer ${owner.token}` },
    );
    expect(created.status).toBe(201);
    const id = (await created.json()).data.id as string;
    const params: Array<[string, string]> = [['title', 'Public']];
    const sig = createHmac('sha256', owner.apiKey).update(templateImageSigningString(id, params)).digest('hex');
    const res = await fetch(`${gateway.url}/api/template/${id}/image?${new URLSearchParams([...params, ['sig', sig]])}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-credits-remaining')).toBeNull();
    expect(res.headers.get('x-credits-limit')).toBeNull();
    expect(res.headers.get('ratelimit')).toBeNull();
    // The owner's own call says what the public one cost them.
    expect((await html(gateway, {}, { 'x-api-key': owner.apiKey })).headers.get('x-credits-remaining')).toBe('48');
  });
});

describe('the launch period: one setting, LAUNCH_UNLIMITED on the account service', () => {
  it('is what GET /api/limits says, with every other limit', async () => {
    const res = await fetch(`${gateway.url}/api/limits`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      success: true,
      data: {
        launchPeriod: false,
        anonymous: {
          perMinute: 20,
          perDay: 40,
          maxInFlight: 2,
          maxPixels: 6_000_000,
          unitPixels: 1_048_576,
          formatWeights: { png: 1, jpeg: 1, webp: 1, svg: 1, pdf: 2, avif: 4 },
        },
        plans: { free: { credits: 50, windowDays: 30, maxInFlight: 4 }, pro: { credits: null, maxInFlight: 32 } },
      },
    });
    const launch = await (await fetch(`${launchGateway.url}/api/limits`)).json();
    expect(launch.data).toMatchObject({ launchPeriod: true, plans: { free: { credits: null } } });
  });

  it('makes a Free account unlimited, and its answers say so', async () => {
    const user = await verifiedUser(launchAuth);
    expectCredits(await html(launchGateway, {}, { 'x-api-key': user.apiKey }), 200, 'unlimited', 'unlimited');
  });
});

describe('Retry-After', () => {
  it('is on every 503: the account service down, its own 503s forwarded, the queue’s Redis down, readiness', async () => {
    const authDown = await startGateway({ QUEUE_PREFIX: prefix, INTERNAL_TOKEN, AUTH_SERVICE_URL: 'http://127.0.0.1:1' });
    const redisDown = await startGateway({
      QUEUE_PREFIX: prefix,
      REDIS_URL: 'redis://127.0.0.1:1',
      REDIS_BOOT_WAIT_MS: '0',
      AUTH_SERVICE_URL: auth.url,
    });
    extraGateways.push(authDown, redisDown);
    const keyed = await html(authDown, {}, { 'x-api-key': `rk_${'a'.repeat(32)}` });
    expect(keyed.status).toBe(503);
    expect(keyed.headers.get('retry-after')).toBe('2');
    const limits = await fetch(`${authDown.url}/api/limits`);
    expect(limits.status).toBe(503);
    expect(limits.headers.get('retry-after')).toBe('2');
    const forwarded = await fetch(`${authDown.url}/api/auth/me`, { headers: { authorization: 'Bearer x' } });
    expect(forwarded.status).toBe(503);
    expect(Number(forwarded.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    // Billing without Stripe keys: a configuration matter, so the account service asks for an hour.
    const user = await verifiedUser(auth);
    const billing = await fetch(`${gateway.url}/api/auth/upgrade`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(billing.status).toBe(503);
    expect(billing.headers.get('retry-after')).toBe('3600');

    const queue = await html(redisDown, {}, { 'x-forwarded-for': client() });
    expect(queue.status).toBe(503);
    expect(queue.headers.get('retry-after')).toBe('2');
    const ready = await fetch(`${redisDown.url}/health/ready`);
    expect(ready.status).toBe(503);
    expect(ready.headers.get('retry-after')).toBe('2');
  });
});

describe('the numbers: a Free account is never worse off than no account', () => {
  it('holds for the defaults, and a configuration that breaks it is named at boot', () => {
    const defaults = loadGatewayConfig({});
    expect(defaults).toMatchObject({
      ANON_RATE_LIMIT_PER_DAY: 40,
      ANON_MAX_IN_FLIGHT: 2,
      FREE_MAX_IN_FLIGHT: 4,
      ANON_MAX_PIXELS: 6_000_000,
    });
    // A day's anonymous units buy at most as many renders as units; a Free account has 50 credits of any size.
    expect(defaults.ANON_RATE_LIMIT_PER_DAY).toBeLessThan(FREE_PLAN_CREDITS);
    expect(anonymousAdvantages(defaults)).toEqual([]);
    expect(anonymousAdvantages(loadGatewayConfig({ ANON_RATE_LIMIT_PER_DAY: '50', ANON_MAX_IN_FLIGHT: '5' }))).toEqual([
      "ANON_RATE_LIMIT_PER_DAY (50) is not below a Free account's 50 credits",
      'ANON_MAX_IN_FLIGHT (5) is above FREE_MAX_IN_FLIGHT (4)',
    ]);
  });
});
