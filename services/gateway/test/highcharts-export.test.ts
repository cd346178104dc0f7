import type { RenderWorkerHandle } from '@render/render-worker';
import { colourShare, type Decoded, decodeJpeg, decodePng, near, PNG_SIGNATURE } from '@render/test-stack/images';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, startWorker, type TestGateway, uniquePrefix } from './helpers/stack.ts';

/**
 * POST /highcharts through the real stack (gateway, worker, Chromium): the Highcharts export server's
 * documented requests (its README's curl example and its b64 AJAX example) and each of its body fields.
 */
let gateway: TestGateway;
let worker: RenderWorkerHandle;
let prefix: string;

beforeAll(async () => {
  prefix = uniquePrefix('hcexport');
  worker = await startWorker({ QUEUE_PREFIX: prefix, RENDER_QUEUES: 'chart,svg,html' });
  gateway = await startGateway({ QUEUE_PREFIX: prefix });
});

afterAll(async () => {
  await gateway?.close();
  await worker?.close();
});

const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());
const RED = [255, 0, 0, 255];

const share = (img: Decoded, rgb: number[], tolerance = 12) => colourShare(img, rgb, 3, tolerance);

async function ok(res: Response): Promise<Response> {
  if (res.status !== 200) throw new Error(`${res.status}: ${await res.text()}`);
  return res;
}

/** The export server README's example: `curl -H "Content-Type: application/json" -X POST -d '{"infile": …}'`. */
const STEEP_CHART = {
  title: { text: 'Steep Chart' },
  xAxis: { categories: ['Jan', 'Feb', 'Mar'] },
  series: [{ data: [29.9, 71.5, 106.4] }],
};
const RED_COLUMNS = { chart: { type: 'column' }, colors: ['#ff0000'], series: [{ data: [5, 8, 10] }] };

describe('POST /highcharts: the documented requests', () => {
  it('README: JSON infile → a 600×400 PNG attachment named chart.png', async () => {
    const res = await ok(await gateway.post('/highcharts', { infile: STEEP_CHART }));
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="chart.png"');
    expect(res.headers.get('server-timing')).toMatch(/^queue;dur=\d+, render;dur=\d+(\.\d)?$/);
    const buf = await bytes(res);
    expect(buf.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    const img = decodePng(buf);
    expect([img.width, img.height]).toEqual([600, 400]);
    expect(share(img, [255, 255, 255, 255])).toBeLessThan(0.99);
  });

  it('AJAX example: width 400 and b64 → base64 text of a 400-wide PNG', async () => {
    const res = await ok(await gateway.post('/highcharts', { infile: STEEP_CHART, width: 400, b64: true }));
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(res.headers.get('content-disposition')).toBeNull();
    const img = decodePng(Buffer.from(await res.text(), 'base64'));
    expect([img.width, img.height]).toEqual([400, 400]);
  });
});

describe('POST /highcharts: body forms and fields', () => {
  it('form-urlencoded: options as JSON text, type as a MIME type, scale, noDownload', async () => {
    const form = new URLSearchParams({
      options: JSON.stringify(RED_COLUMNS),
      type: 'image/jpeg',
      width: '300',
      height: '200',
      scale: '2',
      noDownload: 'true',
    });
    const res = await ok(await fetch(`${gateway.url}/highcharts`, { method: 'POST', body: form }));
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('content-disposition')).toBeNull();
    const img = decodeJpeg(await bytes(res));
    expect([img.width, img.height]).toEqual([600, 400]);
    expect(share(img, RED, 40)).toBeGreaterThan(0.03);
  });

  it('multipart: infile as a file part, svg output named by the path', async () => {
    const form = new FormData();
    form.append('infile', new Blob([JSON.stringify(RED_COLUMNS)], { type: 'application/json' }), 'chart.json');
    form.append('type', 'svg');
    const res = await ok(await fetch(`${gateway.url}/highcharts/sales-q1`, { method: 'POST', body: form }));
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="sales-q1.svg"');
    const svg = await res.text();
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(svg).toContain('#ff0000');
  });

  it('pdf, and its base64 with b64', async () => {
    const res = await ok(await gateway.post('/highcharts/report', { infile: RED_COLUMNS, type: 'application/pdf' }));
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="report.pdf"');
    expect((await bytes(res)).subarray(0, 5).toString()).toBe('%PDF-');
    const b64 = await ok(await gateway.post('/highcharts', { infile: RED_COLUMNS, type: 'pdf', b64: 'true' }));
    expect(
      Buffer.from(await b64.text(), 'base64')
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });

  it('globalOptions and themeOptions sit under the chart’s own options', async () => {
    const res = await ok(
      await gateway.post('/highcharts', {
        infile: { series: [{ type: 'column', data: [3, 4] }], title: { text: 'Own title' } },
        themeOptions: JSON.stringify({ colors: ['#ff0000'], title: { text: 'Theme title' } }),
        globalOptions: { lang: { thousandsSep: ',' } },
        type: 'svg',
      }),
    );
    const svg = await res.text();
    expect(svg).toContain('#ff0000');
    expect(svg).toContain('Own title');
    expect(svg).not.toContain('Theme title');
  });

  it('an SVG in, as PNG and as PDF', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80"><rect width="120" height="80" fill="#ff0000"/></svg>';
    const res = await ok(await gateway.post('/highcharts', { svg, type: 'png', scale: 2 }));
    const img = decodePng(await bytes(res));
    expect([img.width, img.height]).toEqual([240, 160]);
    expect(near(img.pixel(120, 80), RED)).toBe(true);
    const pdf = await ok(await gateway.post('/highcharts', { svg, type: 'pdf' }));
    expect((await bytes(pdf)).subarray(0, 5).toString()).toBe('%PDF-');
  });
});

describe('POST /highcharts: Stock, Maps and Gantt', () => {
  it('stockChart draws candlesticks with its navigator', async () => {
    const data = Array.from({ length: 30 }, (_, i) => [Date.UTC(2024, 0, i + 1), 10 + i, 14 + i, 8 + i, 12 + i]);
    const res = await ok(
      await gateway.post('/highcharts', { constr: 'StockChart', type: 'svg', infile: { series: [{ type: 'candlestick', data }] } }),
    );
    const svg = await res.text();
    expect(svg).toContain('highcharts-candlestick-series');
    expect(svg).toContain('highcharts-navigator');
  });

  it('mapChart with an inline GeoJSON map colours its areas', async () => {
    const square = (x: number, name: string) => ({
      type: 'Feature',
      properties: { name, 'hc-key': name },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [x, 0],
            [x + 10, 0],
            [x + 10, 10],
            [x, 10],
            [x, 0],
          ],
        ],
      },
    });
    const map = { type: 'FeatureCollection', features: [square(0, 'a'), square(12, 'b')] };
    const res = await ok(
      await gateway.post('/highcharts', {
        constr: 'mapChart',
        width: 400,
        height: 300,
        infile: {
          chart: { map },
          colorAxis: { min: 0, max: 1, minColor: '#ff0000', maxColor: '#ff0000' },
          series: [
            {
              data: [
                ['a', 1],
                ['b', 1],
              ],
              joinBy: 'hc-key',
            },
          ],
        },
      }),
    );
    const img = decodePng(await bytes(res));
    expect([img.width, img.height]).toEqual([400, 300]);
    expect(share(img, RED, 20)).toBeGreaterThan(0.05);
  });

  it('ganttChart draws its tasks', async () => {
    const res = await ok(
      await gateway.post('/highcharts', {
        constr: 'ganttChart',
        type: 'svg',
        infile: {
          series: [
            {
              name: 'Project',
              data: [
                { name: 'Plan', start: Date.UTC(2024, 0, 1), end: Date.UTC(2024, 0, 5) },
                { name: 'Build', start: Date.UTC(2024, 0, 5), end: Date.UTC(2024, 0, 12) },
              ],
            },
          ],
        },
      }),
    );
    const svg = await res.text();
    expect(svg).toContain('highcharts-gantt-series');
    expect(svg).toContain('Build');
  });
});

describe('POST /highcharts: refusals', () => {
  it.each([
    [{}, /No correct chart data found/],
    [{ infile: '{not json' }, /infile must be a JSON object/],
    [{ infile: STEEP_CHART, type: 'gif' }, /type must be one of/],
    [{ infile: STEEP_CHART, constr: 'pieChart' }, /constr must be one of/],
    [{ infile: STEEP_CHART, width: 'wide' }, /width must be a number/],
    [{ infile: STEEP_CHART, width: 10_000 }, /width must be between/],
    [{ infile: STEEP_CHART, callback: 'function (chart) {}' }, /callback is not allowed/],
    [{ infile: STEEP_CHART, customCode: 'Highcharts.setOptions({})' }, /customCode is not allowed/],
    [{ infile: STEEP_CHART, resources: { js: 'alert(1)' } }, /resources is not allowed/],
    [{ infile: { series: [{ type: 'nope', data: [1] }] } }, /series\[0\]\.type must be one of/],
    [{ infile: { title: { text: 'javascript:alert(1)' } } }, /looks like code/],
  ])('%j → 400', async (body, message) => {
    const res = await gateway.post('/highcharts', body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(message);
  });

  it('an SVG that is not one → 422, as svg-to-img', async () => {
    const res = await gateway.post('/highcharts', { svg: '<html></html>' });
    expect(res.status).toBe(422);
  });

  it('a bad file name → 400', async () => {
    const res = await gateway.post('/highcharts/a%20b', { infile: STEEP_CHART });
    expect(res.status).toBe(400);
  });
});

describe('POST /highcharts: limits as chart-to-img', () => {
  it('anonymous callers take from the per-IP limit', async () => {
    const limited = await startGateway({ QUEUE_PREFIX: prefix, ANON_RATE_LIMIT_PER_MINUTE: '1' });
    try {
      expect((await limited.post('/highcharts', { infile: STEEP_CHART })).status).toBe(200);
      const second = await limited.post('/highcharts', { infile: STEEP_CHART });
      expect(second.status).toBe(429);
      expect(second.headers.get('retry-after')).toBeTruthy();
    } finally {
      await limited.close();
    }
  });
});
