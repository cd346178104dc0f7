import type { RenderWorkerHandle } from '@render/render-worker';
import { colourShare, type Decoded, decodeJpeg, decodePng, near, PNG_SIGNATURE } from '@render/test-stack/images';
import { xmlProblem } from '@render/test-stack/strict-xml';
import { closeInOrder } from '@render/test-stack/teardown';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCanary, type TestServer } from './helpers/servers.ts';
import { startGateway, startWorker, type TestGateway, uniquePrefix } from './helpers/stack.ts';

let gateway: TestGateway;
let worker: RenderWorkerHandle;
let canary: TestServer;

beforeAll(async () => {
  canary = await startCanary();
  const prefix = uniquePrefix('chart');
  // The canary is allow-listed on purpose: if any chart config could run code, its request would get
  // through the egress proxy, so "the canary saw nothing" proves the config did not execute.
  worker = await startWorker({ QUEUE_PREFIX: prefix, RENDER_QUEUES: 'chart,html', RENDER_EGRESS_ALLOWLIST: `127.0.0.1:${canary.port}` });
  gateway = await startGateway({ QUEUE_PREFIX: prefix });
});

afterAll(async () => {
  await closeInOrder(gateway, worker, canary);
});

const URL_PATH = '/api/chart-to-img/convert';
const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());
const RED = [255, 0, 0, 255];
const GREEN = [0, 255, 0, 255];

async function png(body: Record<string, unknown>): Promise<Decoded> {
  const res = await gateway.post(URL_PATH, body);
  if (res.status !== 200) throw new Error(`${res.status}: ${await res.text()}`);
  expect(res.headers.get('content-type')).toBe('image/png');
  const buf = await bytes(res);
  expect(buf.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  return decodePng(buf);
}

const share = (img: Decoded, rgb: number[], tolerance = 12) => colourShare(img, rgb, 4, tolerance);

const labels = ['Q1', 'Q2', 'Q3', 'Q4'];
const twoSeries = {
  labels,
  datasets: [
    { label: 'Revenue', data: [12, 19, 7, 15] },
    { label: 'Costs', data: [8, 11, 9, 6] },
  ],
};
const singleBar = { labels: ['Only'], datasets: [{ label: 'One', data: [10] }] };

describe('Chart.js', () => {
  it.each(['bar', 'line', 'pie', 'doughnut', 'radar', 'polarArea'])('renders %s at the default 800×400', async (chartType) => {
    const img = await png({ library: 'chartjs', chartType, chartData: twoSeries });
    expect([img.width, img.height]).toEqual([800, 400]);
    expect(near(img.pixel(2, 2), [255, 255, 255, 255])).toBe(true);
    expect(share(img, [255, 255, 255, 255])).toBeLessThan(0.97); // something was drawn
  });

  it('renders scatter and bubble from {x, y(, r)} points', async () => {
    await png({
      library: 'chartjs',
      chartType: 'scatter',
      chartData: {
        datasets: [
          {
            label: 'S',
            data: [
              { x: 1, y: 2 },
              { x: 3, y: 1 },
            ],
          },
        ],
      },
    });
    await png({ library: 'chartjs', chartType: 'bubble', chartData: { datasets: [{ label: 'B', data: [{ x: 1, y: 2, r: 20 }] }] } });
  });

  it('paints with the colors palette: the middle of a single bar is red', async () => {
    const img = await png({ library: 'chartjs', chartType: 'bar', chartData: singleBar, colors: ['#ff0000'], width: 400, height: 300 });
    expect(near(img.pixel(220, 200), RED)).toBe(true);
    expect(share(img, RED)).toBeGreaterThan(0.3);
  });

  it('applies scale (device pixels) and accepts chartData/chartOptions as JSON text', async () => {
    const img = await png({
      library: 'chartjs',
      chartType: 'line',
      chartData: JSON.stringify(twoSeries),
      chartOptions: JSON.stringify({ plugins: { legend: { display: false } } }),
      width: 300,
      height: 200,
      scale: 2,
    });
    expect([img.width, img.height]).toEqual([600, 400]);
  });

  it('responsiveWidth fills the requested size too', async () => {
    for (const library of ['chartjs', 'highcharts']) {
      const img = await png({
        library,
        chartType: library === 'chartjs' ? 'bar' : 'column',
        chartData: library === 'chartjs' ? singleBar : [{ data: [10] }],
        colors: ['#ff0000'],
        responsiveWidth: true,
        width: 400,
        height: 200,
      });
      expect([img.width, img.height]).toEqual([400, 200]);
      expect(share(img, RED)).toBeGreaterThan(0.05);
    }
  });

  it('uses backgroundColor behind the chart', async () => {
    const img = await png({
      library: 'chartjs',
      chartType: 'bar',
      chartData: twoSeries,
      backgroundColor: '#00ff00',
      width: 300,
      height: 200,
    });
    expect(near(img.pixel(1, 1), GREEN)).toBe(true);
    expect(near(img.pixel(298, 198), GREEN)).toBe(true);
  });

  it('renders JPEG with the requested size', async () => {
    const res = await gateway.post(URL_PATH, {
      library: 'chartjs',
      chartType: 'pie',
      chartData: { labels: ['all'], datasets: [{ data: [1] }] },
      colors: ['#ff0000'],
      format: 'jpeg',
      width: 320,
      height: 240,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    const img = decodeJpeg(await bytes(res));
    expect([img.width, img.height]).toEqual([320, 240]);
    expect(near(img.pixel(160, 140), RED, 30)).toBe(true);
  });

  it('answers JSON with base64 when outputType is json', async () => {
    const res = await gateway.post(URL_PATH, {
      library: 'chartjs',
      chartData: twoSeries,
      outputType: 'json',
      width: 200,
      height: 100,
      scale: 1.5,
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ success: true, data: { format: 'png', mimeType: 'image/png', width: 300, height: 150 } });
    const image = Buffer.from(body.data.image, 'base64');
    expect(body.data.size).toBe(image.length);
    expect([decodePng(image).width, decodePng(image).height]).toEqual([300, 150]);
  });
});

describe('D3', () => {
  const scatter = {
    datasets: [
      {
        label: 'A',
        data: [
          { x: 1, y: 2 },
          { x: 2, y: 5 },
          { x: 4, y: 3, r: 8 },
        ],
      },
      { label: 'B', data: [{ x: -1, y: 1 }] },
    ],
  };
  const dataFor = (type: string) =>
    type === 'scatter' ? scatter : type === 'pie' || type === 'donut' ? { labels, datasets: [twoSeries.datasets[0]!] } : twoSeries;

  it.each(['bar', 'line', 'area', 'pie', 'donut', 'scatter'])('renders the documented type %s', async (chartType) => {
    const img = await png({
      library: 'd3',
      chartType,
      chartData: dataFor(chartType),
      chartOptions: { title: 'T', legend: true },
      width: 400,
      height: 300,
    });
    expect([img.width, img.height]).toEqual([400, 300]);
    expect(share(img, [255, 255, 255, 255])).toBeLessThan(0.97);
  });

  it('paints with the palette and background, at scale', async () => {
    const img = await png({
      library: 'd3',
      chartType: 'bar',
      chartData: singleBar,
      colors: ['#ff0000'],
      backgroundColor: '#00ff00',
      chartOptions: { grid: false },
      width: 400,
      height: 300,
      scale: 2,
    });
    expect([img.width, img.height]).toEqual([800, 600]);
    expect(near(img.pixel(420, 400), RED)).toBe(true);
    expect(near(img.pixel(1, 1), GREEN)).toBe(true);
  });

  it('renders stacked, horizontal and curved variants', async () => {
    await png({
      library: 'd3',
      chartType: 'bar',
      chartData: twoSeries,
      chartOptions: { stacked: true, horizontal: true, showValues: true },
    });
    await png({ library: 'd3', chartType: 'area', chartData: twoSeries, chartOptions: { stacked: true, curve: 'monotone' } });
  });

  it('returns well-formed SVG markup containing the series, with the background', async () => {
    const res = await gateway.post(URL_PATH, {
      library: 'd3',
      chartType: 'line',
      chartData: twoSeries,
      format: 'svg',
      backgroundColor: '#00ff00',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    const svg = await res.text();
    expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg).toContain('width="800"');
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(svg).toContain('Revenue');
    expect(svg).toContain('Costs');
    expect(svg).toContain('fill="#00ff00"');
    expect(svg.match(/class="series"/g)?.length).toBe(2);
  });

  it('answers SVG that parses when labels hold characters XML forbids (they are dropped)', async () => {
    for (const library of ['d3', 'highcharts']) {
      const res = await gateway.post(URL_PATH, {
        library,
        chartType: 'bar',
        format: 'svg',
        chartData: { labels: ['Q\u000B1', 'Q\uFFFE2'], datasets: [{ label: 'Rev\u0001enue', data: [3, 4] }] },
      });
      expect(res.status, library).toBe(200);
      const svg = await bytes(res);
      expect(xmlProblem(svg), library).toBeUndefined();
      if (library === 'd3') expect(svg.toString('utf8')).toContain('>Q1<');
    }
  });
});

describe('Highcharts', () => {
  const series = twoSeries.datasets.map((d) => ({ name: d.label, data: d.data }));

  it.each(['column', 'line', 'pie', 'area', 'heatmap'])('renders %s', async (chartType) => {
    const chartData =
      chartType === 'heatmap'
        ? [
            {
              name: 'H',
              data: [
                [0, 0, 1],
                [0, 1, 5],
                [1, 0, 3],
                [1, 1, 9],
              ],
            },
          ]
        : series;
    const img = await png({
      library: 'highcharts',
      chartType,
      chartData,
      chartOptions: { title: { text: 'HC' }, xAxis: { categories: labels }, ...(chartType === 'heatmap' ? { colorAxis: { min: 0 } } : {}) },
      width: 500,
      height: 300,
    });
    expect([img.width, img.height]).toEqual([500, 300]);
    expect(share(img, [255, 255, 255, 255])).toBeLessThan(0.99); // something was drawn
  });

  it.each([
    [
      'venn',
      {
        series: [
          {
            data: [
              { sets: ['A'], value: 2 },
              { sets: ['B'], value: 2 },
              { sets: ['A', 'B'], value: 1 },
            ],
          },
        ],
      },
    ],
    ['cylinder', { chart: { options3d: { enabled: true, alpha: 15, beta: 15, depth: 50 } }, series: [{ data: [1, 3, 2, 4] }] }],
    [
      'networkgraph',
      {
        series: [
          {
            keys: ['from', 'to'],
            marker: { radius: 12 },
            data: [
              ['A', 'B'],
              ['B', 'C'],
              ['C', 'A'],
            ],
          },
        ],
      },
    ],
  ])('renders the module type %s (its series drawn in the palette colours)', async (chartType, chartOptions) => {
    const img = await png({ library: 'highcharts', chartType, chartOptions, colors: ['#ff0000'], width: 500, height: 300 });
    expect([img.width, img.height]).toEqual([500, 300]);
    expect(share(img, RED, 40)).toBeGreaterThan(0.001);
  });

  it('refuses a series type the build does not draw (Gantt, Stock), listing the accepted ones', async () => {
    for (const chartType of ['gantt', 'candlestick']) {
      const res = await gateway.post(URL_PATH, { library: 'highcharts', chartType, chartData: [] });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { message: string };
      expect(body.message).toMatch(new RegExp(`^Unsupported chart type "${chartType}" for highcharts\\. Supported types: line, .*venn`));
    }
  });

  it('takes the type from chartOptions.chart.type and the series from chartOptions, at scale', async () => {
    const img = await png({
      library: 'highcharts',
      chartOptions: { chart: { type: 'bar' }, series: [{ name: 'Only', data: [10] }], title: { text: null }, legend: { enabled: false } },
      colors: ['#ff0000'],
      width: 300,
      height: 200,
      scale: 2,
    });
    expect([img.width, img.height]).toEqual([600, 400]);
    expect(share(img, RED)).toBeGreaterThan(0.2);
  });

  it('dark theme gives a dark background; backgroundColor still wins when given', async () => {
    const dark = await png({ library: 'highcharts', chartType: 'line', chartData: series, theme: 'dark', width: 300, height: 200 });
    expect(near(dark.pixel(1, 1), [0x1f, 0x1f, 0x23, 255])).toBe(true);
    const green = await png({
      library: 'highcharts',
      chartType: 'line',
      chartData: series,
      theme: 'dark',
      backgroundColor: '#00ff00',
      width: 300,
      height: 200,
    });
    expect(near(green.pixel(1, 1), GREEN)).toBe(true);
  });

  it('returns well-formed SVG markup containing the series', async () => {
    const res = await gateway.post(URL_PATH, {
      library: 'highcharts',
      chartType: 'column',
      chartData: { series },
      chartOptions: { title: { text: 'Quarterly' }, xAxis: { categories: labels } },
      format: 'svg',
      width: 600,
      height: 350,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    const svg = await res.text();
    expect(svg.startsWith('<svg')).toBe(true);
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(svg).toContain('highcharts-series-1');
    expect(svg).toContain('Revenue');
    expect(svg).toContain('Quarterly');
  });

  it('returns a PDF of the chart size', async () => {
    const res = await gateway.post(URL_PATH, {
      library: 'highcharts',
      chartType: 'pie',
      chartData: series.slice(0, 1),
      format: 'pdf',
      width: 800,
      height: 400,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const pdf = await bytes(res);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // 800×400 CSS px = 600×300 pt, on exactly one page.
    expect(pdf.toString('latin1')).toMatch(/\/MediaBox \[0 0 600(\.\d+)? 300(\.\d+)?\]/);
    expect(pdf.toString('latin1').match(/\/Type \/Page\b/g)).toHaveLength(1);
  });
});

describe('warm pages', () => {
  it('renders concurrent jobs of every library without cross-talk', async () => {
    const jobs = [
      { library: 'chartjs', colour: [255, 0, 0] },
      { library: 'd3', colour: [0, 0, 255] },
      { library: 'highcharts', colour: [0, 160, 0] },
      { library: 'chartjs', colour: [255, 0, 255] },
      { library: 'd3', colour: [0, 200, 200] },
      { library: 'highcharts', colour: [200, 120, 0] },
    ];
    const hex = (rgb: number[]) => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
    const images = await Promise.all(
      jobs.map(({ library, colour }) =>
        png({
          library,
          chartType: library === 'highcharts' ? 'column' : 'bar',
          chartData: library === 'highcharts' ? [{ name: 'x', data: [10] }] : singleBar,
          colors: [hex(colour)],
          width: 300,
          height: 200,
        }),
      ),
    );
    images.forEach((img, i) => {
      expect(share(img, [...jobs[i]!.colour, 255])).toBeGreaterThan(0.05);
      for (const other of jobs.filter((_, j) => j !== i)) expect(share(img, [...other.colour, 255], 6)).toBeLessThan(0.01);
    });
  });
});

describe('failures', () => {
  it('a config the library rejects is a clear 422, and the next job renders normally', async () => {
    // Chart.js throws on a scale type nobody registered.
    const res = await gateway.post(URL_PATH, {
      library: 'chartjs',
      chartData: singleBar,
      chartOptions: { scales: { x: { type: 'nosuchscale' } } },
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      success: false,
      code: 'RENDER_FAILED',
      message: expect.stringMatching(/^Failed to generate image: the chart could not be drawn/),
    });
    for (let i = 0; i < 3; i++) {
      const img = await png({ library: 'chartjs', chartType: 'bar', chartData: singleBar, colors: ['#ff0000'], width: 400, height: 300 });
      expect(share(img, RED)).toBeGreaterThan(0.3);
    }
  });
});

describe('chart configs cannot run code', () => {
  const settle = () => new Promise((r) => setTimeout(r, 300));

  it('the canary is reachable from pages at all (control)', async () => {
    const res = await gateway.post('/api/html-to-img/convert', {
      html: `<img src="${canary.origin}/control.png">`,
      width: 100,
      height: 100,
    });
    expect(res.status).toBe(200);
    await settle();
    expect(canary.requests).toContain('GET /control.png');
    canary.requests.length = 0;
  });

  it('function-like strings are refused before anything is queued', async () => {
    const fn = `function(){fetch('${canary.origin}/fn')}`;
    for (const body of [
      { library: 'highcharts', chartOptions: { tooltip: { formatter: fn } } },
      { library: 'chartjs', chartData: { labels: ['a'], datasets: [{ label: `() => fetch('${canary.origin}/arrow')`, data: [1] }] } },
      { library: 'd3', chartData: { labels: [`<script>fetch('${canary.origin}/s')</script>`], datasets: [{ data: [1] }] } },
      { library: 'highcharts', chartOptions: { title: { text: `<a href="javascript:fetch('${canary.origin}/js')">x</a>` } } },
    ]) {
      const res = await gateway.post(URL_PATH, body);
      expect(res.status).toBe(400);
      expect((await res.json()).message).toMatch(/looks like code/);
    }
  });

  it('markup with event handlers in labels renders as text and runs nothing', async () => {
    const markup = `<img src="${canary.origin}/img.png" onerror="fetch('${canary.origin}/onerror')"><svg onload="fetch('${canary.origin}/onload')"></svg>`;
    const bodies = [
      {
        library: 'chartjs',
        chartData: { labels: [markup], datasets: [{ label: markup, data: [1] }] },
        chartOptions: { plugins: { title: { display: true, text: markup } } },
      },
      {
        library: 'd3',
        chartData: { labels: [markup], datasets: [{ label: markup, data: [1] }] },
        chartOptions: { title: markup },
        format: 'svg',
      },
      {
        library: 'highcharts',
        chartData: [{ name: markup, data: [1], dataLabels: { enabled: true, useHTML: true, format: markup } }],
        chartOptions: {
          title: { text: markup, useHTML: true },
          xAxis: { categories: [markup], labels: { useHTML: true } },
          legend: { useHTML: true },
        },
      },
      { library: 'highcharts', chartData: [{ name: 'x', data: [1] }], chartOptions: { title: { text: markup } }, format: 'svg' },
    ];
    for (const body of bodies) {
      const res = await gateway.post(URL_PATH, { width: 300, height: 200, ...body });
      expect(res.status).toBe(200);
      // Text content may mention the markup (escaped); no element may carry it.
      if (body.format === 'svg') expect(await res.text()).not.toMatch(/<img\b|<[^>]*\son[a-z]+=/i);
      else await res.arrayBuffer();
    }
    await settle();
    expect(canary.requests).toEqual([]);
  });
});
