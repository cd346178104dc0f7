import { execFileSync } from 'node:child_process';
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RenderWorkerHandle } from '@render/render-worker';
import { testRedisUrl } from '@render/test-stack/redis';
import { repoRoot } from '@render/test-stack/repo-root';
import { closeInOrder } from '@render/test-stack/teardown';
import { startWebhookReceiver, type WebhookReceiver } from '@render/test-stack/webhook-receiver';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_TOKEN, type Stack, startStack, verifiedUser } from './helpers/auth-stack.ts';
import { startGateway, startTemplates, startWorker, type TestGateway, uniquePrefix } from './helpers/stack.ts';

// Async renders: `webhook` on a convert call answers 202, renders in the background (billed once), keeps the
// status and image, and a render worker POSTs the signed outcome under the egress policy, retrying failures.

/** What a receiver does (the docs' recipe): HMAC-SHA256 of "<t>.<raw body>", compared in constant time, fresh t. */
function verifies(header: string, body: string, secret: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((kv) => kv.split('=') as [string, string]));
  const t = Number(parts.t);
  if (!parts.v1 || !Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The docs' own verification code (content/docs/en/webhooks.md), so what the docs tell receivers is what works. */
function docsVerifiers() {
  const guide = readFileSync(join(repoRoot, 'apps/web/content/docs/en/webhooks.md'), 'utf8');
  const block = (lang: string) => {
    const found = new RegExp(`\`\`\`${lang}\n([\\s\\S]*?)\`\`\``).exec(guide)?.[1];
    if (!found) throw new Error(`no ${lang} block in the webhooks guide`);
    return found;
  };
  const dir = mkdtempSync(join(tmpdir(), 'webhook-docs-'));
  writeFileSync(join(dir, 'verify.mjs'), block('js'));
  writeFileSync(join(dir, 'verify.py'), block('python'));
  const python = (header: string, body: string, secret: string) =>
    execFileSync(
      'python3',
      [
        '-c',
        'import sys\nexec(open(sys.argv[1]).read())\nprint(verify_render_signature(sys.argv[2], sys.argv[3].encode(), sys.argv[4]))',
        join(dir, 'verify.py'),
        header,
        body,
        secret,
      ],
      { encoding: 'utf8' },
    ).trim() === 'True';
  const js = async () =>
    ((await import(pathToFileURL(join(dir, 'verify.mjs')).href)) as { verifyRenderSignature(h: string, b: string, s: string): boolean })
      .verifyRenderSignature;
  return { python, js };
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The Free plan's in-flight renders per account on this gateway. */
const FREE_IN_FLIGHT = 3;

const prefix = uniquePrefix('async-renders');
let auth: Stack;
let templates: { url: string; close(): Promise<void> };
let worker: RenderWorkerHandle;
/** The worker's webhook_deliveries_total for one result (the counter the WebhookDeliveriesFailing alert reads). */
const deliveriesCounted = async (result: string) =>
  (await worker.metrics.webhookDeliveries.get()).values.find((v) => v.labels.result === result)?.value ?? 0;
let gateway: TestGateway;
let receiver: WebhookReceiver;
// Loopback but not allow-listed: must never see a delivery.
let canary: WebhookReceiver;

/** A worker for `queues` of `queuePrefix` that delivers webhooks, to the receiver only. */
const startDeliveringWorker = (queuePrefix: string, queues: string) =>
  startWorker({
    QUEUE_PREFIX: queuePrefix,
    RENDER_QUEUES: queues,
    AUTH_SERVICE_URL: auth.url,
    INTERNAL_TOKEN,
    RENDER_EGRESS_ALLOWLIST: `127.0.0.1:${receiver.port}`,
  });

/** What a gateway on the queues of `queuePrefix` needs to reach this file's account and templates services. */
const servicesEnv = (queuePrefix: string) => ({
  QUEUE_PREFIX: queuePrefix,
  AUTH_SERVICE_URL: auth.url,
  TEMPLATES_SERVICE_URL: templates.url,
  INTERNAL_TOKEN,
});

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  canary = await startWebhookReceiver();
  auth = await startStack();
  templates = await startTemplates(auth.databaseUrl, INTERNAL_TOKEN);
  worker = await startDeliveringWorker(prefix, 'html,svg,screenshot');
  gateway = await startGateway({
    ...servicesEnv(prefix),
    // Wider than the worker's on purpose (as a stale or mistaken copy would be): the gateway only refuses
    // literal addresses early, so these reach the worker, whose check at delivery must refuse them.
    RENDER_EGRESS_ALLOWLIST: [
      ...[receiver.port, canary.port].flatMap((p) => [`127.0.0.1:${p}`, `localhost:${p}`]),
      '169.254.169.254:80',
    ].join(','),
    WEBHOOK_RETRY_BASE_MS: '200',
    WEBHOOK_ATTEMPTS: '3',
    // Each test uses its own account; this one limit is reached on purpose by one test.
    FREE_MAX_IN_FLIGHT: String(FREE_IN_FLIGHT),
    ASYNC_RENDER_SWEEP_MS: '200',
  });
}, 120_000);

afterAll(async () => {
  await closeInOrder(gateway, worker, templates, auth, receiver, canary);
});

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, read field by field in assertions
type Json = Record<string, any>;

const html = (text: string) => `<p style="margin:0;font:20px sans-serif">${text}</p>`;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function getJson(path: string, headers: Record<string, string>) {
  const res = await fetch(`${gateway.url}${path}`, { headers });
  return { status: res.status, body: (await res.json()) as Json };
}
const used = async (token: string): Promise<number> => (await getJson('/api/auth/usage', bearer(token))).body.data.used;
const secretOf = async (token: string): Promise<string> => (await getJson('/api/auth/webhook-secret', bearer(token))).body.secret;
const deliveries = async (token: string) => (await getJson('/api/webhooks/deliveries', bearer(token))).body.deliveries as Json[];

async function submit(body: Record<string, unknown>, headers: Record<string, string>) {
  const res = await gateway.post('/api/html-to-img/convert', body, headers);
  return { status: res.status, location: res.headers.get('location'), body: (await res.json()) as Json };
}

describe('async renders with webhooks', () => {
  it('answers 202 at once, keeps status and image for the owner only, charges once and delivers a signed webhook', async () => {
    const user = await verifiedUser(auth);
    const other = await verifiedUser(auth);
    const accepted = await submit(
      { html: html('async'), width: 200, height: 60, webhook: receiver.url('/hooks/one') },
      { 'x-api-key': user.apiKey },
    );
    expect(accepted.status).toBe(202);
    const { id, status, statusUrl } = accepted.body.data;
    expect(accepted.body.success).toBe(true);
    expect(status).toBe('queued');
    expect(statusUrl).toBe(`/api/renders/${id}`);
    expect(accepted.location).toBe(statusUrl);

    const done = await waitFor('the render to finish', async () => {
      const { body } = await getJson(statusUrl, { 'x-api-key': user.apiKey });
      return body.data.status === 'done' ? body.data : undefined;
    });
    expect(done).toMatchObject({ id, kind: 'html', format: 'png', width: 200, height: 60, imageUrl: `/api/renders/${id}/image` });
    expect(done.size).toBeGreaterThan(100);
    // Kept 24 h (the default), to the second.
    expect(Date.parse(done.expiresAt) - Date.parse(done.createdAt)).toBeGreaterThan(24 * 3600 * 1000 - 1000);
    expect(Date.parse(done.expiresAt) - Date.parse(done.createdAt)).toBeLessThanOrEqual(24 * 3600 * 1000);

    const image = await fetch(`${gateway.url}/api/renders/${id}/image`, { headers: bearer(user.token) });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await image.arrayBuffer());
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(bytes.length).toBe(done.size);

    // Another account learns nothing, not even that the id exists.
    for (const path of [statusUrl, `/api/renders/${id}/image`]) {
      const res = await getJson(path, { 'x-api-key': other.apiKey });
      expect(res).toMatchObject({ status: 404, body: { message: 'Render not found' } });
    }
    expect((await getJson(statusUrl, {})).status).toBe(401);

    const hook = await waitFor('the webhook', () => receiver.received.find((r) => r.path === '/hooks/one'));
    expect(JSON.parse(hook.body)).toEqual({ id, status: 'done', format: 'png', size: done.size });
    const secret = await secretOf(user.token);
    expect(secret).toMatch(/^whsec_/);
    expect(verifies(hook.signature, hook.body, secret)).toBe(true);
    expect(verifies(hook.signature, hook.body.replace('done', 'dona'), secret)).toBe(false);
    expect(verifies(hook.signature, hook.body, await secretOf(other.token))).toBe(false);
    // The JavaScript and Python recipes of the docs accept it, and refuse it with another secret or body.
    const docs = docsVerifiers();
    const verifyJs = await docs.js();
    expect(verifyJs(hook.signature, hook.body, secret)).toBe(true);
    expect(verifyJs(hook.signature, `${hook.body} `, secret)).toBe(false);
    expect(docs.python(hook.signature, hook.body, secret)).toBe(true);
    expect(docs.python(hook.signature, hook.body, `${secret}x`)).toBe(false);

    expect(await used(user.token)).toBe(1);
    expect(await used(other.token)).toBe(0);
    const [delivery] = await waitFor('the delivery record', async () =>
      (await deliveries(user.token)).length ? deliveries(user.token) : undefined,
    );
    expect(delivery).toMatchObject({ renderId: id, url: receiver.url('/hooks/one'), attempt: 1, ok: true, statusCode: 200, final: true });
    expect(await deliveries(other.token)).toEqual([]);
  });

  it('keeps rendering and charges once when the caller hangs up right after the 202', async () => {
    const user = await verifiedUser(auth);
    const body = JSON.stringify({ html: html('gone'), width: 120, height: 60, webhook: receiver.url('/hooks/gone') });
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL('/api/html-to-img/convert', gateway.url);
      const req = http.request(
        url,
        { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'x-api-key': user.apiKey, connection: 'close' } },
        (res) => {
          resolve(res.statusCode ?? 0);
          res.socket.destroy();
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(status).toBe(202);
    const hook = await waitFor('the webhook', () => receiver.received.find((r) => r.path === '/hooks/gone'));
    expect(JSON.parse(hook.body).status).toBe('done');
    expect(await used(user.token)).toBe(1);
  });

  it('signs with the secret current at delivery time, after a rotation', async () => {
    const user = await verifiedUser(auth);
    const before = await secretOf(user.token);
    const rotated = await fetch(`${gateway.url}/api/auth/webhook-secret/rotate`, { method: 'POST', headers: bearer(user.token) });
    expect(rotated.status).toBe(200);
    const after = ((await rotated.json()) as { secret: string }).secret;
    expect(after).not.toBe(before);
    expect(await secretOf(user.token)).toBe(after);

    expect(
      (await submit({ html: html('rotated'), width: 120, height: 60, webhook: receiver.url('/hooks/rotated') }, bearer(user.token))).status,
    ).toBe(202);
    const hook = await waitFor('the webhook', () => receiver.received.find((r) => r.path === '/hooks/rotated'));
    expect(verifies(hook.signature, hook.body, after)).toBe(true);
    expect(verifies(hook.signature, hook.body, before)).toBe(false);
  });

  it('retries a failing delivery with backoff and records every attempt', async () => {
    const user = await verifiedUser(auth);
    receiver.plan.set('/hooks/flaky', [500, 503]);
    const [retryingBefore, deliveredBefore] = [await deliveriesCounted('retrying'), await deliveriesCounted('delivered')];
    const accepted = await submit(
      { html: html('flaky'), width: 120, height: 60, webhook: receiver.url('/hooks/flaky') },
      { 'x-api-key': user.apiKey },
    );
    expect(accepted.status).toBe(202);
    const attempts = await waitFor('three attempts', () => {
      const seen = receiver.received.filter((r) => r.path === '/hooks/flaky');
      return seen.length >= 3 ? seen : undefined;
    });
    const secret = await secretOf(user.token);
    // Each attempt is signed afresh (its own timestamp), and every one verifies.
    expect(attempts.every((a) => verifies(a.signature, a.body, secret))).toBe(true);
    const list = await waitFor('three records', async () => {
      const all = await deliveries(user.token);
      return all.length >= 3 ? all : undefined;
    });
    expect(list.map((d) => [d.attempt, d.ok, d.statusCode, d.final])).toEqual([
      [3, true, 200, true],
      [2, false, 503, false],
      [1, false, 500, false],
    ]);
    expect(await used(user.token)).toBe(1);
    await waitFor('the attempts counted', async () => ((await deliveriesCounted('delivered')) > deliveredBefore ? true : undefined));
    expect((await deliveriesCounted('retrying')) - retryingBefore).toBe(2);
  });

  it('refuses private and loopback webhooks that are not allow-listed, at delivery, without retrying', async () => {
    const user = await verifiedUser(auth);
    const targets = [canary.url('/hooks/private'), 'http://169.254.169.254/latest/meta-data/', `http://localhost:${canary.port}/x`];
    const failedBefore = await deliveriesCounted('failed');
    for (const webhook of targets) {
      expect((await submit({ html: html('private'), width: 120, height: 60, webhook }, { 'x-api-key': user.apiKey })).status).toBe(202);
    }
    const list = await waitFor('the refusals', async () => {
      const all = await deliveries(user.token);
      return all.length >= targets.length ? all : undefined;
    });
    expect(list).toHaveLength(targets.length);
    for (const d of list) {
      expect(d).toMatchObject({ attempt: 1, ok: false, final: true });
      expect(d.error).toMatch(/^refused by the egress policy: .*(private, loopback or reserved network)/);
      expect(d.errorCode).toBe('REFUSED');
    }
    // The renders themselves were delivered (kept, charged); only their webhooks were refused.
    expect(await used(user.token)).toBe(targets.length);
    const given = () => deliveriesCounted('failed').then((n) => (n - failedBefore >= targets.length ? n - failedBefore : undefined));
    expect(await waitFor('the refusals counted as failed', given)).toBe(targets.length);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(canary.received).toEqual([]);
  });

  it('records a failed render as failed, says so in the webhook, and charges nothing', async () => {
    const user = await verifiedUser(auth);
    // A page at a loopback address the egress policy refuses: the render fails as a synchronous call would (422).
    const res = await gateway.post(
      '/api/screenshot/convert',
      { url: canary.url('/page'), webhook: receiver.url('/hooks/failed') },
      { 'x-api-key': user.apiKey },
    );
    expect(res.status).toBe(202);
    const { id, statusUrl } = ((await res.json()) as { data: { id: string; statusUrl: string } }).data;
    const hook = await waitFor('the webhook', () => receiver.received.find((r) => r.path === '/hooks/failed'), 60_000);
    const payload = JSON.parse(hook.body);
    expect(payload).toMatchObject({ id, status: 'failed', format: 'png', size: 0, error: { code: 'RENDER_FAILED' } });
    expect(payload.error.message).toMatch(/^Failed to capture screenshot: the address is not allowed/);
    const { body } = await getJson(statusUrl, { 'x-api-key': user.apiKey });
    expect(body.data).toMatchObject({ id, kind: 'screenshot', status: 'failed', error: payload.error });
    expect(body.data.imageUrl).toBeUndefined();
    const image = await getJson(`${statusUrl}/image`, { 'x-api-key': user.apiKey });
    expect(image.status).toBe(409);
    expect(image.body.message).toMatch(/^The render failed: /);
    expect(await used(user.token)).toBe(0);
    expect(canary.received).toEqual([]);
  }, 90_000);

  it('generates a template in the background too, as the template kind', async () => {
    const user = await verifiedUser(auth);
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect width="200" height="100" fill="#4f46e5"/>' +
      '<text x="10" y="60" data-variable="title">Hello</text></svg>';
    const created = await gateway.post(
      '/api/template',
      { name: 'Card', width: 200, height: 100, svg, variables: [{ name: 'title', type: 'text', defaultValue: 'Hello' }] },
      bearer(user.token),
    );
    expect(created.status).toBe(201);
    const templateId = ((await created.json()) as { data: { id: string } }).data.id;
    const res = await gateway.post(
      '/api/template/generate',
      { templateId, variables: { title: 'Async' }, webhook: receiver.url('/hooks/template') },
      { 'x-api-key': user.apiKey },
    );
    expect(res.status).toBe(202);
    const { id } = ((await res.json()) as { data: { id: string } }).data;
    const hook = await waitFor('the webhook', () => receiver.received.find((r) => r.path === '/hooks/template'));
    expect(JSON.parse(hook.body)).toMatchObject({ id, status: 'done', format: 'png' });
    const { body } = await getJson(`/api/renders/${id}`, bearer(user.token));
    expect(body.data).toMatchObject({ kind: 'template', status: 'done', width: 200, height: 100 });
    expect(await used(user.token)).toBe(1);
    // An unknown template is still the call's own 404, before anything is accepted or charged.
    const unknown = await gateway.post(
      '/api/template/generate',
      { templateId: randomUUID(), webhook: receiver.url('/hooks/none') },
      { 'x-api-key': user.apiKey },
    );
    expect(unknown.status).toBe(404);
    expect(await used(user.token)).toBe(1);
  });

  it('answers 402 at once to a key whose credits are used up, and accepts nothing', async () => {
    const user = await verifiedUser(auth);
    const { limit } = (await getJson('/api/auth/usage', bearer(user.token))).body.data as { limit: number };
    await auth.db
      .insertInto('credit_ledger')
      .values(Array.from({ length: limit }, () => ({ user_id: user.userId, request_id: randomUUID(), status: 'charged' as const })))
      .execute();
    const res = await submit({ html: html('broke'), webhook: receiver.url('/hooks/broke') }, { 'x-api-key': user.apiKey });
    expect(res.status).toBe(402);
    expect(res.body.code).toBe('PAYMENT_REQUIRED');
    expect(await deliveries(user.token)).toEqual([]);
  });

  it('answers 429 at submission to an account at its in-flight limit, accepting and charging nothing for it', async () => {
    const user = await verifiedUser(auth);
    // Renders that take a while (a busy page script), so the first ones are still in flight when the last is sent.
    const slow = (n: number) => ({
      html: `<script>const t = Date.now(); while (Date.now() - t < 1500) {}</script><p>slow ${n}</p>`,
      width: 120,
      height: 60,
      webhook: receiver.url(`/hooks/slow-${n}`),
    });
    const limit = FREE_IN_FLIGHT;
    const accepted = [];
    for (let n = 0; n < limit; n++) accepted.push(await submit(slow(n), { 'x-api-key': user.apiKey }));
    expect(accepted.map((a) => a.status)).toEqual(Array(limit).fill(202));

    const refused = await submit(slow(limit), { 'x-api-key': user.apiKey });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('RATE_LIMITED');
    expect(refused.body.message).toBe(
      `Too many renders in flight: the Free plan allows ${limit} at a time per account. Retry when one has finished, or upgrade to Pro for more.`,
    );

    // The accepted ones finish and are charged; the refused one was never queued, so it costs nothing.
    for (const { body } of accepted)
      await waitFor('an accepted render to finish', async () => {
        const { body: view } = await getJson(body.data.statusUrl, { 'x-api-key': user.apiKey });
        return view.data.status === 'done' ? true : undefined;
      });
    expect(await used(user.token)).toBe(limit);
    // Its slot is back: the account renders again.
    const again = await submit(
      { html: html('again'), width: 120, height: 60, webhook: receiver.url('/hooks/again') },
      { 'x-api-key': user.apiKey },
    );
    expect(again.status).toBe(202);
  }, 60_000);

  it('fails a render whose gateway stopped before it ended, and still sends its webhook', async () => {
    // What a gateway killed mid-render leaves in Redis: the status "rendering", and the render still open past
    // the time any render can take. Another gateway's sweep ends it.
    const user = await verifiedUser(auth);
    const redis = new Redis(await testRedisUrl());
    const id = randomUUID();
    const createdAt = new Date(Date.now() - 120_000);
    try {
      await redis
        .multi()
        .hset(`${prefix}:async-render:${id}`, {
          owner: user.userId,
          kind: 'html',
          format: 'png',
          status: 'rendering',
          createdAt: createdAt.toISOString(),
          expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
          webhook: receiver.url('/hooks/orphan'),
        })
        .expire(`${prefix}:async-render:${id}`, 3_600)
        .zadd(`${prefix}:async-renders:open`, Date.now() - 1, id)
        .exec();
    } finally {
      redis.disconnect();
    }
    const message =
      'Failed to generate image: the render was interrupted (the server handling it stopped). No credit was charged; please submit it again.';
    const failed = await waitFor('the sweep to end the render', async () => {
      const { body } = await getJson(`/api/renders/${id}`, { 'x-api-key': user.apiKey });
      return body.data.status === 'failed' ? body.data : undefined;
    });
    expect(failed.error).toEqual({ code: 'RENDER_FAILED', message });
    const delivery = await waitFor('its webhook', () => receiver.received.find((r) => r.path === '/hooks/orphan'));
    expect(verifies(delivery.signature, delivery.body, await secretOf(user.token))).toBe(true);
    expect(JSON.parse(delivery.body)).toMatchObject({ id, status: 'failed', error: { code: 'RENDER_FAILED', message } });
    // Once: the render is no longer open, so no later sweep sends it again.
    await new Promise((r) => setTimeout(r, 600));
    expect(receiver.received.filter((r) => r.path === '/hooks/orphan')).toHaveLength(1);
  });

  it('WEBHOOK_PORTS: a webhook on another port gets a 400 at submission, one on an allowed port is delivered', async () => {
    // Another replica of the same deployment whose workers could reach only the receiver's port.
    const strict = await startGateway({
      ...servicesEnv(prefix),
      RENDER_EGRESS_ALLOWLIST: [receiver.port, canary.port].map((p) => `127.0.0.1:${p}`).join(','),
      WEBHOOK_PORTS: ` ${receiver.port} `,
    });
    try {
      const user = await verifiedUser(auth);
      const post = async (webhook: string) => {
        const res = await strict.post(
          '/api/html-to-img/convert',
          { html: html('ports'), width: 120, height: 60, webhook },
          { 'x-api-key': user.apiKey },
        );
        return { status: res.status, body: (await res.json()) as Json };
      };
      for (const [webhook, uses] of [
        [canary.url('/hooks/ports'), String(canary.port)],
        ['https://example.com:8443/hook', '8443'],
        ['https://example.com/hook', '443'],
      ] as const) {
        const refused = await post(webhook);
        expect(refused.status, webhook).toBe(400);
        expect(refused.body.message).toBe(`webhook must use port ${receiver.port} on this server (${new URL(webhook).host} uses ${uses})`);
      }
      expect((await post(receiver.url('/hooks/ports'))).status).toBe(202);
      await waitFor('the delivery', () => receiver.received.find((r) => r.path === '/hooks/ports'));
      expect(canary.received).toEqual([]);
      expect(await used(user.token)).toBe(1);
    } finally {
      await strict.close();
    }
  });

  it('refuses bad webhook values and anonymous webhook calls with a clear 4xx', async () => {
    const user = await verifiedUser(auth);
    for (const webhook of [
      'ftp://example.com/x',
      'not a url',
      '',
      `https://example.com/${'a'.repeat(2100)}`,
      'http://user:pw@example.com/',
    ]) {
      const res = await submit({ html: html('bad'), webhook }, { 'x-api-key': user.apiKey });
      expect(res.status, webhook).toBe(400);
      expect(res.body.message).toMatch(/^webhook must /);
    }
    // Literal private, loopback and reserved addresses (not allow-listed) are refused before anything is accepted.
    for (const webhook of [
      'http://10.0.0.1/x',
      // (`[::1]:<canary>` would pass: `localhost:<canary>` is listed here, and localhost means ::1 too.)
      'http://[::1]:1/x',
      'http://127.0.0.1:1/x',
      'http://2130706433/x',
      'https://localhost/x',
      'http://[fd00::1]/x',
      // Names are resolved at submission with the workers' policy: these resolve to loopback.
      'http://localhost./x',
      `http://LOCALHOST:${receiver.port + 1}/x`,
      'http://[::127.0.0.1]/x',
    ]) {
      const res = await submit({ html: html('private'), webhook }, { 'x-api-key': user.apiKey });
      expect(res.status, webhook).toBe(400);
      expect(res.body.message).toMatch(/^webhook must not point to a private, loopback or reserved address \(/);
      // Named as written, never as what it resolved to.
      expect(res.body.message, webhook).toContain(`(${new URL(webhook).hostname})`);
    }
    // A name that does not resolve says so (.invalid never resolves, RFC 6761).
    const unresolved = await submit({ html: html('nx'), webhook: 'https://no-such-host.invalid/hook' }, { 'x-api-key': user.apiKey });
    expect(unresolved.status).toBe(400);
    expect(unresolved.body.message).toBe('webhook host no-such-host.invalid could not be resolved (ENOTFOUND)');
    const anonymous = await submit({ html: html('anon'), webhook: receiver.url('/hooks/anon') }, {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.message).toMatch(/needs an account/);
    // A body the render would refuse is still refused before anything is accepted, and not charged.
    expect(
      (await submit({ html: html('huge'), width: 4000, height: 4000, scale: 3, webhook: receiver.url('/x') }, { 'x-api-key': user.apiKey }))
        .status,
    ).toBe(400);
    expect(await used(user.token)).toBe(0);
    expect((await getJson('/api/renders/not-a-render', { 'x-api-key': user.apiKey })).status).toBe(404);
  });

  it('admits a name resolving to an allow-listed address (localhost when 127.0.0.1:port is listed), at submission and delivery', async () => {
    // Gateway and worker both list 127.0.0.1:<receiver> only.
    const listed = await startGateway({
      ...servicesEnv(prefix),
      RENDER_EGRESS_ALLOWLIST: `127.0.0.1:${receiver.port}`,
    });
    try {
      const user = await verifiedUser(auth);
      const post = async (webhook: string) =>
        (
          await listed.post(
            '/api/html-to-img/convert',
            { html: html('by name'), width: 120, height: 60, webhook },
            { 'x-api-key': user.apiKey },
          )
        ).status;
      expect(await post(`http://localhost:${receiver.port}/hooks/by-name`)).toBe(202);
      const hook = await waitFor('the delivery', () => receiver.received.find((r) => r.path === '/hooks/by-name'));
      expect(verifies(hook.signature, hook.body, await secretOf(user.token))).toBe(true);
      // The same name on a port that is not listed stays refused.
      expect(await post(`http://localhost:${canary.port}/hooks/by-name`)).toBe(400);
      expect(canary.received).toEqual([]);
    } finally {
      await listed.close();
    }
  });

  it('shows the webhook queue and its consumers on /metrics', async () => {
    const res = await fetch(`${gateway.url}/metrics`, { headers: { 'x-internal-token': INTERNAL_TOKEN } });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/^webhook_consumers\{service="gateway"\} 1$/m);
    for (const state of ['waiting', 'delayed', 'active', 'failed']) {
      expect(text).toMatch(new RegExp(`^webhook_queue_jobs\\{state="${state}",service="gateway"\\} \\d+$`, 'm'));
    }
  });
});

describe('webhooks without a worker to deliver them', () => {
  it('answers 503 with Retry-After while no worker consumes the webhook queue, accepting and charging nothing; 202 once one does', async () => {
    const lonely = uniquePrefix('no-webhook-worker');
    const alone = await startGateway({
      ...servicesEnv(lonely),
      RENDER_EGRESS_ALLOWLIST: `127.0.0.1:${receiver.port}`,
    });
    const redis = new Redis(await testRedisUrl());
    let late: RenderWorkerHandle | undefined;
    try {
      const user = await verifiedUser(auth);
      const post = (path: string) =>
        alone.post(
          '/api/html-to-img/convert',
          { html: html('alone'), width: 120, height: 60, webhook: receiver.url(path) },
          { 'x-api-key': user.apiKey },
        );
      const refused = await post('/hooks/alone');
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('30');
      expect(((await refused.json()) as Json).message).toBe(
        'Webhooks cannot be accepted right now: no render worker is delivering them. Retry later, or call without "webhook" for a synchronous answer.',
      );
      // Nothing queued (BullMQ's own meta key aside), nothing charged.
      expect((await redis.keys(`${lonely}:webhook:*`)).filter((key) => !key.endsWith(':meta'))).toEqual([]);
      expect(await used(user.token)).toBe(0);
      const metrics = await (await fetch(`${alone.url}/metrics`, { headers: { 'x-internal-token': INTERNAL_TOKEN } })).text();
      expect(metrics).toMatch(/^webhook_consumers\{service="gateway"\} 0$/m);

      // A worker that delivers webhooks comes: accepted and delivered.
      late = await startDeliveringWorker(lonely, 'html');
      expect((await post('/hooks/late')).status).toBe(202);
      await waitFor('the delivery', () => receiver.received.find((r) => r.path === '/hooks/late'));
      // It goes: refused again at once (it unlists itself as it closes).
      await late.close();
      late = undefined;
      expect((await post('/hooks/gone')).status).toBe(503);
      expect(await used(user.token)).toBe(1);
    } finally {
      await late?.close();
      await redis.quit();
      await alone.close();
    }
  });
});
