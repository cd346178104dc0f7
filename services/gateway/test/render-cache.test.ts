import type { RenderWorkerHandle } from '@render/render-worker';
import { creditsUsed } from '@render/test-stack/account-calls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_TOKEN, type Stack, startStack, verifiedUser } from './helpers/auth-stack.ts';
import { startGateway, startWorker, type TestGateway, uniquePrefix } from './helpers/stack.ts';

// `cache` on a convert call: identical requests answered from the cache, at no charge, rendered once.

let auth: Stack;
let worker: RenderWorkerHandle;
let gateway: TestGateway;
let replica: TestGateway;

beforeAll(async () => {
  const prefix = uniquePrefix('render-cache');
  auth = await startStack();
  worker = await startWorker({ QUEUE_PREFIX: prefix, RENDER_QUEUES: 'html', RENDER_PAGES: '2' });
  gateway = await startGateway({ QUEUE_PREFIX: prefix, AUTH_SERVICE_URL: auth.url, INTERNAL_TOKEN });
  replica = await startGateway({ QUEUE_PREFIX: prefix, AUTH_SERVICE_URL: auth.url, INTERNAL_TOKEN });
});

afterAll(async () => {
  await Promise.all([gateway?.close(), replica?.close()]);
  await worker?.close();
  await auth?.close();
});

const html = (text: string) => `<p style="margin:0;font:20px sans-serif">${text}</p>`;

async function convert(through: TestGateway, body: Record<string, unknown>, apiKey?: string) {
  const res = await through.post('/api/html-to-img/convert', body, apiKey ? { 'x-api-key': apiKey } : {});
  return { status: res.status, cache: res.headers.get('x-cache'), bytes: Buffer.from(await res.arrayBuffer()) };
}

const used = (token: string): Promise<number> => creditsUsed(gateway.url, token);

describe('convert calls with cache', () => {
  it('answers an identical request from the cache with X-Cache: HIT and charges nothing for it', async () => {
    const user = await verifiedUser(auth);
    const body = { html: html('cached once'), width: 200, height: 60, cache: 60 };
    const first = await convert(gateway, body, user.apiKey);
    expect(first).toMatchObject({ status: 200, cache: 'MISS' });
    expect(await used(user.token)).toBe(1);

    // The same body, its fields in another order, on another replica: the same image, free.
    const again = await convert(replica, { cache: 60, height: 60, width: 200, html: body.html }, user.apiKey);
    expect(again).toMatchObject({ status: 200, cache: 'HIT' });
    expect(again.bytes.equals(first.bytes)).toBe(true);
    expect(await used(user.token)).toBe(1);

    // Another body, or no cache asked: rendered and charged.
    expect(await convert(gateway, { ...body, html: html('another') }, user.apiKey)).toMatchObject({ status: 200, cache: 'MISS' });
    const uncached = await convert(gateway, { html: body.html, width: 200, height: 60 }, user.apiKey);
    expect(uncached.status).toBe(200);
    expect(uncached.cache).toBeNull();
    expect(await used(user.token)).toBe(3);
  });

  it('keeps each account’s images to itself, and checks the key before answering from the cache', async () => {
    const owner = await verifiedUser(auth);
    const other = await verifiedUser(auth);
    const body = { html: html('mine'), width: 200, height: 60, cache: 60 };
    expect((await convert(gateway, body, owner.apiKey)).cache).toBe('MISS');
    expect((await convert(gateway, body, other.apiKey)).cache).toBe('MISS');
    expect(await used(other.token)).toBe(1);
    expect((await convert(gateway, body, `${owner.apiKey}x`)).status).toBe(401);
  });

  it('renders concurrent identical misses once, across replicas, and charges once', async () => {
    const user = await verifiedUser(auth);
    const body = { html: html('together'), width: 200, height: 60, cache: 60 };
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => convert(i % 2 ? replica : gateway, body, user.apiKey)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(answers.filter((a) => a.cache === 'MISS')).toHaveLength(1);
    expect(answers.every((a) => a.bytes.equals(answers[0]!.bytes))).toBe(true);
    expect(await used(user.token)).toBe(1);
  });

  it('works without credentials too, and refuses a bad cache value with a clear 400', async () => {
    const body = { html: html('anonymous'), width: 200, height: 60, cache: 30 };
    expect((await convert(gateway, body)).cache).toBe('MISS');
    expect((await convert(gateway, body)).cache).toBe('HIT');
    for (const [cache, message] of [
      [-1, 'cache must be between 0 and 86400'],
      [86_401, 'cache must be between 0 and 86400'],
      ['soon', 'cache must be a whole number between 0 and 86400'],
    ] as const) {
      const res = await gateway.post('/api/html-to-img/convert', { ...body, cache });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toContain(message);
    }
  });
});
