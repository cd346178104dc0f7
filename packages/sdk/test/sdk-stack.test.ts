import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
// The web app's signed-URL builder: what the SDK makes must be what the dashboard makes, and served.
import { signRenderUrl as webSignRenderUrl } from '@render/contracts/signed-render-link';
import { signTemplateUrl as webSignTemplateUrl } from '@render/contracts/signed-template-url';
import { decodePng, near, PNG_SIGNATURE } from '@render/test-stack/images';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RenderApiError, RenderClient, signRenderUrl, verifyWebhookSignature } from '../src/index.ts';
// The real account service (own throwaway database, real SMTP), templates service, render worker (real
// Chromium, Redis) and gateway, on real sockets, as the gateway's own tests start them.
import { verifiedUser } from './helpers/auth-stack.ts';
import { type FullStack, startFullStack } from './helpers/stack.ts';

const BIN = resolve(import.meta.dirname, '../bin/renderapi.mjs');

let stack: FullStack;
let site: Server;
let siteOrigin: string;
let hooks: Server;
let hooksOrigin: string;
const received: Array<{ signature: string; body: string }> = [];
let user: Awaited<ReturnType<typeof verifiedUser>>;
let render: RenderClient;
let work: string;
let templateId: string;

// A template whose left half takes its colour from a text variable written into <style>.
const CARD_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100">
  <style data-variable="theme">.bg{fill:#00ff00}</style>
  <rect class="bg" width="100" height="100"/>
  <text x="110" y="50" font-size="12" data-variable="title">Hello</text>
</svg>`;

const ARTICLE = `<!doctype html><html lang="en"><head><title>SDK notes</title><meta name="description" content="Read by the SDK"></head>
<body><nav>Menu links</nav><article><h1>SDK notes</h1><p>A paragraph long enough to be the main content of the page, read by the
SDK's readPage as markdown, with a few more words so that it clearly outweighs the menu around it.</p><ul><li>One</li><li>Two</li></ul></article></body></html>`;

beforeAll(async () => {
  site = createServer((req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(req.url === '/article' ? ARTICLE : '<body style="margin:0;background:#0000ff">site</body>'),
  );
  await new Promise<void>((done) => site.listen(0, '127.0.0.1', done));
  const port = (site.address() as AddressInfo).port;
  siteOrigin = `http://127.0.0.1:${port}`;
  // A webhook receiver, allow-listed for the worker like the page above.
  hooks = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ signature: String(req.headers['x-render-signature'] ?? ''), body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((done) => hooks.listen(0, '127.0.0.1', done));
  const hooksPort = (hooks.address() as AddressInfo).port;
  hooksOrigin = `http://127.0.0.1:${hooksPort}`;

  stack = await startFullStack('sdk', {
    worker: { RENDER_EGRESS_ALLOWLIST: `127.0.0.1:${port},127.0.0.1:${hooksPort}` },
    // The gateway refuses a webhook on a loopback address at submit time unless it is allow-listed too.
    gateway: { RENDER_EGRESS_ALLOWLIST: `127.0.0.1:${hooksPort}` },
  });
  user = await verifiedUser(stack.auth, { name: 'Sdk User' });
  render = new RenderClient({ baseUrl: stack.gateway.url, apiKey: user.apiKey });
  work = await mkdtemp(join(tmpdir(), 'render-sdk-'));
  // Through the generated, typed client: every public route is reachable with the API key.
  const { data, error } = await render.api.POST('/api/template', {
    body: {
      name: 'SDK card',
      width: 200,
      height: 100,
      svg: CARD_SVG,
      variables: [
        { name: 'theme', type: 'text', defaultValue: '.bg{fill:#00ff00}' },
        { name: 'title', type: 'text', defaultValue: 'Hello' },
      ],
    },
  });
  if (!data) throw new Error(`template not created: ${JSON.stringify(error)}`);
  templateId = data.data.id;
});

afterAll(async () => {
  await stack?.close();
  await new Promise<void>((done) => (site ? site.close(() => done()) : done()));
  await new Promise<void>((done) => (hooks ? hooks.close(() => done()) : done()));
  if (work) await rm(work, { recursive: true, force: true });
});

const png = (bytes: Uint8Array) => {
  const buffer = Buffer.from(bytes);
  expect(buffer.subarray(0, 8)).toEqual(PNG_SIGNATURE);
  return decodePng(buffer);
};

describe('render methods against the real stack', () => {
  it('html → PNG of the asked size and content', async () => {
    const image = png(await render.html({ html: '<body style="margin:0;background:#ff0000"></body>', width: 320, height: 200 }));
    expect([image.width, image.height]).toEqual([320, 200]);
    expect(near(image.pixel(160, 100), [255, 0, 0, 255])).toBe(true);
  });

  it('htmlWithMeta decodes the JSON answer: bytes, width, height, size, format and timings', async () => {
    const { image, meta } = await render.htmlWithMeta({ html: '<p>meta</p>', width: 300, height: 150, format: 'png' });
    expect(png(image).width).toBe(300);
    expect(meta).toMatchObject({ format: 'png', mimeType: 'image/png', width: 300, height: 150, size: image.length });
    expect(meta.renderTimeMs).toBeGreaterThanOrEqual(0);
    expect(meta.queueTimeMs).toBeGreaterThanOrEqual(0);
  });

  it('svg → PNG, and → a resized SVG document', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#00ff00"/></svg>';
    const image = png(await render.svg({ svg, width: 120, height: 80 }));
    expect([image.width, image.height]).toEqual([120, 80]);
    expect(near(image.pixel(60, 40), [0, 255, 0, 255])).toBe(true);
    const text = new TextDecoder().decode(await render.svg({ svg, width: 120, height: 80, format: 'svg' }));
    expect(text).toMatch(/^<svg[^>]*width="120"/);
  });

  it('chart → PNG', async () => {
    const { image, meta } = await render.chartWithMeta({
      library: 'chartjs',
      chartType: 'bar',
      chartData: { labels: ['a', 'b'], datasets: [{ label: 'n', data: [1, 2], backgroundColor: '#ff0000' }] },
      width: 400,
      height: 300,
    });
    expect([png(image).width, png(image).height, meta.format]).toEqual([400, 300, 'png']);
  });

  it('code → PNG sized to the code', async () => {
    const { image, meta } = await render.codeWithMeta({
      code: 'const x: number = 1;\nconsole.log(x);',
      language: 'ts',
      theme: 'github-dark',
      width: 500,
    });
    expect(png(image).width).toBe(500);
    expect(meta.height).toBeGreaterThan(20);
  });

  it('screenshot of a local page (allow-listed for the test) → PNG', async () => {
    const image = png(await render.screenshot({ url: `${siteOrigin}/`, width: 400, height: 300 }));
    expect([image.width, image.height]).toEqual([400, 300]);
    expect(near(image.pixel(200, 150), [0, 0, 255, 255])).toBe(true);
  });

  it('readPage → the page’s main content as markdown with its metadata; text on request', async () => {
    const page = await render.readPage({ url: `${siteOrigin}/article` });
    expect(page.content).toMatch(/^# SDK notes\n/);
    expect(page.content).toMatch(/^- +One\n- +Two$/m);
    expect(page.content).not.toContain('Menu links');
    expect(page.metadata).toMatchObject({ title: 'SDK notes', description: 'Read by the SDK', language: 'en', httpStatus: 200 });
    expect(page.meta.mimeType).toBe('text/markdown; charset=utf-8');
    const text = await render.readPage({ url: `${siteOrigin}/article`, format: 'text', metadata: false });
    expect(text.content).toContain('One\nTwo');
    expect(text.metadata).toBeUndefined();
  });

  it('template → PNG with the variables applied, billed to the key’s account', async () => {
    const before = (await render.usage()).used;
    const image = png(await render.template(templateId, { variables: { theme: '.bg{fill:#ff0000}' }, format: 'png' }));
    expect([image.width, image.height]).toEqual([200, 100]);
    expect(near(image.pixel(50, 50), [255, 0, 0, 255])).toBe(true);
    expect((await render.usage()).used).toBe(before + 1);
  });
});

describe('named API keys', () => {
  it('a named key renders like the default key; usage({ keyId }) and `renderapi usage --key-id` count its renders only', async () => {
    // Keys are made with a session only (a key cannot make keys): as the dashboard does.
    const made = await fetch(`${stack.gateway.url}/api/auth/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'ci', scope: 'full' }),
    });
    expect(made.status).toBe(201);
    const { data: key, secret } = (await made.json()) as { data: { id: string }; secret: string };
    const ci = new RenderClient({ baseUrl: stack.gateway.url, apiKey: secret });
    expect((await ci.usage({ keyId: key.id })).used).toBe(0);
    const whole = (await render.usage()).used;
    png(await ci.html({ html: '<p>named</p>', width: 80, height: 60 }));
    png(await ci.html({ html: '<p>named again</p>', width: 80, height: 60 }));
    expect((await render.usage({ keyId: key.id })).used).toBe(2);
    // Credits stay the account's: the whole account's count took both renders too.
    expect((await render.usage()).used).toBe(whole + 2);

    const run = await cli(['usage', '--key-id', key.id, '--json'], { RENDER_API_KEY: secret });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, usage: { used: 2 } });
    const bad = await cli(['usage', '--key-id', 'not-a-key']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/key/i);
  });
});

describe('errors', () => {
  it('a 400 is a RenderApiError with the server’s code and message, its request id and every refused field', async () => {
    const error = await render.html({ html: '<p>x</p>', width: 10, quality: 0 }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(RenderApiError);
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect((error as Error).message).toMatch(/width/);
    expect((error as RenderApiError).requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect((error as RenderApiError).errors?.map((e) => e.field)).toEqual(['width', 'quality']);
  });

  it('a create call whose answer is lost is sent again with the same Idempotency-Key: made once, answered twice', async () => {
    const name = `Lost answer ${Date.now()}`;
    let lost = 0;
    // The first answer reaches the client's machine, then the connection "drops" before it is read.
    const flaky = async (input: string, init?: RequestInit) => {
      const answer = await fetch(input, init);
      if (lost === 0 && init?.method === 'POST') {
        lost += 1;
        await answer.arrayBuffer();
        throw new TypeError('fetch failed');
      }
      return answer;
    };
    const client = new RenderClient({ baseUrl: stack.gateway.url, apiKey: user.apiKey, fetch: flaky });
    const { data, response } = await client.api.POST('/api/template', {
      body: {
        name,
        width: 100,
        height: 100,
        svg: '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><rect width="100" height="100"/></svg>',
      },
    });
    expect(lost).toBe(1);
    expect(response.status).toBe(201);
    expect(response.headers.get('idempotent-replayed')).toBe('true');
    const own = await render.api.GET('/api/template/user', { params: { query: {} } });
    const named = (own.data?.data ?? []).filter((t) => t.name === name);
    expect(named.map((t) => t.id)).toEqual([data?.data.id]);
  });

  it('a wrong API key is a 401 UNAUTHORIZED', async () => {
    const error = await new RenderClient({ baseUrl: stack.gateway.url, apiKey: 'rk_wrong' })
      .html({ html: 'x' })
      .catch((err: unknown) => err);
    expect(error).toMatchObject({ status: 401, code: 'UNAUTHORIZED', message: 'Invalid API key' });
  });

  it('an unknown template is a 404', async () => {
    const error = await render.template('00000000-0000-4000-8000-000000000000').catch((err: unknown) => err);
    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });
});

describe('signed template URLs', () => {
  it('are the web app’s URLs, and the gateway serves them without credentials', async () => {
    const variables = { theme: '.bg{fill:#0000ff}', title: `sdk ${Date.now()}` };
    const url = await render.signedTemplateUrl({ templateId, variables, format: 'png' });
    expect(url).toBe(await webSignTemplateUrl({ baseUrl: stack.gateway.url, templateId, apiKey: user.apiKey, variables, format: 'png' }));
    const res = await fetch(url);
    expect(res.status).toBe(200);
    const image = png(new Uint8Array(await res.arrayBuffer()));
    expect(near(image.pixel(50, 50), [0, 0, 255, 255])).toBe(true);
    // Signed with another key, the same URL is refused.
    const forged = await new RenderClient({ baseUrl: stack.gateway.url, apiKey: 'rk_not_the_owner' }).signedTemplateUrl({
      templateId,
      variables,
      format: 'png',
    });
    expect((await fetch(forged)).status).toBe(403);
  });
});

describe('render links', () => {
  it('signRenderUrl makes the web app’s link, the real gateway serves it billed once, and refuses it signed with another key', async () => {
    const body = { html: '<body style="margin:0;background:#00ff00"></body>', width: 100, height: 80 };
    const url = await signRenderUrl({ baseUrl: stack.gateway.url, apiKey: user.apiKey, kind: 'html', body, ttl: 300 });
    expect(url).toBe(await webSignRenderUrl({ baseUrl: stack.gateway.url, apiKey: user.apiKey, kind: 'html', body, ttl: 300 }));
    expect(url).toBe(await render.renderLink('html', body, { ttl: 300 }));
    expect(url).not.toContain(user.apiKey);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const image = png(new Uint8Array(await res.arrayBuffer()));
    expect(near(image.pixel(50, 40), [0, 255, 0, 255])).toBe(true);
    expect((await fetch(url)).headers.get('x-cache')).toBe('HIT');

    const forged = new URL(await signRenderUrl({ baseUrl: stack.gateway.url, apiKey: 'rk_not_the_owner', kind: 'html', body, ttl: 300 }));
    forged.searchParams.set('key', new URL(url).searchParams.get('key') ?? '');
    expect((await fetch(forged)).status).toBe(403);
  });
});

describe('webhooks', () => {
  it('a real delivery verifies with verifyWebhookSignature, and a tampered one does not', async () => {
    // The asynchronous call and the secret through the typed client: routes the hand layer does not wrap.
    const secret = (await render.api.GET('/api/auth/webhook-secret')).data?.secret;
    expect(secret).toMatch(/^whsec_/);
    const { response } = await render.api.POST('/api/html-to-img/convert', {
      body: { html: '<p>hook</p>', width: 100, height: 60, webhook: `${hooksOrigin}/hook` },
    });
    expect(response.status).toBe(202);
    const until = Date.now() + 30_000;
    while (received.length === 0 && Date.now() < until) await new Promise((done) => setTimeout(done, 100));
    const delivery = received[0];
    if (!delivery) throw new Error('no webhook delivery within 30 s');
    expect(JSON.parse(delivery.body)).toMatchObject({ status: 'done', format: 'png' });
    expect(await verifyWebhookSignature({ payload: delivery.body, header: delivery.signature, secret: secret! })).toBe(true);
    expect(
      await verifyWebhookSignature({ payload: delivery.body.replace('"done"', '"failed"'), header: delivery.signature, secret: secret! }),
    ).toBe(false);
    expect(await verifyWebhookSignature({ payload: delivery.body, header: delivery.signature, secret: `${secret}x` })).toBe(false);
    // Replayed ten minutes later, the same delivery is refused.
    const later = Math.floor(Date.now() / 1000) + 600;
    expect(await verifyWebhookSignature({ payload: delivery.body, header: delivery.signature, secret: secret!, now: later })).toBe(false);
  });
});

describe('batches', () => {
  it('batch → getBatch until done → batchArchive: a zip of the images, a 409 while running, a RenderApiError for a bad item', async () => {
    const accepted = await render.batch({
      items: [
        { kind: 'html', body: { html: '<p>one</p>' } },
        { kind: 'svg', body: { svg: '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>', format: 'svg' } },
      ],
      defaults: { width: 120, height: 80 },
    });
    expect(accepted).toMatchObject({ status: 'queued', items: 2, credits: 2 });
    let status = await render.getBatch(accepted.id);
    const until = Date.now() + 60_000;
    while (status.status !== 'done' && Date.now() < until) {
      await new Promise((done) => setTimeout(done, 100));
      status = await render.getBatch(accepted.id);
    }
    expect(status.items.map((item) => [item.status, item.file])).toEqual([
      ['done', '00.png'],
      ['done', '01.svg'],
    ]);
    const zip = await render.batchArchive(accepted.id);
    // A zip (local file header signature), holding the PNG's bytes as they are (stored, not deflated).
    expect(Buffer.from(zip.subarray(0, 4)).toString('hex')).toBe('504b0304');
    expect(Buffer.from(zip).indexOf(PNG_SIGNATURE)).toBeGreaterThan(0);

    const refused = await render.batch({ items: [{ kind: 'html', body: { html: '<p/>', width: 0 } }] }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(RenderApiError);
    expect((refused as RenderApiError).status).toBe(400);
    expect((refused as RenderApiError).message).toMatch(/^items\[0\] \(html\): /);
  });

  it('cancelBatch drops the items not yet started; a second cancel is a 409', async () => {
    // Thirty items, four at a time: most have not started when the cancel comes a moment after the 202. An
    // account of its own, so the thirty credits reserved do not eat into the shared user's.
    const owner = await verifiedUser(stack.auth, { name: 'Batch Canceller' });
    const render = new RenderClient({ baseUrl: stack.gateway.url, apiKey: owner.apiKey });
    const items = Array.from({ length: 30 }, (_, i) => ({ kind: 'html' as const, body: { html: `<p>${i}</p>` } }));
    const accepted = await render.batch({ items });
    const cancelled = await render.cancelBatch(accepted.id);
    expect(['cancelling', 'cancelled']).toContain(cancelled.status);
    expect(cancelled.cancelled).toBeGreaterThan(0);
    let status = cancelled;
    const until = Date.now() + 60_000;
    while (status.status !== 'cancelled' && Date.now() < until) {
      await new Promise((done) => setTimeout(done, 100));
      status = await render.getBatch(accepted.id);
    }
    expect(status.status).toBe('cancelled');
    expect(status.done + status.cancelled).toBe(30);
    const again = await render.cancelBatch(accepted.id).catch((err: unknown) => err);
    expect(again).toBeInstanceOf(RenderApiError);
    expect((again as RenderApiError).status).toBe(409);
  });
});

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The `renderapi` binary as a user runs it, in its own process, with only the environment given. */
function cli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      {
        cwd: work,
        env: { PATH: process.env.PATH ?? '', HOME: work, RENDER_API_URL: stack.gateway.url, RENDER_API_KEY: user.apiKey, ...env },
        timeout: 120_000,
      },
      (error, stdout, stderr) => done({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('the renderapi CLI', () => {
  it('renderapi html writes the image and prints JSON', async () => {
    await writeFile(join(work, 'page.html'), '<body style="margin:0;background:#ff0000"></body>');
    const run = await cli(['html', 'page.html', '-o', 'out.png', '--width', '240', '--height', '120', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ ok: true, file: join(work, 'out.png'), format: 'png', width: 240, height: 120 });
    const image = png(await readFile(join(work, 'out.png')));
    expect([image.width, image.height]).toEqual([240, 120]);
  });

  it('renderapi html --link prints a signed render link the gateway serves', async () => {
    await writeFile(join(work, 'link.html'), '<body style="margin:0;background:#0000ff"></body>');
    const run = await cli(['html', 'link.html', '--link', '--ttl', '120', '--width', '100', '--height', '60']);
    expect(run.code, run.stderr).toBe(0);
    const url = run.stdout.trim();
    expect(url).toBe(
      await signRenderUrl({
        baseUrl: stack.gateway.url,
        apiKey: user.apiKey,
        kind: 'html',
        body: { html: '<body style="margin:0;background:#0000ff"></body>', width: 100, height: 60 },
        ttl: 120,
      }),
    );
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(near(png(new Uint8Array(await res.arrayBuffer())).pixel(50, 30), [0, 0, 255, 255])).toBe(true);
  });

  it('renderapi template with --var', async () => {
    const run = await cli(['template', templateId, '--var', 'theme=.bg{fill:#ff0000}', '--var', 'title=Hello', '-o', 'card.png', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, width: 200, height: 100 });
    expect(near(png(await readFile(join(work, 'card.png'))).pixel(50, 50), [255, 0, 0, 255])).toBe(true);
  });

  it('renderapi batch over a JSON-lines file: files written, failures reported, a summary, exit code 1', async () => {
    const lines = [
      { kind: 'html', body: { html: '<p>one</p>', width: 200, height: 100 }, out: 'one.png' },
      {
        kind: 'svg',
        body: { svg: '<svg xmlns="http://www.w3.org/2000/svg" width="5" height="5"/>', width: 60, height: 60 },
        out: 'two.png',
      },
      { kind: 'template', body: { templateId, variables: { title: 'batch' } }, out: 'three.png' },
      { kind: 'html', body: { html: '<p>bad</p>', width: 5 }, out: 'bad.png' },
      { kind: 'html', body: { html: 'x' }, out: '../escape.png' },
    ];
    await writeFile(join(work, 'tasks.jsonl'), `${lines.map((line) => JSON.stringify(line)).join('\n')}\nnot json\n`);
    const run = await cli(['batch', 'tasks.jsonl', '-o', 'outdir', '--json', '--concurrency', '2']);
    expect(run.code).toBe(1);
    const { summary, results } = JSON.parse(run.stdout);
    expect(summary).toMatchObject({ total: 6, done: 3, failed: 3, credits: 3 });
    expect(typeof summary.remaining).toBe('number');
    expect(results.filter((r: { ok: boolean }) => r.ok).map((r: { file: string }) => r.file)).toEqual(
      ['one.png', 'two.png', 'three.png'].map((name) => join(work, 'outdir', name)),
    );
    const bad = results.find((r: { source: string }) => r.source === 'tasks.jsonl:4');
    expect(bad).toMatchObject({ ok: false, error: { status: 400, code: 'VALIDATION_ERROR' } });
    expect(results.find((r: { source: string }) => r.source === 'tasks.jsonl:5').error.message).toMatch(/inside the output folder/);
    expect(results.find((r: { source: string }) => r.source === 'tasks.jsonl:6').error.message).toMatch(/not valid JSON/);
    expect(png(await readFile(join(work, 'outdir', 'two.png'))).width).toBe(60);
    await expect(readFile(join(work, 'escape.png'))).rejects.toThrow();
  });

  it('renderapi batch --server sends the tasks as one server batch and writes each image from its zip under its own name', async () => {
    const lines = [
      { kind: 'html', body: { html: '<p>one</p>', width: 200, height: 100 }, out: 'one.png' },
      { kind: 'svg', body: { svg: '<svg xmlns="http://www.w3.org/2000/svg" width="5" height="5"/>', format: 'svg' }, out: 'sub/two.svg' },
      { kind: 'template', body: { templateId, variables: { title: 'batch' } }, out: 'three.png' },
      // Loopback, not allow-listed for the worker: fails in the render, its credit given back.
      { kind: 'screenshot', body: { url: 'http://127.0.0.1:9/' }, out: 'four.png' },
    ];
    await writeFile(join(work, 'server.jsonl'), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    const before = (await render.usage()).used;
    const run = await cli(['batch', 'server.jsonl', '-o', 'server-out', '--server', '--json']);
    expect(run.code).toBe(1);
    const { summary, results } = JSON.parse(run.stdout);
    expect(summary).toMatchObject({ total: 4, done: 3, failed: 1, credits: 3 });
    expect(results.map((r: { ok: boolean }) => r.ok)).toEqual([true, true, true, false]);
    expect(results[3].error).toMatchObject({ code: 'RENDER_FAILED' });
    expect(png(await readFile(join(work, 'server-out', 'one.png'))).width).toBe(200);
    expect(await readFile(join(work, 'server-out', 'sub', 'two.svg'), 'utf8')).toMatch(/<svg/);
    // A template task goes in the server batch too, rendered as the template call renders it.
    expect(png(await readFile(join(work, 'server-out', 'three.png'))).width).toBeGreaterThan(0);
    expect((await render.usage()).used).toBe(before + 3);
  });

  it('renderapi batch over a folder renders each file by its extension', async () => {
    const folder = join(work, 'inputs');
    await rm(folder, { recursive: true, force: true });
    await import('node:fs/promises').then((fs) => fs.mkdir(folder));
    await writeFile(join(folder, 'a.html'), '<p>a</p>');
    await writeFile(join(folder, 'b.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="5" height="5"/>');
    await writeFile(join(folder, 'c.py'), 'print("hi")\n');
    await writeFile(join(folder, 'notes.png'), 'not rendered');
    const run = await cli(['batch', folder, '-o', 'folder-out', '--width', '300', '--height', '200']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/done 3, failed 0, credits used 3/);
    expect(png(await readFile(join(work, 'folder-out', 'a.png'))).width).toBe(300);
    expect(png(await readFile(join(work, 'folder-out', 'c.png'))).width).toBe(300);
  });

  it('reads the API key and base URL from the config file', async () => {
    const config = join(work, 'config.json');
    await writeFile(config, JSON.stringify({ apiKey: user.apiKey, baseUrl: stack.gateway.url }));
    const run = await cli(['usage', '--json'], { RENDER_API_KEY: '', RENDER_API_URL: '', RENDER_CONFIG: config });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).usage).toMatchObject({ plan: 'free' });
  });

  it('says the server’s message and exits non-zero on an API error', async () => {
    const run = await cli(['html', 'page.html', '--width', '5']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^renderapi: .*width.*\(VALIDATION_ERROR, HTTP 400\)/);
    const unauthorized = await cli(['html', 'page.html', '--json'], { RENDER_API_KEY: 'rk_wrong' });
    expect(unauthorized.code).toBe(1);
    expect(JSON.parse(unauthorized.stdout)).toEqual({
      ok: false,
      error: { status: 401, code: 'UNAUTHORIZED', message: 'Invalid API key' },
    });
  });

  it('refuses command-line mistakes with exit code 2', async () => {
    expect((await cli(['html'])).code).toBe(2);
    expect((await cli(['frobnicate', 'x'])).code).toBe(2);
    expect((await cli(['template', 'x'], { RENDER_API_KEY: '' })).stderr).toMatch(/needs an API key/);
  });
});

describe('renderapi mcp', () => {
  it('starts the stdio MCP server, which the official client lists and calls', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp'],
      env: { PATH: process.env.PATH ?? '', HOME: work, RENDER_API_URL: stack.gateway.url, RENDER_API_KEY: user.apiKey },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'sdk-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['render_html', 'generate_template_image']));
      const result = await client.callTool({
        name: 'render_html',
        arguments: { html: '<body style="margin:0;background:#ff0000"></body>', width: 100, height: 80 },
      });
      const image = (result.content as Array<{ type: string; data?: string; mimeType?: string }>).find((part) => part.type === 'image');
      expect(image?.mimeType).toBe('image/png');
      const decoded = png(Buffer.from(image!.data!, 'base64'));
      expect([decoded.width, decoded.height]).toEqual([100, 80]);
    } finally {
      await client.close();
    }
  });

  it('needs an API key', async () => {
    const run = await cli(['mcp'], { RENDER_API_KEY: '' });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/renderapi mcp needs an API key/);
  });
});
