import type { RenderWorkerHandle } from '@render/render-worker';
import { decodeJpeg, decodePng, near, PNG_SIGNATURE, webpSize } from '@render/test-stack/images';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, startWorker, type TestGateway, uniquePrefix } from './helpers/stack.ts';

const RED_BOX = '<html><body style="margin:0;background:#fff"><div style="width:100px;height:80px;background:#ff0000"></div></body></html>';
const BLUE_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><rect x="0" y="0" width="50" height="50" fill="#0000ff"/></svg>';

let gateway: TestGateway;
let worker: RenderWorkerHandle;

beforeAll(async () => {
  const prefix = uniquePrefix('convert');
  worker = await startWorker({ QUEUE_PREFIX: prefix });
  gateway = await startGateway({ QUEUE_PREFIX: prefix });
});

afterAll(async () => {
  await gateway?.close();
  await worker?.close();
});

const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());

/** The PNG a 200 answer carries, checked to be `width`×`height` pixels. */
async function pngSized(res: Response, width: number, height: number) {
  expect(res.status).toBe(200);
  const img = decodePng(await bytes(res));
  expect([img.width, img.height]).toEqual([width, height]);
  return img;
}

describe('GET /api/ping', () => {
  it('answers pong', async () => {
    const res = await fetch(`${gateway.url}/api/ping`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true, message: 'pong' });
  });
});

describe('POST /api/html-to-img/convert', () => {
  it('renders PNG at the default 800×600 with the right pixels and timing headers', async () => {
    const res = await gateway.post('/api/html-to-img/convert', { html: RED_BOX });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(Number(res.headers.get('x-render-time'))).toBeGreaterThan(0);
    expect(res.headers.get('x-queue-time')).toMatch(/^\d+$/);
    // The same timings as the standard header, the render to 0.1 ms: it rounds to the whole milliseconds.
    const timing = /^queue;dur=(\d+), render;dur=(\d+(?:\.\d)?)$/.exec(res.headers.get('server-timing') ?? '');
    expect(timing?.[1]).toBe(res.headers.get('x-queue-time'));
    expect(Math.abs(Number(timing?.[2]) - Number(res.headers.get('x-render-time')))).toBeLessThanOrEqual(1);
    const png = await bytes(res);
    expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    const img = decodePng(png);
    expect([img.width, img.height]).toEqual([800, 600]);
    expect(near(img.pixel(10, 10), [255, 0, 0, 255])).toBe(true);
    expect(near(img.pixel(150, 150), [255, 255, 255, 255])).toBe(true);
  });

  it('applies scale as the device scale factor (width×scale by height×scale)', async () => {
    const res = await gateway.post('/api/html-to-img/convert', { html: RED_BOX, width: 300, height: 200, scale: 2 });
    const img = await pngSized(res, 600, 400);
    // The 100×80 CSS-pixel box now covers 200×160 device pixels.
    expect(near(img.pixel(190, 150), [255, 0, 0, 255])).toBe(true);
    expect(near(img.pixel(210, 170), [255, 255, 255, 255])).toBe(true);
  });

  it('renders fractional scales to rounded pixel sizes', async () => {
    const img = decodePng(
      await bytes(await gateway.post('/api/html-to-img/convert', { html: RED_BOX, width: 333, height: 101, scale: 0.5 })),
    );
    expect([img.width, img.height]).toEqual([167, 51]);
  });

  it('renders JPEG with the requested size and colour', async () => {
    const res = await gateway.post('/api/html-to-img/convert', { html: RED_BOX, format: 'jpeg', quality: 90, width: 400, height: 300 });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    const jpg = await bytes(res);
    expect([...jpg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const img = decodeJpeg(jpg);
    expect([img.width, img.height]).toEqual([400, 300]);
    expect(near(img.pixel(20, 20), [255, 0, 0], 25)).toBe(true);
  });

  it('lower JPEG quality gives a smaller file', async () => {
    const html = '<body style="margin:0;background:linear-gradient(90deg,red,blue)"><h1>Quality</h1></body>';
    const hi = await bytes(await gateway.post('/api/html-to-img/convert', { html, format: 'jpeg', quality: 95 }));
    const lo = await bytes(await gateway.post('/api/html-to-img/convert', { html, format: 'jpeg', quality: 10 }));
    expect(lo.length).toBeLessThan(hi.length);
  });

  it('renders WebP with the requested size', async () => {
    const res = await gateway.post('/api/html-to-img/convert', { html: RED_BOX, format: 'webp', width: 320, height: 240 });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(webpSize(await bytes(res))).toEqual({ width: 320, height: 240 });
  });

  it('answers JSON with base64 data when output is json', async () => {
    const res = await gateway.post('/api/html-to-img/convert', { html: RED_BOX, output: 'json', width: 200, height: 100, scale: 1.5 });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-render-time')).toMatch(/^\d+$/);
    const body = await res.json();
    expect(body).toMatchObject({ success: true, data: { format: 'png', mimeType: 'image/png', width: 300, height: 150 } });
    const png = Buffer.from(body.data.image, 'base64');
    expect(body.data.size).toBe(png.length);
    const img = decodePng(png);
    expect([img.width, img.height]).toEqual([300, 150]);
  });

  it('runs page scripts and keeps one job’s globals away from the next job on the same warm page', async () => {
    const first =
      '<body style="margin:0"><script>window.leak = "secret"; setInterval(() => { document.body.style.background = "#ff0000"; }, 1);</script></body>';
    const second =
      '<body style="margin:0;background:#fff"><script>document.body.style.background = window.leak ? "#ff0000" : "#00ff00";</script></body>';
    expect(
      decodePng(await bytes(await gateway.post('/api/html-to-img/convert', { html: first })))
        .pixel(5, 5)
        .slice(0, 3),
    ).toEqual([255, 0, 0]);
    // More jobs than warm pages, so the second script runs on the page the first one used.
    for (let i = 0; i < 3; i++) {
      const img = decodePng(await bytes(await gateway.post('/api/html-to-img/convert', { html: second })));
      expect(near(img.pixel(5, 5), [0, 255, 0, 255])).toBe(true);
    }
  });

  it('renders concurrent requests correctly (no cross-talk between jobs)', async () => {
    const colours = ['#ff0000', '#00ff00', '#0000ff', '#ffff00', '#00ffff', '#ff00ff'];
    const results = await Promise.all(
      colours.map(async (c) =>
        decodePng(
          await bytes(
            await gateway.post('/api/html-to-img/convert', {
              html: `<body style="margin:0;background:${c}"></body>`,
              width: 100,
              height: 100,
            }),
          ),
        ),
      ),
    );
    results.forEach((img, i) => {
      const hex = colours[i]!;
      const rgb = [1, 3, 5].map((o) => Number.parseInt(hex.slice(o, o + 2), 16));
      expect(near(img.pixel(50, 50), [...rgb, 255])).toBe(true);
    });
  });
});

describe('POST /api/svg-to-img/convert', () => {
  it('renders SVG to PNG at the requested size, scaled by its viewBox', async () => {
    const res = await gateway.post('/api/svg-to-img/convert', { svg: BLUE_SVG, width: 200, height: 200 });
    const img = await pngSized(res, 200, 200);
    expect(near(img.pixel(10, 10), [0, 0, 255, 255])).toBe(true);
    expect(near(img.pixel(150, 150), [255, 255, 255, 255])).toBe(true);
  });

  it('adds a missing xmlns so SVG pasted from HTML still renders', async () => {
    const svg = '<svg viewBox="0 0 10 10"><rect width="10" height="10" fill="#00ff00"/></svg>';
    const img = decodePng(await bytes(await gateway.post('/api/svg-to-img/convert', { svg, width: 100, height: 100 })));
    expect(near(img.pixel(50, 50), [0, 255, 0, 255])).toBe(true);
  });

  it('keeps the background transparent when asked (PNG)', async () => {
    const img = decodePng(
      await bytes(await gateway.post('/api/svg-to-img/convert', { svg: BLUE_SVG, width: 100, height: 100, transparent: true })),
    );
    expect(img.pixel(90, 90)[3]).toBe(0);
    expect(near(img.pixel(10, 10), [0, 0, 255, 255])).toBe(true);
  });

  it('renders JPEG and WebP', async () => {
    const jpg = await gateway.post('/api/svg-to-img/convert', { svg: BLUE_SVG, format: 'jpeg', width: 100, height: 100 });
    expect(jpg.headers.get('content-type')).toBe('image/jpeg');
    expect(decodeJpeg(await bytes(jpg)).width).toBe(100);
    const webp = await gateway.post('/api/svg-to-img/convert', { svg: BLUE_SVG, format: 'webp', width: 120, height: 90 });
    expect(webpSize(await bytes(webp))).toEqual({ width: 120, height: 90 });
  });

  it('returns a resized SVG document for format svg', async () => {
    const res = await gateway.post('/api/svg-to-img/convert', {
      svg: '<svg width="10" height="20"><circle r="5"/></svg>',
      format: 'svg',
      width: 100,
      height: 200,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    const text = await res.text();
    expect(text).toMatch(/^<svg [^>]*width="100"/);
    expect(text).toContain('height="200"');
    expect(text).toContain('viewBox="0 0 10 20"');
    expect(text).toContain('xmlns="http://www.w3.org/2000/svg"');
  });

  it('answers JSON for output json', async () => {
    const body = await (await gateway.post('/api/svg-to-img/convert', { svg: BLUE_SVG, output: 'json', width: 64, height: 64 })).json();
    expect(body).toMatchObject({ success: true, data: { format: 'png', mimeType: 'image/png', width: 64, height: 64 } });
    expect(decodePng(Buffer.from(body.data.image, 'base64')).width).toBe(64);
  });
});

describe('GET /api/openapi.json', () => {
  it('documents both convert calls from the same schemas the routes validate with', async () => {
    const doc = await (await fetch(`${gateway.url}/api/openapi.json`)).json();
    const html = doc.paths['/api/html-to-img/convert'].post;
    const schema = html.requestBody.content['application/json'].schema;
    expect(schema.required).toContain('html');
    expect(schema.properties.width).toMatchObject({ minimum: 50, maximum: 4000, default: 800 });
    expect(schema.properties.scale).toMatchObject({ minimum: 0.1, maximum: 3, default: 1 });
    expect(Object.keys(html.responses['200'].content)).toEqual(
      expect.arrayContaining(['application/json', 'image/png', 'image/jpeg', 'image/webp', 'image/avif']),
    );
    expect(doc.paths['/api/svg-to-img/convert'].post.requestBody.content['application/json'].schema.properties.format.enum).toEqual([
      'png',
      'jpeg',
      'webp',
      'avif',
      'svg',
    ]);
  });
});
