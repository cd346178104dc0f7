import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway, uniquePrefix } from './helpers/stack.ts';

// No worker serves this prefix: every request here must be refused before anything is queued.
let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startGateway({ QUEUE_PREFIX: uniquePrefix('chart-validation'), RENDER_DEADLINE_MS: '1000' });
});
afterAll(() => gateway?.close());

const post = (body: unknown) => gateway.post('/api/chart-to-img/convert', body);

async function expect400(body: unknown, message: string | RegExp) {
  const res = await post(body);
  const json = await res.json();
  expect(res.status, JSON.stringify(json)).toBe(400);
  expect(json).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
  if (typeof message === 'string') expect(json.message).toBe(message);
  else expect(json.message).toMatch(message);
}

const data = { labels: ['a', 'b'], datasets: [{ label: 'x', data: [1, 2] }] };
const many = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('chart input messages (docs/spec/validation.md)', () => {
  it.each([
    ['{"labels": [', 'chartjs'],
    ['not json', 'd3'],
    ['   ', 'highcharts'],
  ])('chartData %j that is not JSON → "Please enter valid JSON chart data"', async (chartData, library) => {
    await expect400({ library, chartData }, 'Please enter valid JSON chart data');
  });

  it.each([
    ['chartjs', 'bar', { labels: ['a'] }, /^Invalid chart data format: chartData\.datasets must be a non-empty array/],
    ['chartjs', 'bar', [1, 2, 3], /^Invalid chart data format: chartData must be an object/],
    ['chartjs', 'bar', undefined, /^Invalid chart data format: chartData is required for chartjs/],
    ['chartjs', 'bubble', { datasets: [{ data: [[{ x: 1 }, 2]] }] }, /^Invalid chart data format: chartData\.datasets\[0\]\.data\[0\]/],
    ['chartjs', 'bar', { datasets: [{ data: [true] }] }, /^Invalid chart data format: chartData\.datasets\[0\]\.data\[0\]/],
    ['chartjs', 'bar', { datasets: [{ data: [1], type: 'sankey' }] }, /^Invalid chart data format: chartData\.datasets\[0\]\.type/],
    ['d3', 'bar', { datasets: [{ data: [1] }] }, /^Invalid chart data format: chartData\.labels must be a non-empty array/],
    ['d3', 'line', { labels: ['a'], datasets: [{ data: ['1'] }] }, /^Invalid chart data format: .*must be a number or null/],
    ['d3', 'pie', { labels: ['a'], datasets: [{ data: [-1] }] }, /^Invalid chart data format: .*must not be negative/],
    ['d3', 'scatter', { datasets: [{ data: [1, 2] }] }, /^Invalid chart data format: .*\{ x, y \} numbers/],
    ['d3', 'bar', { labels: ['a'], datasets: [{ data: [1, 2] }] }, /more values than there are labels/],
    ['highcharts', 'line', 42, /^Invalid chart data format: chartData must be an array of series/],
    ['highcharts', 'line', { series: { data: [1] } }, /^Invalid chart data format: chartData\.series must be an array/],
    ['highcharts', 'line', [{ type: 'nonsense', data: [1] }], /^Invalid chart data format: chartData\[0\]\.type must be one of: line/],
  ])('%s %s with chartData %j → "Invalid chart data format…"', async (library, chartType, chartData, message) => {
    await expect400({ library, chartType, chartData }, message);
  });

  it.each([
    ['chartjs', '{oops'],
    ['chartjs', '[1, 2]'],
    ['highcharts', 'null-ish text'],
    ['highcharts', 5],
    ['highcharts', [{ chart: {} }]],
    ['d3', '"a string"'],
  ])('%s chartOptions %j → "Invalid chart options format"', async (library, chartOptions) => {
    await expect400({ library, chartData: library === 'highcharts' ? [] : data, chartOptions }, 'Invalid chart options format');
  });

  it('D3 options with the wrong types are refused with the field named', async () => {
    await expect400(
      { library: 'd3', chartData: data, chartOptions: { stacked: 'yes' } },
      /^Invalid chart options format: chartOptions\.stacked/,
    );
  });

  it.each([
    [
      'chartjs',
      'donut',
      /^Unsupported chart type "donut" for chartjs\. Supported types: bar, line, pie, doughnut, radar, polarArea, scatter, bubble$/,
    ],
    ['d3', 'radar', /^Unsupported chart type "radar" for d3\. Supported types: bar, line, area, pie, donut, scatter$/],
    ['highcharts', 'doughnut', /^Unsupported chart type "doughnut" for highcharts\. Supported types: line, spline, area, .*column/],
  ])('%s with chartType %s → lists the supported types', async (library, chartType, message) => {
    await expect400({ library, chartType, chartData: library === 'highcharts' ? [] : data }, message);
  });

  it('an unknown Highcharts chart.type in chartOptions is refused too', async () => {
    await expect400(
      { library: 'highcharts', chartOptions: { chart: { type: 'spaceship' } } },
      /^Unsupported chart type "spaceship" for highcharts/,
    );
  });

  it('svg is for D3 and Highcharts only', async () => {
    await expect400({ library: 'chartjs', chartData: data, format: 'svg' }, /SVG output is only available for D3 and Highcharts/);
  });

  it.each(['chartjs', 'd3'])('pdf is for Highcharts only (%s → 400)', async (library) => {
    await expect400({ library, chartData: data, format: 'pdf' }, /PDF output is only available for Highcharts/);
  });

  it.each([
    [
      { library: 'chartjs', chartData: data, chartOptions: { onClick: 'function () { alert(1) }' } },
      /^Invalid chart options format: chartOptions\.onClick looks like code/,
    ],
    [
      { library: 'highcharts', chartOptions: { tooltip: { formatter: 'function(){return 1}' } } },
      /chartOptions\.tooltip\.formatter looks like code/,
    ],
    [{ library: 'highcharts', chartOptions: { plotOptions: { series: { x: 'async (p) => p' } } } }, /looks like code/],
    [
      { library: 'd3', chartData: { labels: ['<SCRIPT >x</script>'], datasets: [{ data: [1] }] } },
      /^Invalid chart data format: chartData\.labels\[0\] looks like code/,
    ],
    [{ library: 'highcharts', chartData: [{ name: 'x', url: ' JavaScript:alert(1)' }] }, /chartData\[0\]\.url looks like code/],
    [
      { library: 'highcharts', chartData: '{"__proto__": {"polluted": true}}' },
      /^Invalid chart data format: the key "__proto__" is not allowed/,
    ],
  ])('code-like strings are refused: %j', async (body, message) => {
    await expect400(body, message);
  });

  it('labels that merely mention arrows or functions are fine (reach the queue)', async () => {
    const res = await post({
      library: 'chartjs',
      chartData: { labels: ['2023 => 2024', 'functional'], datasets: [{ label: 'a', data: [1, 2] }] },
    });
    expect(res.status).toBe(504); // accepted: nothing serves this prefix, so it ends at the 1 s deadline
  });

  it.each([
    [
      { library: 'chartjs', chartData: { labels: ['a'], datasets: [{ data: many(10_001) }] } },
      /^Too many data points: chartData\.datasets\[0\]\.data has 10001 items; the limit is 10000 per series$/,
    ],
    [
      { library: 'chartjs', chartData: { labels: ['a'], datasets: many(51).map(() => ({ data: [1] })) } },
      'Too many series: at most 50 datasets are allowed',
    ],
    [{ library: 'highcharts', chartData: many(51).map(() => ({ data: [1] })) }, 'Too many series: at most 50 series are allowed'],
    [
      { library: 'highcharts', chartOptions: { series: [{ data: many(10_001) }] } },
      /^Too many data points: chartOptions\.series\[0\]\.data/,
    ],
  ])('oversized configs get a clear 400', async (body, message) => {
    await expect400(body, message);
  });

  it.each([
    [
      { library: 'chartjs', chartData: data, colors: ['#ff0000', 'url(http://x/)'] },
      'colors must be an array of CSS colours (colors[1] is not one)',
    ],
    [{ library: 'chartjs', chartData: data, colors: 'red' }, 'colors must be an array of CSS colours'],
    [{ library: 'chartjs', chartData: data, backgroundColor: 'red;background:url(x)' }, 'backgroundColor must be a CSS colour'],
    [{ library: 'highcharts', theme: 'neon' }, 'theme must be one of: light, dark'],
    [{ chartData: data }, 'library is required (chartjs, d3 or highcharts)'],
    [{ library: 'vega', chartData: data }, 'library must be one of: chartjs, d3, highcharts'],
    [{ library: 'chartjs', chartData: data, format: 'gif' }, 'format must be one of: png, jpeg, webp, avif, svg, pdf'],
    [{ library: 'chartjs', chartData: data, width: 4001 }, 'width must be between 50 and 4000'],
    [
      { library: 'chartjs', chartData: data, width: 4000, height: 4000, scale: 2 },
      'width × height × scale² must not exceed 16000000 pixels',
    ],
  ])('other fields: %j', async (body, message) => {
    await expect400(body, message);
  });

  it('defaults and valid inputs pass validation (the request reaches the queue)', async () => {
    for (const body of [
      { library: 'highcharts' },
      { library: 'highcharts', format: 'pdf', chartData: [{ data: [1] }], chartOptions: '{"title": {"text": "x"}}' },
      {
        library: 'd3',
        chartType: 'scatter',
        chartData: { datasets: [{ data: [{ x: 1, y: 2, r: 3 }] }] },
        format: 'svg',
        colors: ['rgb(1, 2, 3)', 'teal'],
      },
      { library: 'chartjs', chartData: data, chartOptions: null, backgroundColor: 'transparent', animations: true, responsiveWidth: true },
    ]) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(504);
    }
  });

  it('is documented in the OpenAPI document with every output type', async () => {
    const doc = await (await fetch(`${gateway.url}/api/openapi.json`)).json();
    const op = doc.paths['/api/chart-to-img/convert'].post;
    expect(Object.keys(op.responses['200'].content)).toEqual(
      expect.arrayContaining(['application/json', 'image/png', 'image/jpeg', 'image/svg+xml', 'application/pdf']),
    );
    expect(JSON.stringify(op.requestBody)).toContain('{ labels, datasets: [{ label, data: number[] }] }');
  });
});
