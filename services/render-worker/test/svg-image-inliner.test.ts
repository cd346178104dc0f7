import { createServer, type Server, type ServerResponse } from 'node:http';
import { parseAllowlist } from '@render/egress-policy';
import { renderJobs, type SvgRenderPayload } from '@render/queue';
import { PNG } from 'pngjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type EgressProxy, startEgressProxy } from '../src/egress/egress-proxy.ts';
import { RenderError } from '../src/renderers/page/render-error.ts';
import type { ImageFetchSettings, RendererContext } from '../src/renderers/page/renderer.ts';
import { renderSvg } from '../src/renderers/svg/svg.renderer.ts';
import { formatSize, inlineSvgImages, replaceImageRefs, sniffImageType } from '../src/renderers/svg/svg-image-inliner.ts';
import { type Canary, closeServers, listen, loopbackLookup, startCanary } from './helpers/local-servers.ts';
import { startTestPool, type TestPool } from './helpers/test-pool.ts';

// The fetch + inline step over real sockets: an allow-listed loopback image server, a loopback canary that
// is not allow-listed and must never be reached, and the real egress proxy between them and the worker.

const MAX_BYTES = 64 * 1024;

let proxy: EgressProxy;
let images: { server: Server; port: number; hits: Map<string, number> };
let canary: Canary;
let closedPort: number;
const stalled = new Set<ServerResponse>();

function solidPng(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const png = new PNG({ width, height });
  for (let i = 0; i < width * height; i++) png.data.set([r, g, b, 255], i * 4);
  return PNG.sync.write(png);
}

const RED_PNG = solidPng(100, 100, [255, 0, 0]);
const LOGO_SVG =
  '\uFEFF<?xml version="1.0"?>\n<!-- logo --><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n' +
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="blue"/></svg>';

beforeAll(async () => {
  canary = await startCanary();

  const hits = new Map<string, number>();
  const imageServer = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const redirect = (location: string) => res.writeHead(302, { location }).end();
    switch (path) {
      case '/red.png':
        return res.writeHead(200, { 'content-type': 'image/png' }).end(RED_PNG);
      case '/redirect':
        return redirect('/red.png');
      case '/loop':
        return redirect('/loop');
      case '/logo.svg':
        // A wrong Content-Type on purpose: the type comes from the bytes.
        return res.writeHead(200, { 'content-type': 'text/plain' }).end(LOGO_SVG);
      case '/page':
        return res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html><body><p>Hello</p></body></html>');
      case '/page-with-svg':
        return res.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<html><body><svg><rect/></svg></body></html>');
      case '/big':
        return res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.concat([RED_PNG, Buffer.alloc(MAX_BYTES)]));
      case '/big-chunked': {
        // No Content-Length: the limit must hold while streaming.
        res.writeHead(200, { 'content-type': 'image/png' });
        res.write(RED_PNG);
        for (let i = 0; i < 40; i++) res.write(Buffer.alloc(4096));
        return res.end();
      }
      case '/slow':
        stalled.add(res);
        return;
      case '/to-canary':
        return redirect(`http://127.0.0.1:${canary.port}/via-redirect`);
      case '/to-canary-https':
        return redirect(`https://127.0.0.1:${canary.port}/via-redirect`);
      default:
        return res.writeHead(404).end('not found');
    }
  });
  images = { server: imageServer, port: await listen(imageServer), hits };

  const closed = createServer();
  closedPort = await listen(closed);
  await new Promise<void>((resolve) => closed.close(() => resolve()));

  proxy = await startEgressProxy({
    allowlist: parseAllowlist(`127.0.0.1:${images.port},127.0.0.1:${closedPort}`),
    lookup: loopbackLookup(['intranet.test']),
  });
});

afterEach(() => {
  for (const res of stalled) res.destroy();
  stalled.clear();
});

afterAll(async () => {
  await proxy?.close();
  closeServers(images?.server, canary?.server);
  // Every case above that aimed at it was refused before any connection.
  expect(canary.hits).toEqual([]);
});

const settings = (extra: Partial<ImageFetchSettings> = {}): ImageFetchSettings => ({
  proxyUrl: proxy.url,
  maxBytes: MAX_BYTES,
  timeoutMs: 5_000,
  ...extra,
});
const local = (path: string) => `http://127.0.0.1:${images.port}${path}`;
const inline = (svg: string, list: { ref: string; url: string }[], extra: Partial<ImageFetchSettings> = {}, budgetMs = 10_000) =>
  inlineSvgImages(svg, list, settings(extra), Date.now() + budgetMs);

async function failureOf(promise: Promise<unknown>): Promise<RenderError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RenderError);
  expect((err as RenderError).retryable).toBe(false);
  return err as RenderError;
}

const oneImage = (url: string, extra: Partial<ImageFetchSettings> = {}, budgetMs?: number) =>
  failureOf(inline('<svg><image href="render-image:0"/></svg>', [{ ref: 'render-image:0', url }], extra, budgetMs));

describe('sniffImageType', () => {
  it.each([
    ['PNG', RED_PNG, 'image/png'],
    ['JPEG', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), 'image/jpeg'],
    ['GIF', Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'), 'image/gif'],
    ['WebP', Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x24, 0, 0, 0]), Buffer.from('WEBPVP8 ')]), 'image/webp'],
    ['SVG after BOM, XML declaration, comment and doctype', Buffer.from(LOGO_SVG), 'image/svg+xml'],
    ['prefixed SVG root', Buffer.from('<s:svg xmlns:s="http://www.w3.org/2000/svg"/>'), 'image/svg+xml'],
    ['HTML', Buffer.from('<!doctype html><p>hi</p>'), undefined],
    ['HTML with an inline <svg>', Buffer.from('<html><body><svg></svg></body></html>'), undefined],
    ['an element merely named svg-something', Buffer.from('<svgx/>'), undefined],
    ['text mentioning <svg', Buffer.from('see <svg> here'), undefined],
    ['RIFF that is not WebP', Buffer.from('RIFF\x00\x00\x00\x00WAVE', 'latin1'), undefined],
    ['empty', Buffer.alloc(0), undefined],
  ])('%s', (_name, bytes, expected) => {
    expect(sniffImageType(bytes)).toBe(expected);
  });
});

describe('replaceImageRefs', () => {
  it('replaces quoted attribute values equal to a ref, and nothing else', () => {
    const uris = new Map([['render-image:0', 'data:image/png;base64,AA==']]);
    const svg =
      `<svg><image href="render-image:0" xlink:href='render-image:0'/><image href = "render-image:0"/>` +
      `<image href="render-image:01"/><image href="render-image:1"/><text>"render-image:0"</text></svg>`;
    expect(replaceImageRefs(svg, uris)).toBe(
      `<svg><image href="data:image/png;base64,AA==" xlink:href='data:image/png;base64,AA=='/><image href = "data:image/png;base64,AA=="/>` +
        `<image href="render-image:01"/><image href="render-image:1"/><text>"render-image:0"</text></svg>`,
    );
  });
});

describe('inlineSvgImages', () => {
  it('inlines images as data: URIs typed by their bytes, following redirects', async () => {
    const svg = '<svg><image href="render-image:0"/><image xlink:href=\'render-image:1\'/><image href="render-image:2"/></svg>';
    const out = await inline(svg, [
      { ref: 'render-image:0', url: local('/red.png') },
      { ref: 'render-image:1', url: local('/redirect') },
      { ref: 'render-image:2', url: local('/logo.svg') },
    ]);
    const png = `data:image/png;base64,${RED_PNG.toString('base64')}`;
    const logo = `data:image/svg+xml;base64,${Buffer.from(LOGO_SVG).toString('base64')}`;
    expect(out).toBe(`<svg><image href="${png}"/><image xlink:href='${png}'/><image href="${logo}"/></svg>`);
  });

  it('refuses images that together exceed the total cap', async () => {
    const twoImages = [
      { ref: 'render-image:0', url: local('/red.png') },
      { ref: 'render-image:1', url: local('/logo.svg') },
    ];
    const bytes = RED_PNG.length + Buffer.byteLength(LOGO_SVG);
    await expect(inline('<svg/>', twoImages, { maxTotalBytes: bytes })).resolves.toBe('<svg/>');
    const err = await failureOf(inline('<svg/>', twoImages, { maxTotalBytes: bytes - 1 }));
    expect(err.message).toMatch(/^Image variables add up to more than /);
  });

  it('answers an HTTP error status', async () => {
    const err = await oneImage(local('/missing'));
    expect(err.message).toBe(`Image variable URL ${local('/missing')} could not be fetched: HTTP 404`);
  });

  it('refuses what is not an image, whatever its Content-Type', async () => {
    for (const path of ['/page', '/page-with-svg']) {
      const err = await oneImage(local(path));
      expect(err.message).toBe(`Image variable URL ${local(path)} is not an image (PNG, JPEG, GIF, WebP or SVG)`);
    }
  });

  it('refuses oversize bodies, announced or streamed', async () => {
    for (const path of ['/big', '/big-chunked']) {
      const err = await oneImage(local(path));
      expect(err.message).toBe(`Image variable URL ${local(path)} is larger than 64 KB`);
    }
  });

  it('states limits the way people read them', () => {
    expect(formatSize(5 * 1024 * 1024)).toBe('5 MB');
    expect(formatSize(1.5 * 1024 * 1024)).toBe('1.5 MB');
    expect(formatSize(64 * 1024)).toBe('64 KB');
  });

  it('stops after 5 redirects', async () => {
    const before = images.hits.get('/loop') ?? 0;
    const err = await oneImage(local('/loop'));
    expect(err.message).toBe(`Image variable URL ${local('/loop')} could not be fetched: too many redirects (more than 5)`);
    expect((images.hits.get('/loop') ?? 0) - before).toBe(6);
  });

  it('gives up on a server that does not answer within the per-image timeout', async () => {
    const started = Date.now();
    const err = await oneImage(local('/slow'), { timeoutMs: 500 });
    expect(err.message).toBe(`Image variable URL ${local('/slow')} did not answer in time`);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('gives up when the job deadline comes before the per-image timeout', async () => {
    const started = Date.now();
    const err = await oneImage(local('/slow'), { timeoutMs: 10_000 }, 400);
    expect(err.message).toBe(`Image variable URL ${local('/slow')} did not answer in time`);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('names an allow-listed server that is down', async () => {
    const url = `http://127.0.0.1:${closedPort}/a.png`;
    const err = await oneImage(url);
    expect(err.message).toBe(`Image variable URL ${url} could not be fetched: the server could not be reached (ECONNREFUSED)`);
  });

  it('refuses a URL that is not allowed, over http and https, without reaching it', async () => {
    const direct = `http://127.0.0.1:${canary.port}/direct.png`;
    expect((await oneImage(direct)).message).toBe(
      `Image variable URL ${direct} is not allowed: 127.0.0.1 is in a private, loopback or reserved network`,
    );
    const tls = `https://127.0.0.1:${canary.port}/direct.png`;
    expect((await oneImage(tls)).message).toBe(
      `Image variable URL ${tls} is not allowed: 127.0.0.1 is in a private, loopback or reserved network`,
    );
    const named = `http://intranet.test:${canary.port}/direct.png`;
    expect((await oneImage(named)).message).toBe(
      `Image variable URL ${named} is not allowed: intranet.test points to a private, loopback or reserved network`,
    );
    expect(canary.hits).toEqual([]);
  });

  it('refuses an allow-listed URL that redirects to one that is not', async () => {
    for (const path of ['/to-canary', '/to-canary-https']) {
      const scheme = path.endsWith('https') ? 'https' : 'http';
      const err = await oneImage(local(path));
      expect(err.message).toBe(
        `Image variable URL ${local(path)} is not allowed: 127.0.0.1 is in a private, loopback or reserved network (after a redirect to ${scheme}://127.0.0.1:${canary.port})`,
      );
    }
    expect(canary.hits).toEqual([]);
  });

  it('fails the whole set when one image fails, and refuses a ref given twice', async () => {
    const err = await failureOf(
      inline('<svg/>', [
        { ref: 'render-image:0', url: local('/red.png') },
        { ref: 'render-image:1', url: local('/missing') },
      ]),
    );
    expect(err.message).toMatch(/HTTP 404$/);
    const twice = await failureOf(
      inline('<svg/>', [
        { ref: 'render-image:0', url: local('/red.png') },
        { ref: 'render-image:0', url: local('/redirect') },
      ]),
    );
    expect(twice.message).toBe('Image variable render-image:0 is given more than once');
  });
});

describe('SVG job payload', () => {
  const base = { svg: '<svg/>', format: 'png', width: 100, height: 100, quality: 80, transparent: false };
  it.each([
    ['without images', base, true],
    ['with images', { ...base, images: [{ ref: 'render-image:0', url: 'https://example.com/a.png' }] }, true],
    ['with an upper-case scheme', { ...base, images: [{ ref: 'render-image:12', url: 'HTTP://example.com/a.png' }] }, true],
    ['with a 3-digit ref', { ...base, images: [{ ref: 'render-image:100', url: 'https://example.com/a.png' }] }, false],
    ['with a non-http URL', { ...base, images: [{ ref: 'render-image:0', url: 'file:///etc/passwd' }] }, false],
    ['with an overlong URL', { ...base, images: [{ ref: 'render-image:0', url: `https://e.com/${'a'.repeat(2048)}` }] }, false],
    ['with extra image fields', { ...base, images: [{ ref: 'render-image:0', url: 'https://e.com/', x: 1 }] }, false],
    [
      'with 21 images',
      { ...base, images: Array.from({ length: 21 }, (_, i) => ({ ref: `render-image:${i}`, url: 'https://e.com/' })) },
      false,
    ],
    ['with an unknown field', { ...base, extra: 1 }, false],
  ])('%s', (_name, payload, valid) => {
    expect(renderJobs.svg.isValid(payload)).toBe(valid);
  });
});

describe('SVG renderer with image variables', () => {
  let browser: TestPool;
  let ctx: RendererContext;

  beforeAll(async () => {
    browser = await startTestPool('generic', proxy.url, 'svg-images-test');
    ctx = { pool: async () => browser.cluster, timeoutMs: 10_000, imageFetch: settings() };
  });

  afterAll(async () => {
    await browser?.close();
  });

  const payload = (format: SvgRenderPayload['format']): SvgRenderPayload => ({
    svg: '<svg width="100" height="100"><image href="render-image:0" width="100" height="100"/></svg>',
    format,
    width: 100,
    height: 100,
    quality: 80,
    transparent: false,
    images: [{ ref: 'render-image:0', url: local('/redirect') }],
  });

  it('draws the fetched image into the raster', async () => {
    const image = await renderSvg(payload('png'), ctx);
    const png = PNG.sync.read(image.bytes);
    const at = (50 * png.width + 50) * 4;
    expect([...png.data.subarray(at, at + 3)]).toEqual([255, 0, 0]);
  });

  it('inlines the image into SVG output, which needs no browser', async () => {
    const image = await renderSvg(payload('svg'), { ...ctx, pool: () => Promise.reject(new Error('no browser for SVG output')) });
    const out = image.bytes.toString('utf8');
    expect(out).toContain(`href="data:image/png;base64,${RED_PNG.toString('base64')}"`);
    expect(out).not.toContain('render-image:0');
  });

  it('fails with the image error, not a render error', async () => {
    const err = await failureOf(renderSvg({ ...payload('png'), images: [{ ref: 'render-image:0', url: local('/page') }] }, ctx));
    expect(err.message).toMatch(/is not an image/);
  });
});
