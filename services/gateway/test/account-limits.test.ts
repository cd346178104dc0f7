import type { AddressInfo } from 'node:net';
import { AppError, type HtmlRenderPayload } from '@render/contracts';
import { renderJobs } from '@render/queue';
import type { RenderWorkerHandle } from '@render/render-worker';
import { decodePng } from '@render/test-stack/images';
import { testRedisUrl } from '@render/test-stack/redis';
import { Queue } from 'bullmq';
import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import app, { serverOptions } from '../src/app.ts';
import { loadGatewayConfig } from '../src/config.ts';
import type { RenderAccount } from '../src/plugins/account-limits.plugin.ts';
// The real account service, in-process on a throwaway database, exactly as its own tests start it.
import { INTERNAL_TOKEN, startStack, verifiedUser } from './helpers/auth-stack.ts';
import { startGateway, startWorker, uniquePrefix } from './helpers/stack.ts';

// Renders in flight per account (plugins/account-limits.plugin.ts), enforced inside renderQueue.render. The
// credits plugin passes the caller's account there; these tests pass it themselves, directly or through a
// test-only route, so they hold the limiter to its contract whatever the billed path around it does.

const free = (id: string): RenderAccount => ({ id, plan: 'free', role: 'user' });
const pro = (id: string): RenderAccount => ({ id, plan: 'pro', role: 'user' });
const admin = (id: string): RenderAccount => ({ id, plan: 'free', role: 'admin' });

const page = (html: string): HtmlRenderPayload => ({ html, format: 'png', width: 50, height: 50, quality: 90, scale: 1 });
const colour = (hex: string) => `<body style="margin:0;background:${hex}"></body>`;
const busy = (ms: number, hex: string) =>
  `<body style="margin:0;background:${hex}"><script>const end = Date.now() + ${ms}; while (Date.now() < end) {}</script></body>`;
const ENDLESS = '<body><script>for(;;){}</script></body>';

interface LimitedGateway {
  app: FastifyInstance;
  url: string;
  prefix: string;
  /** A render for `account` over HTTP (the test-only route), as a billed route would start it. */
  renderAs(account: RenderAccount, html: string): Promise<Response>;
  close(): Promise<void>;
}

/** The real gateway app on a real socket, plus one test-only route that renders for the account it is given. */
async function startLimitedGateway(env: Record<string, string>): Promise<LimitedGateway> {
  const prefix = env.QUEUE_PREFIX ?? uniquePrefix('limits');
  const config = loadGatewayConfig({
    REDIS_URL: await testRedisUrl(),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
    ANON_RATE_LIMIT_PER_MINUTE: '1000000',
    ANON_RATE_LIMIT_PER_DAY: '1000000',
    ANON_MAX_IN_FLIGHT: '1000000',
    ANON_MAX_PIXELS: '16000000',
    FREE_MAX_IN_FLIGHT: '2',
    PRO_MAX_IN_FLIGHT: '3',
    ...env,
    QUEUE_PREFIX: prefix,
  });
  const server = Fastify(serverOptions(config));
  // Unencapsulated, so its decorations (renderQueue, accountLimits) are the test's to call, as is the route below.
  await server.register(fp(app), { config });
  server.post('/test/render-as', { schema: { hide: true } }, async (request, reply) => {
    const { account, html } = request.body as { account: RenderAccount; html: string };
    const { image, meta } = await server.renderQueue.render('html', page(html), { account });
    return reply.type(meta.mimeType).send(image);
  });
  await server.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  return {
    app: server,
    url,
    prefix,
    renderAs: (account, html) =>
      fetch(`${url}/test/render-as`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ account, html }),
      }),
    close: () => server.close(),
  };
}

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** How a rejected render ended: its AppError code, or the abort reason's message. */
const endOf = (result: PromiseSettledResult<unknown>) =>
  result.status === 'fulfilled' ? 'ok' : result.reason instanceof AppError ? result.reason.code : (result.reason as Error).message;

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const fn of cleanups.reverse()) await fn().catch(() => undefined);
});

describe('renders in flight per account, with a worker', () => {
  let worker: RenderWorkerHandle;
  let gateway: LimitedGateway;

  beforeAll(async () => {
    const prefix = uniquePrefix('limits-worker');
    // Three pages: two for the Free account's slow renders, one left for everybody else.
    worker = await startWorker({ QUEUE_PREFIX: prefix, RENDER_QUEUES: 'html', RENDER_PAGES: '3', RENDER_TIMEOUT_MS: '3000' });
    cleanups.push(() => worker.close());
    gateway = await startLimitedGateway({ QUEUE_PREFIX: prefix, RENDER_DEADLINE_MS: '15000' });
    cleanups.push(() => gateway.close());
  });

  it('a Free account over its limit gets 429 with Retry-After while another account still renders', async () => {
    const a = free('account-a');
    const first = gateway.renderAs(a, busy(1_200, '#f00'));
    const second = gateway.renderAs(a, busy(1_200, '#f00'));
    await until(() => gateway.app.accountLimits.inFlight(a.id) === 2);

    const started = Date.now();
    const refused = await gateway.renderAs(a, colour('#f00'));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    const tooMany =
      'Too many renders in flight: the Free plan allows 2 at a time per account. Retry when one has finished, or upgrade to Pro for more.';
    expect(refused.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(await refused.json()).toEqual({
      success: false,
      code: 'RATE_LIMITED',
      message: tooMany,
      type: '/docs?tab=errors#rate-limited',
      title: 'Too many requests',
      status: 429,
      detail: tooMany,
      instance: '/test/render-as',
      requestId: refused.headers.get('x-request-id'),
    });
    expect(Date.now() - started).toBeLessThan(500);

    // Another account is not held up by the first one's renders.
    const other = await gateway.renderAs(free('account-b'), colour('#00f'));
    expect(other.status).toBe(200);
    expect(decodePng(Buffer.from(await other.arrayBuffer())).pixel(25, 25)).toEqual([0, 0, 255, 255]);
    expect(gateway.app.accountLimits.inFlight(a.id)).toBe(2); // still busy meanwhile

    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
    expect(gateway.app.accountLimits.inFlight(a.id)).toBe(0);
    const again = await gateway.renderAs(a, colour('#0f0'));
    expect(again.status).toBe(200);
    expect(decodePng(Buffer.from(await again.arrayBuffer())).pixel(25, 25)).toEqual([0, 255, 0, 255]);
  });

  it('renders that fail in the worker give their slots back: after N failures, N more start', async () => {
    const a = free('account-failing');
    for (let round = 0; round < 2; round++) {
      const failed = await Promise.allSettled([0, 1].map(() => gateway.app.renderQueue.render('html', page(ENDLESS), { account: a })));
      expect(failed.map(endOf)).toEqual(['RENDER_FAILED', 'RENDER_FAILED']);
      expect(gateway.app.accountLimits.inFlight(a.id)).toBe(0);
    }
    const ok = await Promise.allSettled([0, 1].map(() => gateway.app.renderQueue.render('html', page(colour('#fff')), { account: a })));
    expect(ok.map(endOf)).toEqual(['ok', 'ok']);
    expect(gateway.app.accountLimits.inFlight(a.id)).toBe(0);
  });
});

describe('renders in flight per account, nobody serving the queue', () => {
  // Jobs wait in the queue until the gateway's deadline: each render stays in flight as long as the test wants.
  let gateway: LimitedGateway;
  let queue: Queue;

  beforeAll(async () => {
    gateway = await startLimitedGateway({ RENDER_DEADLINE_MS: '800' });
    cleanups.push(() => gateway.close());
    const connection = new Redis(await testRedisUrl(), { maxRetriesPerRequest: null });
    queue = new Queue(renderJobs.html.queueName, { connection, prefix: gateway.prefix });
    cleanups.push(async () => {
      await queue.obliterate({ force: true }).catch(() => undefined);
      await queue.close();
      connection.disconnect();
    });
  });

  it('refuses before anything is queued, and says the plan’s limit', async () => {
    const a = pro('account-pro');
    const controller = new AbortController();
    const held = [0, 1, 2].map(() =>
      gateway.app.renderQueue.render('html', page(colour('#fff')), { account: a, signal: controller.signal }).catch((e) => e),
    );
    await until(() => gateway.app.accountLimits.inFlight(a.id) === 3);
    await until(() => false, 300).catch(() => undefined); // let the three adds land
    const queued = await queue.getWaitingCount();
    expect(queued).toBe(3);

    const refused = await gateway.app.renderQueue.render('html', page(colour('#fff')), { account: a }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({
      code: 'RATE_LIMITED',
      statusCode: 429,
      retryAfterSeconds: 1,
      message: 'Too many renders in flight: the Pro plan allows 3 at a time per account. Retry when one has finished.',
    });
    expect(await queue.getWaitingCount()).toBe(queued); // nothing was added for it
    expect(gateway.app.accountLimits.inFlight(a.id)).toBe(3);

    controller.abort(new Error('caller hung up'));
    await Promise.all(held);
    expect(gateway.app.accountLimits.inFlight(a.id)).toBe(0);
  });

  it('gives slots back after deadlines and aborts: no leak', async () => {
    const a = free('account-leak');
    // Deadline (504) twice over: each time both slots come back.
    for (let round = 0; round < 2; round++) {
      const timedOut = await Promise.allSettled(
        [0, 1].map(() => gateway.app.renderQueue.render('html', page(colour('#fff')), { account: a })),
      );
      expect(timedOut.map(endOf)).toEqual(['RENDER_TIMEOUT', 'RENDER_TIMEOUT']);
      expect(gateway.app.accountLimits.inFlight(a.id)).toBe(0);
    }
    // The caller hanging up, while queued and before anything was sent.
    for (let round = 0; round < 2; round++) {
      const controller = new AbortController();
      const pending = Promise.allSettled(
        [0, 1].map(() => gateway.app.renderQueue.render('html', page(colour('#fff')), { account: a, signal: controller.signal })),
      );
      await until(() => gateway.app.accountLimits.inFlight(a.id) === 2);
      controller.abort(new Error('caller hung up'));
      expect((await pending).map(endOf)).toEqual(['caller hung up', 'caller hung up']);
      expect(gateway.app.accountLimits.inFlight(a.id)).toBe(0);
    }
    const gone = AbortSignal.abort(new Error('gone already'));
    const early = await Promise.allSettled(
      [0, 1].map(() => gateway.app.renderQueue.render('html', page('<p>x</p>'), { account: a, signal: gone })),
    );
    expect(early.map(endOf)).toEqual(['gone already', 'gone already']);
    expect(gateway.app.accountLimits.inFlight(a.id)).toBe(0);

    // And the account can still fill its limit, exactly.
    const controller = new AbortController();
    const held = [0, 1].map(() =>
      gateway.app.renderQueue.render('html', page(colour('#fff')), { account: a, signal: controller.signal }).catch(() => undefined),
    );
    await until(() => gateway.app.accountLimits.inFlight(a.id) === 2);
    await expect(gateway.app.renderQueue.render('html', page('<p>x</p>'), { account: a })).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    controller.abort(new Error('done'));
    await Promise.all(held);
    expect(gateway.app.accountLimits.inFlight(a.id)).toBe(0);
  });

  it('does not limit admins or anonymous renders', async () => {
    const controller = new AbortController();
    const renders = Array.from({ length: 5 }, () =>
      gateway.app.renderQueue.render('html', page(colour('#fff')), { account: admin('account-admin'), signal: controller.signal }),
    );
    const anonymous = Array.from({ length: 5 }, () =>
      gateway.app.renderQueue.render('html', page(colour('#fff')), { signal: controller.signal }),
    );
    await new Promise((r) => setTimeout(r, 300));
    controller.abort(new Error('done'));
    const ends = (await Promise.allSettled([...renders, ...anonymous])).map(endOf);
    expect(ends).toEqual(Array(10).fill('done'));
    expect(gateway.app.accountLimits.inFlight('account-admin')).toBe(0);
  });
});

describe('queue depth and Redis, for an account', () => {
  it('a full queue answers 429 QUEUE_FULL with Retry-After, and the account’s slot comes back', async () => {
    const gateway = await startLimitedGateway({ MAX_QUEUE_DEPTH: '1', RENDER_DEADLINE_MS: '3000', QUEUE_FULL_RETRY_AFTER_SECONDS: '3' });
    cleanups.push(() => gateway.close());
    const a = free('account-full');
    const first = gateway.renderAs(a, colour('#fff')); // nobody serves this prefix: it waits until its deadline
    await new Promise((r) => setTimeout(r, 300));
    const full = await gateway.renderAs(a, colour('#fff'));
    expect(full.status).toBe(429);
    expect(full.headers.get('retry-after')).toBe('3');
    expect(await full.json()).toEqual({
      success: false,
      code: 'QUEUE_FULL',
      message: 'The render queue is full right now; please retry in 3 s',
      type: '/docs?tab=errors#queue-full',
      title: 'Render queue full',
      status: 429,
      detail: 'The render queue is full right now; please retry in 3 s',
      instance: '/test/render-as',
      requestId: full.headers.get('x-request-id'),
    });
    expect(gateway.app.accountLimits.inFlight(a.id)).toBe(1);
    expect((await first).status).toBe(504);
    expect(gateway.app.accountLimits.inFlight(a.id)).toBe(0);
  });

  it('Redis unreachable → 503 at once, and the account’s slot comes back', async () => {
    const gateway = await startLimitedGateway({ REDIS_URL: 'redis://127.0.0.1:1', REDIS_BOOT_WAIT_MS: '50' });
    cleanups.push(() => gateway.close());
    const a = free('account-down');
    for (let i = 0; i < 3; i++) {
      const started = Date.now();
      const res = await gateway.renderAs(a, colour('#fff'));
      expect(res.status).toBe(503);
      // Every 503 says when to come back: a Redis restart takes seconds.
      expect(res.headers.get('retry-after')).toBe('2');
      expect(await res.json()).toMatchObject({ code: 'QUEUE_UNAVAILABLE' });
      expect(Date.now() - started).toBeLessThan(1_000);
    }
    expect(gateway.app.accountLimits.inFlight(a.id)).toBe(0);
  });
});

describe('through a billed convert route, with an API key', () => {
  it('a Free key over its limit gets 429 before anything is queued or charged; the delivered render is charged', async () => {
    const prefix = uniquePrefix('limits-billed');
    const auth = await startStack();
    cleanups.push(() => auth.close());
    const worker = await startWorker({ QUEUE_PREFIX: prefix, RENDER_QUEUES: 'html', RENDER_PAGES: '2', RENDER_TIMEOUT_MS: '5000' });
    cleanups.push(() => worker.close());
    const gateway = await startGateway({ QUEUE_PREFIX: prefix, AUTH_SERVICE_URL: auth.url, INTERNAL_TOKEN, FREE_MAX_IN_FLIGHT: '1' });
    cleanups.push(() => gateway.close());
    const user = await verifiedUser(auth);
    const used = async () => {
      const res = await auth.call('GET', '/api/auth/usage', { token: user.token });
      return ((await res.json()) as { data: { used: number } }).data.used;
    };
    const convert = (html: string) =>
      gateway.post('/api/html-to-img/convert', { html, width: 50, height: 50 }, { 'x-api-key': user.apiKey });

    const slow = convert(busy(1_500, '#f00'));
    await new Promise((r) => setTimeout(r, 500)); // the slow one is in flight (its credit reserved, its job queued)
    const refused = await convert(colour('#00f'));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringContaining('the Free plan allows 1 at a time'),
    });

    expect((await slow).status).toBe(200);
    const next = await convert(colour('#00f'));
    expect(next.status).toBe(200);
    await expect.poll(used, { timeout: 5_000 }).toBe(2); // the two delivered images, not the refused call
  }, 60_000);
});
