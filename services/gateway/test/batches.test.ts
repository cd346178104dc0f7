import { execFileSync } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderJobs } from '@render/queue';
import type { RenderWorkerHandle } from '@render/render-worker';
import { testRedisUrl } from '@render/test-stack/redis';
import { closeInOrder } from '@render/test-stack/teardown';
import { startWebhookReceiver, type WebhookReceiver } from '@render/test-stack/webhook-receiver';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchState } from '../src/renders/batch-state.ts';
import { INTERNAL_TOKEN, type Stack, seedCharged, startStack, verifiedUser } from './helpers/auth-stack.ts';
import { startGateway, startTemplates, startWorker, type TestGateway, uniquePrefix } from './helpers/stack.ts';

// Batches: POST /api/batch checks every item and reserves every credit before anything is queued, renders the
// items through the same queues and billing as single calls, keeps each item's status and image, serves a zip
// of the images, gives back the credits of failed items and sends one signed webhook when all have ended.

function verifies(header: string, body: string, secret: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((kv) => kv.split('=') as [string, string]));
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest();
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Each entry of a zip as Python's zipfile reads it (an independent reader): name, size and first bytes. */
function zipEntries(zip: Buffer): { name: string; size: number; head: string }[] {
  const dir = mkdtempSync(join(tmpdir(), 'batch-zip-'));
  const path = join(dir, 'a.zip');
  writeFileSync(path, zip);
  const script =
    'import json,sys,zipfile\nz=zipfile.ZipFile(sys.argv[1])\nassert z.testzip() is None\n' +
    'print(json.dumps([{"name":i.filename,"size":i.file_size,"head":z.read(i)[:8].hex()} for i in z.infolist()]))';
  return JSON.parse(execFileSync('python3', ['-c', script, path], { encoding: 'utf8' }));
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 60_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const PNG = '89504e470d0a1a0a';
const prefix = uniquePrefix('batches');
let auth: Stack;
let templates: { url: string; close(): Promise<void> };
let worker: RenderWorkerHandle;
let gateway: TestGateway;
// A second replica on the same Redis and queues: batches are read from any replica, not from memory.
let replica: TestGateway;
let receiver: WebhookReceiver;
// Loopback but not allow-listed for pages: a screenshot of it fails in the worker (422), as a real failure would.
let canary: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  canary = await startWebhookReceiver();
  auth = await startStack();
  templates = await startTemplates(auth.databaseUrl, INTERNAL_TOKEN);
  worker = await startWorker({
    QUEUE_PREFIX: prefix,
    RENDER_QUEUES: 'html,svg,chart,code,screenshot',
    AUTH_SERVICE_URL: auth.url,
    INTERNAL_TOKEN,
    RENDER_EGRESS_ALLOWLIST: `127.0.0.1:${receiver.port}`,
  });
  const gatewayEnv = {
    QUEUE_PREFIX: prefix,
    AUTH_SERVICE_URL: auth.url,
    TEMPLATES_SERVICE_URL: templates.url,
    INTERNAL_TOKEN,
    RENDER_EGRESS_ALLOWLIST: `127.0.0.1:${receiver.port}`,
    ASYNC_RENDER_SWEEP_MS: '200',
  };
  gateway = await startGateway(gatewayEnv);
  replica = await startGateway(gatewayEnv);
}, 120_000);

afterAll(async () => {
  await closeInOrder(gateway, replica, worker, templates, auth, receiver, canary);
});

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, read field by field in assertions
type Json = Record<string, any>;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function getJson(path: string, headers: Record<string, string>) {
  const res = await fetch(`${gateway.url}${path}`, { headers });
  return { status: res.status, body: (await res.json()) as Json };
}
const used = async (token: string): Promise<number> => (await getJson('/api/auth/usage', bearer(token))).body.data.used;

async function submit(body: unknown, apiKey: string) {
  const res = await gateway.post('/api/batch', body as Record<string, unknown>, { 'x-api-key': apiKey });
  return { status: res.status, location: res.headers.get('location'), body: (await res.json()) as Json };
}

const html = (text: string) => ({ kind: 'html', body: { html: `<p style="margin:0;font:20px sans-serif">${text}</p>` } });
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="blue"/></svg>';
const chart = {
  kind: 'chart',
  body: { library: 'chartjs', chartType: 'bar', chartData: { labels: ['a', 'b'], datasets: [{ label: 'x', data: [1, 2] }] } },
};
const code = { kind: 'code', body: { code: 'const a = 1;', language: 'javascript' } };

/** The account's ledger rows (id and status), to see that a refusal wrote nothing. */
const ledgerOf = (userId: string) =>
  auth.db
    .selectFrom('credit_ledger')
    .select(['request_id', 'status', 'kind'])
    .where('user_id', '=', userId)
    .orderBy('request_id')
    .execute();

async function finished(id: string, apiKey: string): Promise<Json> {
  return waitFor('the batch to finish', async () => {
    const { body } = await getJson(`/api/batches/${id}`, { 'x-api-key': apiKey });
    return body.data?.status === 'done' ? body.data : undefined;
  });
}

describe('batches', () => {
  it('renders a batch of mixed kinds, keeps each item’s status, zips the images, refunds the failed item and calls the webhook once', async () => {
    const user = await verifiedUser(auth);
    const other = await verifiedUser(auth);
    const before = await used(user.token);
    const items = [
      html('one'),
      { kind: 'svg', body: { svg: SVG, format: 'svg' } },
      chart,
      code,
      { kind: 'screenshot', body: { url: canary.url('/page') } },
      { kind: 'html', body: { html: '<b>jpeg</b>', format: 'jpeg' } },
    ];
    const accepted = await submit({ items, defaults: { width: 320, height: 200 }, webhook: receiver.url('/hooks/batch') }, user.apiKey);
    expect(accepted.status).toBe(202);
    const { id, statusUrl, archiveUrl } = accepted.body.data;
    expect(accepted.body.data).toMatchObject({ status: 'queued', items: 6, credits: 6 });
    expect(statusUrl).toBe(`/api/batches/${id}`);
    expect(archiveUrl).toBe(`/api/batches/${id}/archive`);
    expect(accepted.location).toBe(statusUrl);

    // Another account (or a wrong id) learns nothing: 404, as an unknown batch.
    expect((await getJson(statusUrl, { 'x-api-key': other.apiKey })).status).toBe(404);
    expect((await getJson(archiveUrl, { 'x-api-key': other.apiKey })).status).toBe(404);

    const done = await finished(id, user.apiKey);
    expect(done).toMatchObject({ id, status: 'done', total: 6, done: 5, failed: 1, archiveUrl });
    const byIndex = done.items as Json[];
    expect(byIndex.map((item) => [item.index, item.kind, item.status])).toEqual([
      [0, 'html', 'done'],
      [1, 'svg', 'done'],
      [2, 'chart', 'done'],
      [3, 'code', 'done'],
      [4, 'screenshot', 'failed'],
      [5, 'html', 'done'],
    ]);
    expect(byIndex[0]).toMatchObject({ format: 'png', contentType: 'image/png', width: 320, height: 200, file: '00.png' });
    expect(byIndex[1]).toMatchObject({ format: 'svg', contentType: 'image/svg+xml', file: '01.svg' });
    expect(byIndex[4]?.error.code).toBe('RENDER_FAILED');
    expect(byIndex[4]?.error.message).toMatch(/^Failed to capture screenshot/);
    expect(byIndex[5]).toMatchObject({ format: 'jpeg', contentType: 'image/jpeg', file: '05.jpg' });

    // Five images charged; the failed item's credit given back.
    expect(await used(user.token)).toBe(before + 5);

    // The other replica answers the same status and archive.
    const fromReplica = await fetch(`${replica.url}${statusUrl}`, { headers: { 'x-api-key': user.apiKey } });
    expect(((await fromReplica.json()) as Json).data).toEqual(done);
    const zip = await fetch(`${replica.url}${archiveUrl}`, { headers: { 'x-api-key': user.apiKey } });
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    const entries = zipEntries(Buffer.from(await zip.arrayBuffer()));
    expect(entries.map((e) => e.name)).toEqual(['00.png', '01.svg', '02.png', '03.png', '05.jpg']);
    for (const entry of entries) expect(entry.size).toBe(byIndex[Number(entry.name.slice(0, 2))]?.size);
    expect(entries.filter((e) => e.name.endsWith('.png')).every((e) => e.head === PNG)).toBe(true);
    expect(Buffer.from(entries[1]?.head ?? '', 'hex').toString('utf8')).toMatch(/^<(svg|\?xml)/);
    expect(entries[4]?.head.startsWith('ffd8ff')).toBe(true);

    const hook = await waitFor('the webhook', () => receiver.received.find((r) => r.path === '/hooks/batch'));
    const secret = (await getJson('/api/auth/webhook-secret', bearer(user.token))).body.secret as string;
    expect(verifies(hook.signature, hook.body, secret)).toBe(true);
    expect(JSON.parse(hook.body)).toEqual({ id, type: 'batch', status: 'done', total: 6, done: 5, failed: 1, cancelled: 0 });
    // Once: a later look finds no second delivery.
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.received.filter((r) => r.path === '/hooks/batch')).toHaveLength(1);
  }, 120_000);

  it('answers 409 for the archive while the batch is running', async () => {
    const user = await verifiedUser(auth);
    // A page that holds its capture for a while (`delay`) keeps the batch running past the first look.
    const items = [
      ...Array.from({ length: 3 }, (_, i) => html(`n${i}`)),
      { kind: 'screenshot', body: { url: receiver.url('/slow-page'), delay: 2000 } },
    ];
    const { body } = await submit({ items }, user.apiKey);
    const early = await getJson(body.data.archiveUrl, { 'x-api-key': user.apiKey });
    expect(early.status).toBe(409);
    expect(early.body.message).toMatch(/^The batch is not finished yet/);
    await finished(body.data.id, user.apiKey);
    const zip = await fetch(`${gateway.url}${body.data.archiveUrl}`, { headers: { 'x-api-key': user.apiKey } });
    expect(zipEntries(Buffer.from(await zip.arrayBuffer())).map((e) => e.name)).toEqual(['00.png', '01.png', '02.png', '03.png']);
  }, 120_000);

  it('refuses 51 items, and an invalid item naming its index and field, with nothing queued or charged', async () => {
    const user = await verifiedUser(auth);
    const before = await used(user.token);
    const tooMany = await submit({ items: Array.from({ length: 51 }, () => html('x')) }, user.apiKey);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toBe('A batch holds at most 50 items');
    expect(tooMany.body.messageId).toBe('batch.tooMany');

    const invalid = await submit({ items: [html('ok'), { kind: 'html', body: { html: '<p/>', width: 99999 } }] }, user.apiKey);
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toMatch(/^items\[1\] \(html\): /);
    expect(invalid.body.errors).toEqual([expect.objectContaining({ field: 'items.1.body.width' })]);

    const missing = await submit({ items: [code, { kind: 'code', body: {} }] }, user.apiKey);
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([expect.objectContaining({ field: 'items.1.body.code' })]);

    // What only the payload builder checks (an SVG's root) is refused before anything is queued, too, with the
    // status the single call answers (422).
    const single = await gateway.post('/api/svg-to-img/convert', { svg: '<html></html>' }, { 'x-api-key': user.apiKey });
    const badSvg = await submit({ items: [html('ok'), { kind: 'svg', body: { svg: '<html></html>' } }] }, user.apiKey);
    expect(badSvg.status).toBe(single.status);
    expect(badSvg.status).toBe(422);
    expect(badSvg.body.message).toBe(`items[1] (svg): ${((await single.json()) as Json).message}`);

    const excluded = await submit({ items: [html('a')], defaults: { webhook: receiver.url('/x') } }, user.apiKey);
    expect(excluded.status).toBe(400);
    expect(excluded.body.message).toMatch(/^items\[0\] \(html\): webhook does not apply to batch items/);

    const unknownKind = await submit({ items: [{ kind: 'video', body: {} }] }, user.apiKey);
    expect(unknownKind.status).toBe(400);
    expect(unknownKind.body.messageId).toBe('batch.kind');

    expect(await used(user.token)).toBe(before);
  });

  it('answers 402 when the account has not the credits for every item, queueing and charging nothing', async () => {
    const user = await verifiedUser(auth);
    // The Free plan's 50 credits, 48 spent: two left for a batch of three.
    await seedCharged(auth, user.userId, 48);
    const before = await used(user.token);
    const ledgerBefore = await ledgerOf(user.userId);
    const refused = await submit({ items: [html('a'), html('b'), html('c')] }, user.apiKey);
    expect(refused.status).toBe(402);
    expect(refused.body.code).toBe('PAYMENT_REQUIRED');
    expect(refused.body.message).toMatch(
      /^This batch needs 3 credits but your plan has 2 left in this rolling 30-day window: nothing was reserved\./,
    );
    expect(await used(user.token)).toBe(before);
    // Not one row written (all or nothing): not even a reservation released at once.
    expect(await ledgerOf(user.userId)).toEqual(ledgerBefore);
    // The two left are still there: a batch of two goes through.
    const fits = await submit({ items: [html('a'), html('b')] }, user.apiKey);
    expect(fits.status).toBe(202);
    expect((await finished(fits.body.data.id, user.apiKey)).done).toBe(2);
    expect(await used(user.token)).toBe(50);
  }, 120_000);

  it('ends a batch whose gateway stopped: its unfinished items failed, its webhook sent once', async () => {
    const user = await verifiedUser(auth);
    // A batch as a gateway that stopped mid-way left it in Redis: item 0 done, item 1 running, item 2 queued,
    // past the time its gateway should have renewed it.
    const redis = new Redis(await testRedisUrl());
    const state = new BatchState(redis, prefix);
    const id = crypto.randomUUID();
    const expiresAtSeconds = Math.floor(Date.now() / 1000) + 600;
    const items = [0, 1, 2].map(() => ({ kind: 'html' as const, format: 'png' }));
    await state.open({
      id,
      owner: user.userId,
      createdAt: new Date(),
      expiresAtSeconds,
      // Alive until its items are set as below; then it stops being renewed (`heartbeat` in the past).
      orphanAt: Date.now() + 60_000,
      webhook: receiver.url('/hooks/orphan'),
      items,
      jobs: [],
    });
    const image = { bytes: Buffer.from(PNG, 'hex'), mimeType: 'image/png', width: 1, height: 1 };
    await state.itemRunning(id, 0, { kind: 'html', format: 'png', status: 'running' });
    await state.itemDone(id, 0, { kind: 'html', format: 'png', status: 'running' }, image, expiresAtSeconds);
    await state.itemRunning(id, 1, { kind: 'html', format: 'png', status: 'running' });
    await state.heartbeat(id, Date.now() - 1);
    await redis.quit();

    const ended = await finished(id, user.apiKey);
    expect(ended).toMatchObject({ status: 'done', total: 3, done: 1, failed: 2 });
    expect((ended.items as Json[]).map((item) => item.status)).toEqual(['done', 'failed', 'failed']);
    expect(ended.items[1].error.message).toMatch(/the batch was interrupted/);
    const hook = await waitFor('the webhook', () => receiver.received.find((r) => r.path === '/hooks/orphan'));
    expect(JSON.parse(hook.body)).toEqual({ id, type: 'batch', status: 'done', total: 3, done: 1, failed: 2, cancelled: 0 });
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.received.filter((r) => r.path === '/hooks/orphan')).toHaveLength(1);
  }, 60_000);

  it('cancels a batch: queued items dropped and their credits released at once, running ones finish and are charged', async () => {
    const user = await verifiedUser(auth);
    const other = await verifiedUser(auth);
    const before = await used(user.token);
    // Four slow pages take the four lanes for a while; the six HTML items behind them have not started.
    const slow = Array.from({ length: 4 }, (_, i) => ({
      kind: 'screenshot',
      body: { url: receiver.url(`/slow-cancel/${i}`), delay: 2500 },
    }));
    const items = [...slow, ...Array.from({ length: 6 }, (_, i) => html(`later ${i}`))];
    const { body } = await submit({ items, webhook: receiver.url('/hooks/cancelled') }, user.apiKey);
    const { id, statusUrl, archiveUrl } = body.data;
    // A worker holds at least one slow page once its page is asked for.
    await waitFor('a slow page to load', () => receiver.received.find((r) => r.path.startsWith('/slow-cancel/')));

    const del = (apiKey: string) => fetch(`${gateway.url}${statusUrl}`, { method: 'DELETE', headers: { 'x-api-key': apiKey } });
    expect((await del(other.apiKey)).status).toBe(404);
    // Asked of the replica: the batch runs on the other gateway, and is cancelled through Redis.
    const cancelled = await fetch(`${replica.url}${statusUrl}`, { method: 'DELETE', headers: { 'x-api-key': user.apiKey } });
    expect(cancelled.status).toBe(200);
    const answer = ((await cancelled.json()) as Json).data;
    expect(answer.cancelledAt).toEqual(expect.any(String));
    expect((answer.items as Json[]).slice(4).map((item) => item.status)).toEqual(Array(6).fill('cancelled'));
    expect(answer.cancelled).toBeGreaterThanOrEqual(6);
    // Released before the answer: only the items not cancelled still count (reserved, or charged once made).
    expect(await used(user.token)).toBe(before + items.length - answer.cancelled);

    const ended = await waitFor('the batch to end', async () => {
      const { body: view } = await getJson(statusUrl, { 'x-api-key': user.apiKey });
      return view.data?.status === 'cancelled' ? view.data : undefined;
    });
    const statuses = (ended.items as Json[]).map((item) => item.status);
    // The slow pages a worker took finished (the one seen loading at least); any it had not were withdrawn.
    expect(statuses.slice(0, 4).every((status) => status === 'done' || status === 'cancelled')).toBe(true);
    const seen = Number(
      receiver.received
        .find((r) => r.path.startsWith('/slow-cancel/'))
        ?.path.split('/')
        .at(-1),
    );
    expect(statuses[seen]).toBe('done');
    expect(ended).toMatchObject({ total: 10, failed: 0, archiveUrl });
    expect(ended.done + ended.cancelled).toBe(10);
    expect(ended.cancelled).toBe(statuses.filter((status) => status === 'cancelled').length);
    // Exactly the finished items are charged; every cancelled item's credit is back.
    expect(await used(user.token)).toBe(before + ended.done);

    const hook = await waitFor('the webhook', () => receiver.received.find((r) => r.path === '/hooks/cancelled'));
    expect(JSON.parse(hook.body)).toEqual({
      id,
      type: 'batch',
      status: 'cancelled',
      total: 10,
      done: ended.done,
      failed: 0,
      cancelled: ended.cancelled,
    });
    const zip = await fetch(`${gateway.url}${archiveUrl}`, { headers: { 'x-api-key': user.apiKey } });
    expect(zip.status).toBe(200);
    const doneFiles = (ended.items as Json[]).filter((item) => item.status === 'done').map((item) => item.file);
    expect(zipEntries(Buffer.from(await zip.arrayBuffer())).map((e) => e.name)).toEqual(doneFiles);

    const again = await del(user.apiKey);
    expect(again.status).toBe(409);
    expect(((await again.json()) as Json).messageId).toBe('batch.ended');
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.received.filter((r) => r.path === '/hooks/cancelled')).toHaveLength(1);
  }, 120_000);

  it('takes a cancelled batch’s waiting jobs off their queue and gives every credit back', async () => {
    // A gateway whose queues no worker reads: the four items it starts wait in BullMQ, the rest in the batch.
    const idlePrefix = uniquePrefix('batches-idle');
    const idle = await startGateway({
      QUEUE_PREFIX: idlePrefix,
      AUTH_SERVICE_URL: auth.url,
      TEMPLATES_SERVICE_URL: templates.url,
      INTERNAL_TOKEN,
    });
    const redis = new Redis(await testRedisUrl());
    const htmlQueue = new Queue(renderJobs.html.queueName, { connection: redis, prefix: idlePrefix });
    try {
      const user = await verifiedUser(auth);
      const before = await used(user.token);
      const res = await idle.post(
        '/api/batch',
        { items: Array.from({ length: 7 }, (_, i) => html(`idle ${i}`)) },
        { 'x-api-key': user.apiKey },
      );
      expect(res.status).toBe(202);
      const { statusUrl } = ((await res.json()) as Json).data;
      await waitFor('four jobs waiting', async () => ((await htmlQueue.getWaitingCount()) === 4 ? true : undefined));
      expect(await used(user.token)).toBe(before + 7);

      const cancelled = await fetch(`${idle.url}${statusUrl}`, { method: 'DELETE', headers: { 'x-api-key': user.apiKey } });
      expect(cancelled.status).toBe(200);
      expect(((await cancelled.json()) as Json).data).toMatchObject({ cancelled: 7, done: 0, failed: 0 });
      expect(await htmlQueue.getWaitingCount()).toBe(0);
      expect(await used(user.token)).toBe(before);
      const ended = await waitFor('the batch to end', async () => {
        const { data } = (await (await fetch(`${idle.url}${statusUrl}`, { headers: { 'x-api-key': user.apiKey } })).json()) as Json;
        return data?.status === 'cancelled' ? data : undefined;
      });
      expect((ended.items as Json[]).map((item) => item.status)).toEqual(Array(7).fill('cancelled'));
      // Nothing was made: no archive.
      const zip = await fetch(`${idle.url}${statusUrl}/archive`, { headers: { 'x-api-key': user.apiKey } });
      expect(zip.status).toBe(409);
      expect(await used(user.token)).toBe(before);
    } finally {
      await htmlQueue.close();
      await redis.quit();
      await idle.close();
    }
  }, 60_000);

  it('renders template items as the template call does, the owner’s only, billed as templates', async () => {
    const user = await verifiedUser(auth);
    const other = await verifiedUser(auth);
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect width="200" height="100" fill="#4f46e5"/>' +
      '<text x="10" y="60" data-variable="title">Hello</text></svg>';
    const create = async (token: string) => {
      const created = await gateway.post(
        '/api/template',
        { name: 'Card', width: 200, height: 100, svg, variables: [{ name: 'title', type: 'text', defaultValue: 'Hello' }] },
        bearer(token),
      );
      expect(created.status).toBe(201);
      return ((await created.json()) as Json).data.id as string;
    };
    const mine = await create(user.token);
    const theirs = await create(other.token);
    const before = await used(user.token);
    const template = (templateId: string, extra: Json = {}) => ({
      kind: 'template',
      body: { templateId, variables: { title: 'Batch' }, ...extra },
    });

    // Another account's (private) template: the template call's own 404, naming the item; nothing reserved.
    const refused = await submit({ items: [html('a'), template(theirs)] }, user.apiKey);
    expect(refused.status).toBe(404);
    expect(refused.body.message).toBe('items[1] (template): Template Not Found');
    expect(refused.body.errors).toEqual([expect.objectContaining({ field: 'items.1' })]);
    const badField = await submit({ items: [template(mine, { quality: 0 })] }, user.apiKey);
    expect(badField.status).toBe(400);
    expect(badField.body.errors).toEqual([expect.objectContaining({ field: 'items.0.body.quality' })]);
    expect(await used(user.token)).toBe(before);

    const accepted = await submit({ items: [template(mine), template(mine, { format: 'svg' }), html('b')] }, user.apiKey);
    expect(accepted.status).toBe(202);
    const done = await finished(accepted.body.data.id, user.apiKey);
    expect(done).toMatchObject({ status: 'done', done: 3, failed: 0 });
    expect(done.items[0]).toMatchObject({ kind: 'template', format: 'png', width: 200, height: 100, file: '00.png' });
    expect(done.items[1]).toMatchObject({ kind: 'template', format: 'svg', file: '01.svg' });
    const zip = await fetch(`${gateway.url}${accepted.body.data.archiveUrl}`, { headers: { 'x-api-key': user.apiKey } });
    const entries = zipEntries(Buffer.from(await zip.arrayBuffer()));
    expect(entries[0]?.head).toBe(PNG);
    expect(Buffer.from(entries[1]?.head ?? '', 'hex').toString('utf8')).toMatch(/^<(svg|\?xml)/);
    expect(await used(user.token)).toBe(before + 3);
    await waitFor('the charges', async () => {
      const kinds = (await ledgerOf(user.userId)).filter((row) => row.status === 'charged').map((row) => row.kind);
      return kinds.filter((kind) => kind === 'template').length === 2 ? true : undefined;
    });

    // A key whose scope is render only may not render templates, in a batch as in the template call.
    const key = await fetch(`${gateway.url}/api/auth/keys`, {
      method: 'POST',
      headers: { ...bearer(user.token), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'renders', scope: 'render' }),
    });
    const renderOnly = ((await key.json()) as Json).secret as string;
    const narrow = await submit({ items: [template(mine)] }, renderOnly);
    expect(narrow.status).toBe(403);
    expect(narrow.body.message).toMatch(/^items\[0\] \(template\): This API key’s scope does not allow this call/);
    expect((await submit({ items: [html('fine')] }, renderOnly)).status).toBe(202);
  }, 120_000);

  it('needs credentials', async () => {
    const res = await gateway.post('/api/batch', { items: [html('a')] });
    expect(res.status).toBe(401);
  });
});
