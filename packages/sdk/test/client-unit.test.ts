import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { templateImageSigningString as contractsSigningString } from '@render/contracts';
// The web app's own builder (Web Crypto in the browser): the SDK must produce the very same URLs.
import { signTemplateUrl as webSignTemplateUrl } from '@render/contracts/signed-template-url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  parseRetryAfter,
  RenderApiError,
  RenderClient,
  signTemplateUrl,
  signWebhookPayload,
  templateImageSigningString,
  verifyWebhookSignature,
} from '../src/index.ts';

// A scripted HTTP server on 127.0.0.1: each request takes the next answer of the script. It stands for the
// gateway's back-pressure answers (429/503 with Retry-After), which the real stack gives only under load.
type Step = (req: IncomingMessage, res: ServerResponse) => void;
let close: (() => Promise<void>) | undefined;

async function scripted(steps: Step[]) {
  const seen: Array<{ at: number; method?: string; url?: string; body: string; authorization?: string; idempotencyKey?: string }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({
        at: Date.now(),
        method: req.method,
        url: req.url,
        body: Buffer.concat(chunks).toString(),
        authorization: req.headers.authorization,
        idempotencyKey: req.headers['idempotency-key'] as string | undefined,
      });
      const step = steps[Math.min(seen.length - 1, steps.length - 1)]!;
      step(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

afterEach(async () => {
  await close?.();
  close = undefined;
});

const PNG_BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const png: Step = (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(PNG_BYTES);
const busy =
  (status: number, retryAfter?: string, code = status === 429 ? 'QUEUE_FULL' : 'QUEUE_UNAVAILABLE'): Step =>
  (_req, res) =>
    res
      .writeHead(status, { 'content-type': 'application/json', ...(retryAfter === undefined ? {} : { 'retry-after': retryAfter }) })
      .end(JSON.stringify({ success: false, message: `busy (${status})`, code }));

describe('retries and timeouts', () => {
  it('retries a 429 after the Retry-After seconds and returns the image', async () => {
    const api = await scripted([busy(429, '1'), png]);
    const render = new RenderClient({ baseUrl: api.url, apiKey: 'rk_test' });
    const image = await render.html({ html: '<p>x</p>' });
    expect(Buffer.from(image)).toEqual(PNG_BYTES);
    expect(api.seen).toHaveLength(2);
    // Retry-After: 1 means at least a second between the two attempts.
    expect(api.seen[1]!.at - api.seen[0]!.at).toBeGreaterThanOrEqual(950);
    // The same body and credentials on the retry, and the binary output asked for.
    expect(api.seen[1]!.body).toBe(api.seen[0]!.body);
    expect(JSON.parse(api.seen[0]!.body)).toEqual({ html: '<p>x</p>', output: 'binary' });
    expect(api.seen.map((s) => s.authorization)).toEqual(['Bearer rk_test', 'Bearer rk_test']);
  });

  it('honours Retry-After given as an HTTP date, and retries 503', async () => {
    const at = new Date(Date.now() + 2000).toUTCString();
    const api = await scripted([busy(503, at), png]);
    const render = new RenderClient({ baseUrl: api.url });
    await render.svg({ svg: '<svg xmlns="http://www.w3.org/2000/svg"/>' });
    expect(api.seen).toHaveLength(2);
    // An HTTP date has whole-second precision: at least ~1 s must have passed.
    expect(api.seen[1]!.at - api.seen[0]!.at).toBeGreaterThanOrEqual(900);
  });

  it('gives up after `retries` and throws the last answer as a RenderApiError with retryAfter', async () => {
    const api = await scripted([busy(429, '0')]);
    const render = new RenderClient({ baseUrl: api.url, retries: 2 });
    const error = await render.html({ html: 'x' }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(RenderApiError);
    expect(error).toMatchObject({ status: 429, code: 'QUEUE_FULL', message: 'busy (429)', retryAfter: 0 });
    expect(api.seen).toHaveLength(3);
  });

  it('does not wait longer than maxRetryDelayMs: a longer Retry-After ends the call at once', async () => {
    const api = await scripted([busy(429, '120'), png]);
    const render = new RenderClient({ baseUrl: api.url, maxRetryDelayMs: 5_000 });
    const started = Date.now();
    const error = (await render.chart({ library: 'chartjs' }).catch((err: unknown) => err)) as RenderApiError;
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(error).toMatchObject({ status: 429, retryAfter: 120 });
    expect(api.seen).toHaveLength(1);
  });

  it('never retries other errors, and keeps the server’s code and message', async () => {
    const api = await scripted([
      (_req, res) =>
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ success: false, message: 'width must be at least 50', code: 'VALIDATION_ERROR' })),
    ]);
    const render = new RenderClient({ baseUrl: api.url });
    const error = await render.html({ html: 'x', width: 1 }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(RenderApiError);
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', message: 'width must be at least 50' });
    expect((error as RenderApiError).retryAfter).toBeUndefined();
    expect(api.seen).toHaveLength(1);
  });

  it('reads a non-JSON error (a proxy page) as the status line', async () => {
    const api = await scripted([(_req, res) => res.writeHead(502, { 'content-type': 'text/html' }).end('<html>Bad gateway</html>')]);
    const error = (await new RenderClient({ baseUrl: api.url }).code({ code: 'x' }).catch((err: unknown) => err)) as RenderApiError;
    expect(error).toMatchObject({ status: 502, code: 'HTTP_502' });
    expect(error.message).toMatch(/^502/);
  });

  it('times out an attempt whose answer does not come, as TIMEOUT with status 0', async () => {
    const api = await scripted([() => {}]);
    const render = new RenderClient({ baseUrl: api.url, timeoutMs: 300, retries: 0 });
    const started = Date.now();
    const error = await render.html({ html: 'x' }).catch((err: unknown) => err);
    expect(error).toMatchObject({ name: 'RenderApiError', status: 0, code: 'TIMEOUT' });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('times out a body that stalls after the headers', async () => {
    const api = await scripted([(_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).write(PNG_BYTES.subarray(0, 4))]);
    const error = await new RenderClient({ baseUrl: api.url, timeoutMs: 400, retries: 0 }).html({ html: 'x' }).catch((err: unknown) => err);
    expect(error).toMatchObject({ status: 0, code: 'TIMEOUT' });
  });

  it('passes a caller’s abort through unchanged, without retrying', async () => {
    const api = await scripted([() => {}]);
    const controller = new AbortController();
    const pending = new RenderClient({ baseUrl: api.url }).html({ html: 'x' }, { signal: controller.signal }).catch((err: unknown) => err);
    setTimeout(() => controller.abort(new Error('stop')), 100);
    expect(await pending).toEqual(new Error('stop'));
    expect(api.seen).toHaveLength(1);
  });

  it('reports an unreachable API as NETWORK_ERROR after retrying', async () => {
    const api = await scripted([png]);
    await close?.();
    close = undefined;
    const error = await new RenderClient({ baseUrl: api.url, retries: 1 }).html({ html: 'x' }).catch((err: unknown) => err);
    expect(error).toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
    expect((error as Error).message).toContain(api.url);
  });

  it('gives the typed `api` client the same retries', async () => {
    const api = await scripted([
      busy(503, '0'),
      (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true,"message":"pong","time":"now"}'),
    ]);
    const render = new RenderClient({ baseUrl: api.url });
    const { data, response } = await render.api.GET('/api/ping');
    expect(response.status).toBe(200);
    expect(data?.message).toBe('pong');
    expect(api.seen.map((s) => s.url)).toEqual(['/api/ping', '/api/ping']);
  });

  it('reads the API’s problem body: code, message, request id and every refused field', async () => {
    const problem = {
      success: false,
      message: 'Please enter some HTML content',
      code: 'VALIDATION_ERROR',
      type: '/docs?tab=errors#validation-error',
      title: 'Invalid request',
      status: 400,
      detail: 'Please enter some HTML content',
      instance: '/api/html-to-img/convert',
      requestId: 'req-from-body',
      errors: [
        { field: 'html', message: 'Please enter some HTML content' },
        { field: 'width', message: 'width must be between 50 and 4000' },
      ],
    };
    const api = await scripted([
      (_req, res) =>
        res.writeHead(400, { 'content-type': 'application/problem+json', 'x-request-id': 'req-from-header' }).end(JSON.stringify(problem)),
      (_req, res) => res.writeHead(404, { 'x-request-id': 'only-in-header' }).end('not json'),
    ]);
    const render = new RenderClient({ baseUrl: api.url });
    const refused = (await render.html({ html: '' }).catch((err: unknown) => err)) as RenderApiError;
    expect(refused).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', message: problem.message, requestId: 'req-from-body' });
    expect(refused.errors).toEqual(problem.errors);
    const missing = (await render.html({ html: 'x' }).catch((err: unknown) => err)) as RenderApiError;
    expect(missing).toMatchObject({ status: 404, requestId: 'only-in-header' });
    expect(missing.errors).toBeUndefined();
  });

  it('sends one Idempotency-Key on every attempt of a call that creates something, so a lost answer is not made twice', async () => {
    const created = (_req: IncomingMessage, res: ServerResponse) =>
      res.writeHead(201, { 'content-type': 'application/json' }).end('{"success":true,"data":{"id":"t1"}}');
    // The first attempt's answer is lost (the connection drops), the second is told the first is still running.
    const api = await scripted([(req) => req.socket.destroy(), busy(409, '0', 'IDEMPOTENCY_KEY_IN_USE'), created]);
    const render = new RenderClient({ baseUrl: api.url, apiKey: 'rk_test' });
    const { response } = await render.api.POST('/api/template', {
      body: { name: 'n', width: 100, height: 100, svg: '<svg xmlns="http://www.w3.org/2000/svg"/>', variables: [] },
    });
    expect(response.status).toBe(201);
    const keys = api.seen.map((s) => s.idempotencyKey);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(keys).size).toBe(1);

    // The next call is another logical call: another key.
    const again = await scripted([created]);
    const second = new RenderClient({ baseUrl: again.url, apiKey: 'rk_test' });
    await second.api.POST('/api/template/{id}/duplicate', { params: { path: { id: 't1' } } });
    expect(again.seen[0]!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(again.seen[0]!.idempotencyKey).not.toBe(keys[0]);
  });

  it('keys an async render (a webhook) and key regeneration, not a synchronous render; a key of the caller’s own is kept', async () => {
    const accepted = (_req: IncomingMessage, res: ServerResponse) =>
      res
        .writeHead(202, { 'content-type': 'application/json' })
        .end('{"success":true,"data":{"id":"r1","status":"queued","statusUrl":"/api/renders/r1"}}');
    const api = await scripted([accepted, png, accepted, accepted]);
    const render = new RenderClient({ baseUrl: api.url, apiKey: 'rk_test' });
    await render.api.POST('/api/html-to-img/convert', { body: { html: '<p>x</p>', webhook: 'https://example.com/hook' } });
    await render.html({ html: '<p>x</p>' });
    await render.api.POST('/api/auth/api-key/regenerate', {});
    await render.api.POST('/api/svg-to-img/convert', {
      body: { svg: '<svg xmlns="http://www.w3.org/2000/svg"/>', webhook: 'https://example.com/hook' },
      headers: { 'idempotency-key': 'my-own-key' },
    });
    const [webhook, sync, regenerate, own] = api.seen.map((s) => s.idempotencyKey);
    expect(webhook).toMatch(/^[0-9a-f-]{36}$/);
    expect(sync).toBeUndefined();
    expect(regenerate).toMatch(/^[0-9a-f-]{36}$/);
    expect(own).toBe('my-own-key');
  });

  it('batch sends one Idempotency-Key on every attempt and answers the 202’s data; getBatch reads the id’s path', async () => {
    const accepted = (_req: IncomingMessage, res: ServerResponse) =>
      res
        .writeHead(202, { 'content-type': 'application/json' })
        .end(
          '{"success":true,"data":{"id":"b1","status":"queued","items":1,"credits":1,"statusUrl":"/api/batches/b1","archiveUrl":"/api/batches/b1/archive"}}',
        );
    const status = (_req: IncomingMessage, res: ServerResponse) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true,"data":{"id":"b1","status":"done","items":[]}}');
    // The first attempt is told the queue is busy; the retry must carry the same key.
    const api = await scripted([busy(503, '0'), accepted, status]);
    const render = new RenderClient({ baseUrl: api.url, apiKey: 'rk_test' });
    const batch = await render.batch({ items: [{ kind: 'html', body: { html: '<p>x</p>' } }] });
    expect(batch).toMatchObject({ id: 'b1', statusUrl: '/api/batches/b1' });
    const [first, retry] = api.seen.map((s) => s.idempotencyKey);
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(retry).toBe(first);
    expect((await render.getBatch('b 1')).status).toBe('done');
    expect(api.seen[2]?.url).toBe('/api/batches/b%201');
  });

  it('cancelBatch sends DELETE to the batch’s path and answers its status', async () => {
    const cancelled = (_req: IncomingMessage, res: ServerResponse) =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"success":true,"data":{"id":"b1","status":"cancelling","cancelled":3}}');
    const api = await scripted([cancelled]);
    const render = new RenderClient({ baseUrl: api.url, apiKey: 'rk_test' });
    expect(await render.cancelBatch('b 1')).toMatchObject({ status: 'cancelling', cancelled: 3 });
    expect(api.seen[0]).toMatchObject({ method: 'DELETE', url: '/api/batches/b%201' });
  });

  it('parses Retry-After forms', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:10 GMT', now)).toBe(10);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe('webhook signatures', () => {
  const secret = 'whsec_test_secret';
  const payload = JSON.stringify({ id: '6f1c4bde-3c1b-4a8e-9a43-0d1f0b7a1e2f', status: 'done', format: 'png', size: 1234 });
  // The reference: Node's own HMAC, as the server signs (`t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`).
  const header = (t: number, body = payload, key = secret) => `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`;
  const now = 1_800_000_000;

  it('accepts a valid signature, from a string or the raw bytes', async () => {
    expect(await verifyWebhookSignature({ payload, header: header(now), secret, now })).toBe(true);
    expect(await verifyWebhookSignature({ payload: new TextEncoder().encode(payload), header: header(now - 100), secret, now })).toBe(true);
  });

  it('refuses a tampered body, a wrong secret, a tampered signature and malformed headers', async () => {
    expect(await verifyWebhookSignature({ payload: payload.replace('1234', '1235'), header: header(now), secret, now })).toBe(false);
    expect(await verifyWebhookSignature({ payload, header: header(now, payload, 'whsec_other'), secret, now })).toBe(false);
    const flipped = header(now).replace(/v1=(.)/, (_m, c: string) => `v1=${c === 'a' ? 'b' : 'a'}`);
    expect(await verifyWebhookSignature({ payload, header: flipped, secret, now })).toBe(false);
    // The timestamp is signed too: moving it breaks the signature.
    expect(await verifyWebhookSignature({ payload, header: header(now).replace(`t=${now}`, `t=${now + 1}`), secret, now })).toBe(false);
    for (const bad of ['', 'garbage', `t=${now}`, `v1=${'0'.repeat(64)}`, `t=abc,v1=${'0'.repeat(64)}`]) {
      expect(await verifyWebhookSignature({ payload, header: bad, secret, now })).toBe(false);
    }
    expect(await verifyWebhookSignature({ payload, header: undefined, secret, now })).toBe(false);
  });

  it('refuses a signature older (or newer) than the tolerance', async () => {
    expect(await verifyWebhookSignature({ payload, header: header(now - 301), secret, now })).toBe(false);
    expect(await verifyWebhookSignature({ payload, header: header(now + 301), secret, now })).toBe(false);
    expect(await verifyWebhookSignature({ payload, header: header(now - 301), secret, now, toleranceSeconds: 600 })).toBe(true);
    // Against the real clock by default.
    expect(await verifyWebhookSignature({ payload, header: header(Math.floor(Date.now() / 1000) - 3600), secret })).toBe(false);
    expect(await verifyWebhookSignature({ payload, header: header(Math.floor(Date.now() / 1000)), secret })).toBe(true);
  });

  it('accepts any of several v1 signatures (secret rotation)', async () => {
    const old = header(now, payload, 'whsec_old').split(',')[1];
    expect(await verifyWebhookSignature({ payload, header: `${header(now)},${old}`, secret, now })).toBe(true);
    expect(await verifyWebhookSignature({ payload, header: `t=${now},${old}`, secret, now })).toBe(false);
  });

  it('signs as the server does', async () => {
    expect(await signWebhookPayload({ payload, secret, timestamp: now })).toBe(header(now));
  });
});

describe('signed template URLs', () => {
  it('signs the string the contracts define', () => {
    const pairs: Array<[string, string]> = [
      ['title', 'Héllo & goodbye'],
      ['format', 'png'],
      ['a', '1'],
      ['sig', 'ignored'],
    ];
    expect(templateImageSigningString('tpl-1', pairs)).toBe(contractsSigningString('tpl-1', pairs));
  });

  it('builds exactly the URL the web app builds', async () => {
    const input = {
      templateId: '0b6f2c1e-8f4a-4c1d-9b7e-2a1f3c4d5e6f',
      apiKey: 'rk_abc',
      variables: { title: 'Hello, world / ünïcode ✓', count: '7', empty: '' },
      format: 'webp',
      quality: 70,
    };
    // The web app signs with the contracts' implementation, which the SDK compiles in.
    const fromWeb = await webSignTemplateUrl({ ...input, baseUrl: 'https://render.example.com' });
    expect(await signTemplateUrl({ ...input, baseUrl: 'https://render.example.com/' })).toBe(fromWeb);
    const render = new RenderClient({ baseUrl: 'https://render.example.com', apiKey: 'rk_abc' });
    expect(await render.signedTemplateUrl(input)).toBe(fromWeb);
    // And the signature is the HMAC of the contracts' signing string with the key.
    const url = new URL(fromWeb);
    const pairs = [...url.searchParams].filter(([k]) => k !== 'sig');
    expect(url.searchParams.get('sig')).toBe(
      createHmac('sha256', 'rk_abc').update(contractsSigningString(input.templateId, pairs)).digest('hex'),
    );
  });

  it('needs the API key', () => {
    expect(() => new RenderClient({ baseUrl: 'https://render.example.com' }).signedTemplateUrl({ templateId: 'x' })).toThrow(/apiKey/);
  });
});
