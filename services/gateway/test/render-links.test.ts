import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MessageIds, RenderLinkMessages, renderLinkKey, signRenderUrl } from '@render/contracts';
import type { RenderWorkerHandle } from '@render/render-worker';
import { creditsUsed } from '@render/test-stack/account-calls';
import { decodePng } from '@render/test-stack/images';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_TOKEN, json, type Stack, startStack, verifiedUser } from './helpers/auth-stack.ts';
import { startGateway, startWorker, type TestGateway, uniquePrefix } from './helpers/stack.ts';

// Render links (GET /api/render/{kind}): the image of any kind from a URL, signed with the account's API key,
// cached for the link's ttl and charged to the key's owner once per miss.

let auth: Stack;
let worker: RenderWorkerHandle;
let gateway: TestGateway;
let pages: Server;
let pageOrigin: string;

beforeAll(async () => {
  pages = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end('<body style="margin:0;background:#00ff00"></body>'),
  );
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  const { port } = pages.address() as AddressInfo;
  pageOrigin = `http://127.0.0.1:${port}`;
  const prefix = uniquePrefix('render-links');
  auth = await startStack();
  worker = await startWorker({ QUEUE_PREFIX: prefix, RENDER_PAGES: '1', RENDER_EGRESS_ALLOWLIST: `127.0.0.1:${port}` });
  gateway = await startGateway({ QUEUE_PREFIX: prefix, AUTH_SERVICE_URL: auth.url, INTERNAL_TOKEN });
});

afterAll(async () => {
  await gateway?.close();
  await worker?.close();
  await auth?.close();
  await new Promise((resolve) => pages?.close(resolve));
});

const bodies = () => ({
  html: { html: '<body style="margin:0;background:#00ff00"></body>', width: 60, height: 50 },
  svg: { svg: '<svg xmlns="http://www.w3.org/2000/svg" width="60" height="50"><rect width="60" height="50" fill="#00ff00"/></svg>' },
  chart: {
    library: 'chartjs',
    chartType: 'bar',
    chartData: { labels: ['a', 'b'], datasets: [{ label: 'n', data: [1, 2] }] },
    width: 120,
    height: 80,
    animations: false,
  },
  code: { code: 'const a = 1;', language: 'javascript', width: 200 },
  screenshot: { url: `${pageOrigin}/`, width: 60, height: 50 },
});

async function get(url: string, method = 'GET') {
  const res = await fetch(url.replace(/^https?:\/\/[^/]+/, gateway.url), { method });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

const problem = (bytes: Buffer) => JSON.parse(bytes.toString()) as { message: string; messageId?: string };
const link = (
  apiKey: string,
  kind: keyof ReturnType<typeof bodies>,
  extra: { ttl?: number; sign?: boolean; body?: Record<string, unknown> } = {},
) => signRenderUrl({ baseUrl: gateway.url, apiKey, kind, body: extra.body ?? bodies()[kind], ttl: extra.ttl, sign: extra.sign });

describe('render links', () => {
  it('renders every kind from a signed link, charged once, then from the cache within its ttl at no charge', async () => {
    const user = await verifiedUser(auth);
    let charged = 0;
    for (const kind of ['screenshot', 'chart', 'code', 'html', 'svg'] as const) {
      const url = await link(user.apiKey, kind, { ttl: 120 });
      const first = await get(url);
      expect(first.res.status, `${kind}: ${first.bytes.toString().slice(0, 300)}`).toBe(200);
      expect(first.res.headers.get('content-type')).toBe('image/png');
      expect(first.res.headers.get('cache-control')).toBe('public, max-age=120');
      expect(first.res.headers.get('x-cache')).toBe('MISS');
      expect(decodePng(first.bytes).width).toBeGreaterThan(0);
      charged += 1;
      expect(await creditsUsed(gateway.url, user.token)).toBe(charged);

      const again = await get(url);
      expect(again.res.status).toBe(200);
      expect(again.res.headers.get('x-cache')).toBe('HIT');
      expect(again.bytes.equals(first.bytes)).toBe(true);
      expect(await creditsUsed(gateway.url, user.token)).toBe(charged);
    }
  });

  it('refuses a wrong signature, a tampered parameter and an unknown key with catalogued messages', async () => {
    const user = await verifiedUser(auth);
    const url = new URL(await link(user.apiKey, 'html'));
    const wrong = new URL(url);
    wrong.searchParams.set('sig', 'a'.repeat(64));
    const refused = await get(wrong.href);
    expect(refused.res.status).toBe(403);
    // A refusal is not kept by browsers or CDNs for the link's ttl.
    expect(refused.res.headers.get('cache-control') ?? '').not.toContain('public');
    expect(problem(refused.bytes)).toMatchObject({
      message: RenderLinkMessages.signatureInvalid,
      messageId: 'renderLink.signatureInvalid',
    });

    const tampered = new URL(url);
    tampered.searchParams.set('width', '61');
    expect((await get(tampered.href)).res.status).toBe(403);

    const signedByOther = await link((await verifiedUser(auth)).apiKey, 'html');
    const stolenKey = new URL(signedByOther);
    stolenKey.searchParams.set('key', url.searchParams.get('key') ?? '');
    expect((await get(stolenKey.href)).res.status).toBe(403);

    const unknown = new URL(url);
    unknown.searchParams.set('key', 'b'.repeat(64));
    const answer = await get(unknown.href);
    expect(answer.res.status).toBe(401);
    expect(problem(answer.bytes).messageId).toBe('renderLink.keyUnknown');
    expect(await creditsUsed(gateway.url, user.token)).toBe(0);
  });

  it('a render that fails answers its error, not kept by browsers or CDNs for the ttl, and charges nothing', async () => {
    const user = await verifiedUser(auth);
    // A port the worker's egress policy does not allow: the capture fails.
    const failed = await get(
      await link(user.apiKey, 'screenshot', { ttl: 600, body: { url: 'http://127.0.0.1:9/', width: 60, height: 50 } }),
    );
    expect(failed.res.status).toBeGreaterThanOrEqual(400);
    expect(failed.res.status).toBeLessThan(500);
    expect(failed.res.headers.get('cache-control') ?? '').not.toContain('max-age=600');
    expect(await creditsUsed(gateway.url, user.token)).toBe(0);
  });

  it('checks the decoded body against the POST schema, with its messages, before anything else', async () => {
    const user = await verifiedUser(auth);
    const bad = await get(await link(user.apiKey, 'html', { body: { html: '<p>x</p>', width: 'wide' } }));
    expect(bad.res.status).toBe(400);
    const post = await gateway.post('/api/html-to-img/convert', { html: '<p>x</p>', width: 'wide' });
    expect(problem(bad.bytes).message).toBe(((await post.json()) as { message: string }).message);

    const missing = await get(await link(user.apiKey, 'html', { body: { width: 40 } }));
    expect(problem(missing.bytes).message).toBe(MessageIds['field.htmlRequired']);

    const webhook = await get(await link(user.apiKey, 'html', { body: { html: '<p>x</p>', webhook: 'https://example.com/' } }));
    expect(webhook.res.status).toBe(400);
    expect(problem(webhook.bytes).messageId).toBe('renderLink.notInLinks');

    const ttl = await get(await link(user.apiKey, 'html', { ttl: 86_401 }));
    expect(problem(ttl.bytes).messageId).toBe('renderLink.ttl');

    const noKey = await get(`${gateway.url}/api/render/html?html=x`);
    expect(noKey.res.status).toBe(400);
    expect(problem(noKey.bytes).message).toBe(RenderLinkMessages.keyRequired);
    const kind = await get(`${gateway.url}/api/render/pdf?key=${'a'.repeat(64)}`);
    expect(problem(kind.bytes).message).toBe(RenderLinkMessages.kind);
    expect(await creditsUsed(gateway.url, user.token)).toBe(0);
  });

  it('accepts an unsigned link (key only) until the account requires signed links', async () => {
    const user = await verifiedUser(auth);
    const unsigned = await link(user.apiKey, 'svg', { sign: false });
    expect(new URL(unsigned).searchParams.get('key')).toBe(await renderLinkKey(user.apiKey));
    expect(unsigned).not.toContain(user.apiKey);
    expect((await get(unsigned)).res.status).toBe(200);

    const set = await auth.call('PUT', '/api/auth/render-links', { token: user.token, body: { signedOnly: true } });
    expect(set.status).toBe(200);
    expect((await json(set)).user.renderLinksSignedOnly).toBe(true);
    const refused = await get(unsigned);
    expect(refused.res.status).toBe(403);
    expect(problem(refused.bytes).messageId).toBe('renderLink.signedOnly');
    // A signed link still works.
    expect((await get(await link(user.apiKey, 'svg'))).res.status).toBe(200);

    const bad = await auth.call('PUT', '/api/auth/render-links', { token: user.token, body: { signedOnly: 'yes' } });
    expect(bad.status).toBe(400);
    expect((await json(bad)).message).toBe(RenderLinkMessages.signedOnlyType);
  });

  it('answers HEAD without rendering or charging, and refuses a bad link on HEAD too', async () => {
    const user = await verifiedUser(auth);
    const url = await link(user.apiKey, 'html', { ttl: 60, body: { ...bodies().html, format: 'webp' } });
    const head = await get(url, 'HEAD');
    expect(head.res.status).toBe(200);
    expect(head.res.headers.get('content-type')).toBe('image/webp');
    expect(head.res.headers.get('cache-control')).toBe('public, max-age=60');
    expect(await creditsUsed(gateway.url, user.token)).toBe(0);
    // Nothing was rendered: the first GET is a miss.
    expect((await get(url)).res.headers.get('x-cache')).toBe('MISS');
    const wrong = new URL(url);
    wrong.searchParams.set('sig', 'c'.repeat(64));
    expect((await get(wrong.href, 'HEAD')).res.status).toBe(403);
  });
});

describe('HEAD on GET /chart', () => {
  it('checks the parameters and answers the content type without rendering or charging', async () => {
    const user = await verifiedUser(auth);
    const chart = encodeURIComponent(JSON.stringify({ type: 'bar', data: { labels: ['a'], datasets: [{ data: [1] }] } }));
    const head = await fetch(`${gateway.url}/chart?c=${chart}&key=${user.apiKey}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('image/png');
    expect((await fetch(`${gateway.url}/chart?c=${chart}&f=nope&key=${user.apiKey}`, { method: 'HEAD' })).status).toBe(400);

    expect(await creditsUsed(gateway.url, user.token)).toBe(0);
    // The same GET renders and charges: the HEADs above were not skipped by a broken key.
    expect((await fetch(`${gateway.url}/chart?c=${chart}&key=${user.apiKey}`)).status).toBe(200);
    expect(await creditsUsed(gateway.url, user.token)).toBe(1);
  });
});
