import type { RenderWorkerHandle } from '@render/render-worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Decoded, decodeJpeg, decodePng, near, webpSize } from './helpers/images.ts';
import { startGateway, startWorker, type TestGateway, uniquePrefix } from './helpers/stack.ts';

// Issue 29 §1 through the real stack: QuickChart's documented requests, as `<img>` tags and clients send them,
// answered by the gateway → chart queue → the worker's QuickChart page (Chart.js 2.9.4 or 4) in Chromium.
let gateway: TestGateway;
let worker: RenderWorkerHandle;

beforeAll(async () => {
  const prefix = uniquePrefix('quickchart');
  worker = await startWorker({ QUEUE_PREFIX: prefix, RENDER_QUEUES: 'chart' });
  gateway = await startGateway({ QUEUE_PREFIX: prefix });
}, 120_000);

afterAll(async () => {
  await gateway?.close();
  await worker?.close();
});

const get = (query: Record<string, string>) => fetch(`${gateway.url}/chart?${new URLSearchParams(query)}`);

async function pngOf(res: Response): Promise<Decoded> {
  if (res.status !== 200) throw new Error(`${res.status}: ${await res.text()}`);
  expect(res.headers.get('content-type')).toBe('image/png');
  return decodePng(Buffer.from(await res.arrayBuffer()));
}

/** The share of sampled pixels near a colour (alpha included). */
function share(img: Decoded, rgba: number[], tolerance = 16): number {
  let hits = 0;
  let all = 0;
  for (let y = 0; y < img.height; y += 3)
    for (let x = 0; x < img.width; x += 3) {
      all += 1;
      if (near(img.pixel(x, y), rgba, tolerance)) hits += 1;
    }
  return hits / all;
}

const distinctColours = (img: Decoded) => {
  const seen = new Set<string>();
  for (let y = 0; y < img.height; y += 4) for (let x = 0; x < img.width; x += 4) seen.add(img.pixel(x, y).join(','));
  return seen.size;
};

const RED = [255, 0, 0, 255];
const WHITE = [255, 255, 255, 255];
// QuickChart's first default colour, rgba(54, 162, 235, 0.5), over white.
const DEFAULT_BLUE_ON_WHITE = [155, 208, 245, 255];

// QuickChart's home-page example, as written in its docs (a JavaScript object literal, Chart.js 2).
const HELLO_WORLD = "{type:'bar',data:{labels:['January','February','March','April','May'],datasets:[{label:'Dogs',data:[50,60,70,180,190]},{label:'Cats',data:[100,200,300,400,500]}]}}";

describe('GET /chart and POST /chart (QuickChart parameters)', () => {
  it("QuickChart's hello-world: PNG of 500×300 at devicePixelRatio 2, its default colours", async () => {
    const img = await pngOf(await get({ c: HELLO_WORLD, bkg: 'white' }));
    expect([img.width, img.height]).toEqual([1000, 600]);
    expect(share(img, DEFAULT_BLUE_ON_WHITE, 10)).toBeGreaterThan(0.01);
    expect(distinctColours(img)).toBeGreaterThan(5);
  });

  it('long and short names: width/w, height/h, devicePixelRatio, backgroundColor/bkg; transparent by default', async () => {
    const chart = JSON.stringify({
      type: 'bar',
      data: { labels: ['a', 'b'], datasets: [{ data: [1, 2], backgroundColor: '#ff0000' }] },
      options: { legend: { display: false } },
    });
    const long = await pngOf(await get({ chart, width: '300', height: '200', devicePixelRatio: '1', backgroundColor: '#ffffff' }));
    expect([long.width, long.height]).toEqual([300, 200]);
    expect(near(long.pixel(2, 2), WHITE)).toBe(true);
    expect(share(long, RED)).toBeGreaterThan(0.05);
    const short = await pngOf(await get({ c: chart, w: '300', h: '200', devicePixelRatio: '1' }));
    expect([short.width, short.height]).toEqual([300, 200]);
    expect(short.pixel(2, 2)[3]).toBe(0);
  });

  it('POST /chart with the config as an object (QuickChart clients), and as JavaScript text', async () => {
    const object = await pngOf(
      await gateway.post('/chart', {
        chart: { type: 'pie', data: { labels: ['x', 'y'], datasets: [{ data: [3, 1], backgroundColor: ['#ff0000', '#0000ff'] }] } },
        width: 400,
        height: 400,
        devicePixelRatio: 1,
        backgroundColor: 'white',
      }),
    );
    expect([object.width, object.height]).toEqual([400, 400]);
    expect(share(object, RED)).toBeGreaterThan(0.1);
    const text = await pngOf(await gateway.post('/chart', { c: HELLO_WORLD, w: 200, h: 100 }));
    expect([text.width, text.height]).toEqual([400, 200]);
  });

  it('formats: webp, jpg, svg, pdf, base64', async () => {
    const chart = HELLO_WORLD;
    const webp = await get({ c: chart, f: 'webp', devicePixelRatio: '1' });
    expect(webp.headers.get('content-type')).toBe('image/webp');
    expect(webpSize(Buffer.from(await webp.arrayBuffer()))).toEqual({ width: 500, height: 300 });
    const jpg = await get({ c: chart, format: 'jpg', devicePixelRatio: '1' });
    expect(jpg.headers.get('content-type')).toBe('image/jpeg');
    const jpeg = decodeJpeg(Buffer.from(await jpg.arrayBuffer()));
    expect([jpeg.width, jpeg.height]).toEqual([500, 300]);
    expect(near(jpeg.pixel(2, 2), WHITE)).toBe(true);
    const svg = await get({ c: chart, f: 'svg' });
    expect(svg.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(await svg.text()).toMatch(/^<svg [^>]*width="500" height="300"/);
    const pdf = await get({ c: chart, f: 'pdf' });
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
    const b64 = await get({ c: chart, f: 'base64' });
    expect(b64.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await b64.text();
    expect(text.startsWith('data:image/png;base64,')).toBe(true);
    expect(decodePng(Buffer.from(text.slice(22), 'base64')).width).toBe(1000);
  });

  it('encoding=base64', async () => {
    const img = await pngOf(await get({ c: Buffer.from(HELLO_WORLD).toString('base64'), encoding: 'base64', w: '100', h: '50' }));
    expect([img.width, img.height]).toEqual([200, 100]);
  });

  it('bad requests: 400 with the reason (also in X-quickchart-error), never 5xx', async () => {
    const missing = await get({ w: '100' });
    expect(missing.status).toBe(400);
    expect(missing.headers.get('x-quickchart-error')).toBe('You are missing variable `c` or `chart`');
    for (const query of [
      { c: HELLO_WORLD, v: '7' },
      { c: HELLO_WORLD, f: 'gif' },
      { c: HELLO_WORLD, w: '5000' },
      { c: HELLO_WORLD, bkg: 'not a colour' },
      { c: '!!!', encoding: 'base64' },
    ]) {
      const res = await get(query);
      expect(res.status, JSON.stringify(query)).toBe(400);
    }
    const broken = await get({ c: '{type: "bar", data: ' });
    expect(broken.status).toBe(422);
    expect(await broken.text()).toMatch(/could not be drawn/);
    const notObject = await get({ c: '42' });
    expect(notObject.status).toBe(422);
  });
});
