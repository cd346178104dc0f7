import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { RenderWarningLimits } from '@render/contracts';
import type { RenderWorkerHandle } from '@render/render-worker';
import { closeInOrder } from '@render/test-stack/teardown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAssetServer, startCanary, type TestServer } from './helpers/servers.ts';
import { startGateway, startWorker, type TestGateway, uniquePrefix } from './helpers/stack.ts';

// Render diagnostics through the real stack: gateway → Redis → worker → Chromium → egress proxy.

interface Warning {
  code: string;
  message: string;
  detail?: {
    url?: string;
    reason?: string;
    font?: string;
    fallback?: string;
    selector?: string;
    characters?: string;
    codePoints?: string[];
  };
}

let gateway: TestGateway;
let worker: RenderWorkerHandle;
let canary: TestServer;
let assets: TestServer;
let site: { origin: string; close(): Promise<void> };

const PAGE = `<!doctype html><html><head><title>site</title></head><body style="margin:0;background:#fff">
<h1>Hello</h1><script>console.error('boom from the site'); setTimeout(() => { throw new Error('late failure'); }, 0);</script></body></html>`;

beforeAll(async () => {
  canary = await startCanary();
  assets = await startAssetServer();
  // A real web font (the worker's own code font), so a loaded @font-face is told from a missing family.
  const font = readFileSync(
    createRequire(import.meta.url).resolve('@fontsource/jetbrains-mono/files/jetbrains-mono-latin-400-normal.woff2', {
      paths: [new URL('../../render-worker/', import.meta.url).pathname],
    }),
  );
  const pages = createServer((req, res) => {
    if (req.url === '/') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    // Fonts are fetched in CORS mode: without this header the face fails to load (and is a fallback).
    if (req.url === '/font.woff2')
      return res.writeHead(200, { 'content-type': 'font/woff2', 'access-control-allow-origin': '*' }).end(font);
    res.writeHead(404, { 'access-control-allow-origin': '*' }).end();
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  const pagesPort = (pages.address() as AddressInfo).port;
  site = { origin: `http://127.0.0.1:${pagesPort}`, close: () => new Promise((r) => pages.close(() => r())) };
  const prefix = uniquePrefix('warnings');
  // The asset server and the site are allow-listed; the canary is a loopback service pages must not reach.
  worker = await startWorker({
    QUEUE_PREFIX: prefix,
    RENDER_QUEUES: 'html,svg,screenshot,code,chart',
    RENDER_EGRESS_ALLOWLIST: `127.0.0.1:${assets.port},127.0.0.1:${pagesPort}`,
  });
  gateway = await startGateway({ QUEUE_PREFIX: prefix });
}, 120_000);

afterAll(async () => {
  await closeInOrder(gateway, worker, canary, assets, site);
});

async function renderJson(path: string, body: Record<string, unknown>) {
  // HTML and SVG name the field `output`, the other calls `outputType`.
  const field = /html-to-img|svg-to-img/.test(path) ? 'output' : 'outputType';
  const res = await gateway.post(path, { [field]: 'json', ...body });
  const json = (await res.json()) as { success: boolean; message?: string; data: { warnings: Warning[]; image: string } };
  expect(res.status, json.message).toBe(200);
  expect(res.headers.get('x-render-warnings')).toBe(String(json.data.warnings.length));
  return json.data.warnings;
}

const html = (markup: string, extra: Record<string, unknown> = {}) =>
  renderJson('/api/html-to-img/convert', { html: markup, width: 400, height: 300, ...extra });

describe('render warnings', () => {
  it('a clean render has none: warnings [] in JSON, X-Render-Warnings: 0 on the bytes', async () => {
    expect(await html('<p style="font-family: sans-serif">Plain text, café</p>')).toEqual([]);
    const res = await gateway.post('/api/html-to-img/convert', { html: '<p>ok</p>', width: 200, height: 200 });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-render-warnings')).toBe('0');
  });

  it('ordinary text in installed fonts raises nothing, in every kind', async () => {
    const text = 'Café naïve — “quoted” λ → ✓ Ωmega';
    expect(await html(`<h1 style="font-family: 'DejaVu Sans', sans-serif">${text}</h1>`)).toEqual([]);
    expect(await renderJson('/api/code-to-img/convert', { code: `const s = "${text}";`, language: 'javascript' })).toEqual([]);
    expect(
      await renderJson('/api/svg-to-img/convert', {
        svg: `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="50"><text x="5" y="30">${text}</text></svg>`,
      }),
    ).toEqual([]);
    expect(
      await renderJson('/api/chart-to-img/convert', {
        library: 'chartjs',
        chartType: 'bar',
        chartData: { labels: ['Zürich', 'Genève'], datasets: [{ label: text, data: [1, 2] }] },
        width: 400,
        height: 300,
      }),
    ).toEqual([]);
  });

  it('chart: labels with no glyph', async () => {
    const warnings = await renderJson('/api/chart-to-img/convert', {
      library: 'chartjs',
      chartType: 'bar',
      chartData: { labels: ['a\u{10FFFD}', 'b'], datasets: [{ label: 'x', data: [1, 2] }] },
      width: 400,
      height: 300,
    });
    expect(warnings.map((w) => w.detail?.codePoints)).toEqual([['U+10FFFD']]);
  });

  it('a refused sub-resource and a character no font has, each with its reason', async () => {
    const markup = `<!doctype html><body><img src="http://10.0.0.1/x.png"><img src="http://127.0.0.1:${canary.port}/y.png">
      <p>box: &#x10FFFD; here</p></body>`;
    const warnings = await html(markup);
    const refused = warnings.filter((w) => w.code === 'RESOURCE_REFUSED');
    expect(refused.map((w) => w.detail?.url).sort()).toEqual([`http://10.0.0.1/x.png`, `http://127.0.0.1:${canary.port}/y.png`].sort());
    for (const w of refused) expect(w.detail?.reason).toMatch(/private|loopback|not allowed|reserved/i);
    const glyph = warnings.find((w) => w.code === 'MISSING_GLYPH');
    expect(glyph?.detail?.codePoints).toEqual(['U+10FFFD']);
    expect(canary.requests).toEqual([]);

    // The binary answer counts the same warnings.
    const res = await gateway.post('/api/html-to-img/convert', { html: markup, width: 400, height: 300 });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-render-warnings')).toBe(String(warnings.length));
  });

  it('a sub-resource that fails (HTTP 404) and one refused over https', async () => {
    const warnings = await html(
      `<img src="${assets.origin}/missing.png?token=secret"><img src="https://10.0.0.2/z.png"><img src="${assets.origin}/blue.png">`,
    );
    const failed = warnings.find((w) => w.code === 'RESOURCE_FAILED');
    expect(failed?.detail).toMatchObject({ url: `${assets.origin}/missing.png`, reason: 'HTTP 404' });
    expect(JSON.stringify(warnings)).not.toContain('secret');
    expect(warnings.find((w) => w.code === 'RESOURCE_REFUSED')?.detail?.url).toBe('https://10.0.0.2/z.png');
    expect(warnings.some((w) => w.detail?.url?.endsWith('/blue.png'))).toBe(false);
  });

  it('an answer from the render cache carries the warnings of the render it keeps', async () => {
    const body = { html: `<p>&#x10FFFD; ${Date.now()}</p>`, width: 200, height: 200, cache: 60, output: 'json' };
    const first = await gateway.post('/api/html-to-img/convert', body);
    const second = await gateway.post('/api/html-to-img/convert', body);
    expect([first.headers.get('x-cache'), second.headers.get('x-cache')]).toEqual(['MISS', 'HIT']);
    const [a, b] = (await Promise.all([first.json(), second.json()])) as Array<{ data: { warnings: Warning[] } }>;
    expect(a?.data.warnings.map((w) => w.code)).toEqual(['MISSING_GLYPH']);
    expect(b?.data.warnings).toEqual(a?.data.warnings);
    expect(second.headers.get('x-render-warnings')).toBe('1');
  });

  it('console errors and uncaught errors of the page', async () => {
    const warnings = await html(`<script>console.error('something broke', 42); console.log('fine'); null.x;</script><p>hi</p>`);
    expect(warnings.filter((w) => w.code === 'CONSOLE_ERROR').map((w) => w.message)).toEqual([
      'console.error: something broke 42',
      expect.stringMatching(/^Uncaught error: .*null/),
    ]);
  });

  it('a font-family that is not installed fell back to the next one', async () => {
    const warnings = await html(
      `<style>.a { font-family: "No Such Font 123", serif } .unused { font-family: "Other Missing" }</style><p class="a">text</p>`,
    );
    expect(warnings.filter((w) => w.code === 'FONT_FALLBACK')).toEqual([
      expect.objectContaining({ detail: { font: 'No Such Font 123', fallback: 'serif' } }),
    ]);
  });

  it('a web font that loads is no fallback; one that fails is, with its failed request', async () => {
    const face = (family: string, url: string) => `@font-face { font-family: "${family}"; src: url("${url}") format("woff2"); }`;
    const warnings = await html(
      `<style>${face('Loaded Face', `${site.origin}/font.woff2`)} ${face('Broken Face', `${site.origin}/nope.woff2`)}
        .a { font-family: "Loaded Face", serif } .b { font-family: "Broken Face", monospace }</style>
        <p class="a">loaded</p><p class="b">broken</p>`,
    );
    expect(warnings.filter((w) => w.code === 'FONT_FALLBACK').map((w) => w.detail)).toEqual([
      { font: 'Broken Face', fallback: 'monospace' },
    ]);
    expect(warnings.find((w) => w.code === 'RESOURCE_FAILED')?.detail).toEqual({ url: `${site.origin}/nope.woff2`, reason: 'HTTP 404' });
  });

  it('a hostile page cannot blow up the answer: the count and every string are capped', async () => {
    const long = 'x'.repeat(5000);
    const warnings = await html(
      `<script>for (let i = 0; i < 500; i++) console.error('${long}' + i);</script>` +
        Array.from({ length: 40 }, (_, i) => `<img src="http://10.0.0.${i + 1}/${long}.png">`).join(''),
    );
    expect(warnings).toHaveLength(RenderWarningLimits.maxWarnings);
    for (const w of warnings) {
      expect(w.message.length).toBeLessThanOrEqual(RenderWarningLimits.maxMessageLength);
      if (w.detail?.url) expect(w.detail.url.length).toBeLessThanOrEqual(RenderWarningLimits.maxUrlLength);
    }
  });

  it('SVG: external references are refused (an SVG image loads nothing), missing glyphs found', async () => {
    const warnings = await renderJson('/api/svg-to-img/convert', {
      svg: `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100">
        <image href="https://example.com/a.png" width="10" height="10"/><text x="5" y="50">&#x10FFFD;</text></svg>`,
    });
    expect(warnings.map((w) => w.code).sort()).toEqual(['MISSING_GLYPH', 'RESOURCE_REFUSED']);
    expect(warnings.find((w) => w.code === 'RESOURCE_REFUSED')?.detail?.url).toBe('https://example.com/a.png');
  });

  it('screenshot: console errors of the site, and an optional selector that never appeared', async () => {
    const warnings = await renderJson('/api/screenshot/convert', {
      url: `${site.origin}/`,
      width: 400,
      height: 300,
      waitForSelector: '#never',
      errorOnSelectorNotFound: false,
    });
    expect(warnings.map((w) => w.code)).toEqual(expect.arrayContaining(['CONSOLE_ERROR', 'SELECTOR_NOT_FOUND']));
    expect(warnings.find((w) => w.code === 'SELECTOR_NOT_FOUND')?.detail?.selector).toBe('#never');
    // An element capture whose selector matches nothing captures the viewport instead.
    const element = await gateway.post('/api/screenshot/convert', {
      url: `${site.origin}/`,
      width: 400,
      height: 300,
      selector: '#missing',
      errorOnSelectorNotFound: false,
      outputType: 'json',
    });
    const answer = (await element.json()) as { data: { width: number; height: number; warnings: Warning[] } };
    expect(element.status).toBe(200);
    expect(answer.data).toMatchObject({ width: 400, height: 300 });
    expect(answer.data.warnings.find((w) => w.code === 'SELECTOR_NOT_FOUND')?.detail?.selector).toBe('#missing');
    // Without the option a selector that never appears is still a clear failure.
    const res = await gateway.post('/api/screenshot/convert', { url: `${site.origin}/`, width: 400, height: 300, selector: '#never' });
    expect(res.status).toBe(422);
  });

  it('code: characters with no glyph in the code fonts', async () => {
    const warnings = await renderJson('/api/code-to-img/convert', { code: 'const box = "\u{10FFFD}";', language: 'javascript' });
    expect(warnings.map((w) => w.code)).toEqual(['MISSING_GLYPH']);
  });
});
