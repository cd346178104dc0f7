import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { templateImageSigningString } from '@render/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifiedUser } from './helpers/auth-stack.ts';
import { type FullStack, startFullStack } from './helpers/stack.ts';

// AVIF for every kind, WebP for charts and lossless PNG optimisation, through the whole stack: gateway,
// queue, a real worker with Chromium, the account and templates services. The images are decoded with
// sharp, the render worker's own dependency (the gateway has no use for it outside this test).
/** The part of sharp's API this test decodes with (its types live in the render worker's dependencies). */
type Decoder = (input: Buffer) => {
  ensureAlpha(): {
    raw(): { toBuffer(options: { resolveWithObject: true }): Promise<{ data: Buffer; info: { width: number; height: number } }> };
  };
};
const sharp = createRequire(new URL('../../render-worker/package.json', import.meta.url))('sharp') as Decoder;

let stack: FullStack;
let site: Server;
let siteOrigin: string;
let user: Awaited<ReturnType<typeof verifiedUser>>;

const PAGE =
  '<!doctype html><body style="margin:0;background:#fde68a"><h1 style="color:#7c2d12;font:24px sans-serif">Local page</h1></body>';

beforeAll(async () => {
  site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE));
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const port = (site.address() as AddressInfo).port;
  siteOrigin = `http://127.0.0.1:${port}`;
  stack = await startFullStack('formats', { worker: { RENDER_EGRESS_ALLOWLIST: `127.0.0.1:${port}` } });
  user = await verifiedUser(stack.auth);
}, 120_000);

afterAll(async () => {
  await stack?.close();
  await new Promise((resolve) => site?.close(resolve));
});

const bytes = async (res: Response) => {
  if (res.status !== 200) expect.fail(`expected an image, got ${res.status}: ${await res.text()}`);
  return Buffer.from(await res.arrayBuffer());
};
const isAvif = (b: Buffer) => b.toString('ascii', 4, 12) === 'ftypavif';
const isWebp = (b: Buffer) => b.toString('ascii', 0, 4) === 'RIFF' && b.toString('ascii', 8, 12) === 'WEBP';
const rgba = (b: Buffer) => sharp(b).ensureAlpha().raw().toBuffer({ resolveWithObject: true });

/** The decoded image's size and the colour at a point. */
async function decoded(b: Buffer, x = 5, y = 5) {
  const { data, info } = await rgba(b);
  const at = (y * info.width + x) * 4;
  return { width: info.width, height: info.height, pixel: [...data.subarray(at, at + 4)] };
}
const near = (a: number[], b: number[], tolerance = 10) => a.every((v, i) => Math.abs(v - b[i]!) <= tolerance);

const withKey = () => ({ 'x-api-key': user.apiKey });

describe('AVIF from every kind', () => {
  const CALLS: Array<[kind: string, path: string, body: Record<string, unknown>, size: [number, number] | undefined]> = [
    ['html', '/api/html-to-img/convert', { html: '<body style="margin:0;background:#ff0000"></body>', width: 120, height: 80 }, [120, 80]],
    [
      'svg',
      '/api/svg-to-img/convert',
      {
        svg: '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#ff0000"/></svg>',
        width: 90,
        height: 60,
      },
      [90, 60],
    ],
    ['code', '/api/code-to-img/convert', { code: 'const a = 1;', language: 'javascript', width: 300 }, undefined],
  ];

  it.each(CALLS)('%s answers image/avif (ftypavif) that decodes', async (_kind, path, body, size) => {
    const res = await stack.gateway.post(path, { ...body, format: 'avif' }, withKey());
    const image = await bytes(res);
    expect(res.headers.get('content-type')).toBe('image/avif');
    expect(res.headers.get('content-disposition')).toBe('inline; filename="image.avif"');
    expect(isAvif(image)).toBe(true);
    const { width, height } = await decoded(image);
    if (size) expect([width, height]).toEqual(size);
    else expect(width).toBe(300);
  });

  it('html: a red page stays red, and the JSON answer names the format', async () => {
    const res = await stack.gateway.post(
      '/api/html-to-img/convert',
      { html: '<body style="margin:0;background:#ff0000"></body>', width: 100, height: 60, format: 'avif', output: 'json' },
      withKey(),
    );
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: { image: string; format: string; mimeType: string; width: number; size: number } };
    expect(data).toMatchObject({ format: 'avif', mimeType: 'image/avif', width: 100 });
    const image = Buffer.from(data.image, 'base64');
    expect(data.size).toBe(image.length);
    expect(near((await decoded(image, 50, 30)).pixel, [255, 0, 0, 255])).toBe(true);
  });

  it.each(['chartjs', 'd3', 'highcharts'])('chart (%s) answers AVIF and WebP of the chart’s size', async (library) => {
    const body = {
      library,
      chartType: library === 'highcharts' ? 'column' : 'bar',
      chartData:
        library === 'highcharts' ? [{ data: [1, 3, 2] }] : { labels: ['a', 'b', 'c'], datasets: [{ label: 'n', data: [1, 3, 2] }] },
      width: 200,
      height: 120,
    };
    for (const [format, check] of [
      ['avif', isAvif],
      ['webp', isWebp],
    ] as const) {
      const res = await stack.gateway.post('/api/chart-to-img/convert', { ...body, format }, withKey());
      const image = await bytes(res);
      expect(res.headers.get('content-type')).toBe(`image/${format}`);
      expect(check(image)).toBe(true);
      const { width, height } = await decoded(image);
      expect([width, height]).toEqual([200, 120]);
    }
  });

  it('screenshot of a local page as AVIF', async () => {
    const res = await stack.gateway.post(
      '/api/screenshot/convert',
      { url: `${siteOrigin}/`, format: 'avif', width: 320, height: 200 },
      withKey(),
    );
    const image = await bytes(res);
    expect(res.headers.get('content-type')).toBe('image/avif');
    expect(isAvif(image)).toBe(true);
    const { width, height, pixel } = await decoded(image, 300, 190);
    expect([width, height]).toEqual([320, 200]);
    expect(near(pixel, [0xfd, 0xe6, 0x8a, 255])).toBe(true);
  });

  describe('templates', () => {
    let templateId: string;
    const SVG =
      '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60"><rect width="120" height="60" fill="#0000ff"/><text x="5" y="30" data-variable="title">Hi</text></svg>';

    beforeAll(async () => {
      const res = await fetch(`${stack.gateway.url}/api/template`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
        body: JSON.stringify({
          name: 'Formats',
          width: 120,
          height: 60,
          svg: SVG,
          variables: [{ name: 'title', type: 'text', defaultValue: 'Hi' }],
        }),
      });
      if (res.status !== 201) expect.fail(`template not created: ${res.status} ${await res.text()}`);
      templateId = ((await res.json()) as { data: { id: string } }).data.id;
    });

    it('generation answers AVIF', async () => {
      const res = await stack.gateway.post(
        '/api/template/generate',
        { templateId, format: 'avif' },
        { authorization: `Bearer ${user.token}` },
      );
      const image = await bytes(res);
      expect(res.headers.get('content-type')).toBe('image/avif');
      expect(isAvif(image)).toBe(true);
      const { width, pixel } = await decoded(image, 110, 55);
      expect(width).toBe(120);
      expect(near(pixel, [0, 0, 255, 255])).toBe(true);
    });

    it('the signed image URL answers AVIF, and its cached copy is AVIF too', async () => {
      const params: Array<[string, string]> = [
        ['format', 'avif'],
        ['title', 'signed'],
      ];
      const sig = createHmac('sha256', user.apiKey).update(templateImageSigningString(templateId, params)).digest('hex');
      const url = `${stack.gateway.url}/api/template/${templateId}/image?${new URLSearchParams([...params, ['sig', sig]])}`;
      for (const cache of ['MISS', 'HIT']) {
        const res = await fetch(url);
        const image = await bytes(res);
        expect([res.headers.get('x-cache'), res.headers.get('content-type')]).toEqual([cache, 'image/avif']);
        expect(isAvif(image)).toBe(true);
      }
    });
  });
});

describe('optimize: lossless PNG optimisation', () => {
  it('answers the same pixels in a smaller PNG', async () => {
    const body = {
      html:
        '<body style="margin:0;font:15px sans-serif;background:linear-gradient(#eef2ff,#fdf2f8)">' +
        '<h1 style="color:#4338ca">Invoice 2026-11</h1><p>Thank you for your business.</p></body>',
      width: 320,
      height: 200,
    };
    const [plain, optimized] = await Promise.all([
      stack.gateway.post('/api/html-to-img/convert', body, withKey()).then(bytes),
      stack.gateway.post('/api/html-to-img/convert', { ...body, optimize: true }, withKey()).then(bytes),
    ]);
    expect(optimized.subarray(1, 4).toString('ascii')).toBe('PNG');
    const [a, b] = await Promise.all([rgba(plain), rgba(optimized)]);
    expect([b.info.width, b.info.height]).toEqual([320, 200]);
    expect(b.data.equals(a.data)).toBe(true);
    expect(optimized.length).toBeLessThan(plain.length);
  });

  it('refuses a value that is not a boolean, and the old format lists are gone from the messages', async () => {
    const notBoolean = await stack.gateway.post('/api/code-to-img/convert', { code: 'x', optimize: 'yes' }, withKey());
    expect(notBoolean.status).toBe(400);
    expect(((await notBoolean.json()) as { message: string }).message).toBe('optimize must be true or false');

    const gif = await stack.gateway.post('/api/chart-to-img/convert', { library: 'd3', format: 'gif' }, withKey());
    expect(gif.status).toBe(400);
    expect(((await gif.json()) as { message: string }).message).toBe('format must be one of: png, jpeg, webp, avif, svg, pdf');
  });
});
