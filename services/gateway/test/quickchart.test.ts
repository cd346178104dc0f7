import { colourShare, type Decoded, decodeJpeg, decodePng, near, webpSize } from '@render/test-stack/images';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayWithWorker, type TestGateway } from './helpers/stack.ts';

// Issue 29 §1 through the real stack: QuickChart's documented requests, as `<img>` tags and clients send them,
// answered by the gateway → chart queue → the worker's QuickChart page (Chart.js 2.9.4 or 4) in Chromium.
let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startGatewayWithWorker('quickchart', { RENDER_QUEUES: 'chart' });
}, 120_000);
afterAll(async () => gateway?.close());

const get = (query: Record<string, string>) => fetch(`${gateway.url}/chart?${new URLSearchParams(query)}`);

async function pngOf(res: Response): Promise<Decoded> {
  if (res.status !== 200) throw new Error(`${res.status}: ${await res.text()}`);
  expect(res.headers.get('content-type')).toBe('image/png');
  return decodePng(Buffer.from(await res.arrayBuffer()));
}

/** The share of sampled pixels near a colour (alpha included). */
const share = (img: Decoded, rgba: number[], tolerance = 16) => colourShare(img, rgba, 3, tolerance);

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
const HELLO_WORLD =
  "{type:'bar',data:{labels:['January','February','March','April','May'],datasets:[{label:'Dogs',data:[50,60,70,180,190]},{label:'Cats',data:[100,200,300,400,500]}]}}";

describe('GET /chart and POST /chart (QuickChart parameters)', () => {
  it("QuickChart's hello-world: PNG of 500×300 at devicePixelRatio 2, its default colours", async () => {
    const res = await get({ c: HELLO_WORLD, bkg: 'white' });
    expect(res.headers.get('server-timing')).toMatch(/^queue;dur=\d+, render;dur=\d+(\.\d)?$/);
    const img = await pngOf(res);
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
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
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
    const bad: Record<string, string>[] = [
      { c: HELLO_WORLD, v: '7' },
      { c: HELLO_WORLD, f: 'gif' },
      { c: HELLO_WORLD, w: '5000' },
      { c: HELLO_WORLD, bkg: 'not a colour' },
      { c: '!!!', encoding: 'base64' },
    ];
    for (const query of bad) {
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

/** A picture of the chart at a known point: QuickChart's examples with colours chosen to be found. */
const pixelAt = (img: Decoded, fx: number, fy: number) => img.pixel(Math.floor(img.width * fx), Math.floor(img.height * fy));
const BLUE = [0, 0, 255, 255];
const GREEN = [0, 128, 0, 255];

describe("QuickChart's documented examples (gallery, Chart.js 2 and 4)", () => {
  const render = async (chart: string, extra: Record<string, string> = {}) =>
    pngOf(await get({ c: chart, w: '400', h: '240', devicePixelRatio: '1', bkg: 'white', ...extra }));

  it.each([
    ['bar', "{type:'bar',data:{labels:['Q1','Q2','Q3','Q4'],datasets:[{label:'Users',data:[50,60,70,180],backgroundColor:'red'}]}}"],
    ['horizontalBar', "{type:'horizontalBar',data:{labels:['Q1','Q2'],datasets:[{label:'Users',data:[50,60],backgroundColor:'red'}]}}"],
    [
      'line',
      "{type:'line',data:{labels:[1,2,3,4,5],datasets:[{label:'A',data:[1,5,2,8,3],borderColor:'red',backgroundColor:'red',fill:true}]}}",
    ],
    ['pie', "{type:'pie',data:{labels:['a','b','c'],datasets:[{data:[60,20,20],backgroundColor:['red','blue','green']}]}}"],
    ['doughnut', "{type:'doughnut',data:{labels:['a','b'],datasets:[{data:[80,20],backgroundColor:['red','blue']}]}}"],
    ['donut (QuickChart spelling)', "{type:'donut',data:{datasets:[{data:[80,20],backgroundColor:['red','blue']}]}}"],
    ['polarArea', "{type:'polarArea',data:{labels:['a','b','c'],datasets:[{data:[10,9,8],backgroundColor:['red','red','red']}]}}"],
    [
      'radar',
      "{type:'radar',data:{labels:['a','b','c','d','e'],datasets:[{label:'A',data:[9,9,9,9,9],backgroundColor:'red'}]},options:{scale:{ticks:{min:0,max:10}}}}",
    ],
    ['scatter', "{type:'scatter',data:{datasets:[{label:'A',pointRadius:12,backgroundColor:'red',data:[{x:1,y:2},{x:2,y:4},{x:3,y:1}]}]}}"],
    ['bubble', "{type:'bubble',data:{datasets:[{label:'A',backgroundColor:'red',data:[{x:1,y:2,r:25},{x:2,y:3,r:30}]}]}}"],
  ])('Chart.js 2 %s: right size, not blank, its colour drawn', async (_type, chart) => {
    const img = await render(chart);
    expect([img.width, img.height]).toEqual([400, 240]);
    expect(near(img.pixel(1, 1), WHITE)).toBe(true);
    expect(share(img, RED, 40)).toBeGreaterThan(0.01);
  });

  it('Chart.js 4 (v=4 and v=3): v4 options (indexAxis, scales.x) are read', async () => {
    const chart =
      "{type:'bar',data:{labels:['a','b'],datasets:[{label:'A',data:[10,10],backgroundColor:'red'}]},options:{indexAxis:'y',scales:{x:{min:0,max:10}},plugins:{legend:{display:false}}}}";
    for (const v of ['4', '3']) {
      const img = await render(chart, { v });
      // Horizontal bars at the maximum: the row across the middle is red far to the right.
      expect(near(pixelAt(img, 0.9, 0.25), RED, 40)).toBe(true);
    }
    // The same config in Chart.js 2 knows no indexAxis: vertical bars, the top right is white.
    const v2 = await render(chart);
    expect(near(pixelAt(v2, 0.97, 0.05), WHITE)).toBe(true);
  });

  it('sparkline: one line, no axes, edge to edge', async () => {
    const img = await render("{type:'sparkline',data:{datasets:[{data:[140,60,274,370,199],borderColor:'blue',borderWidth:3}]}}", {
      w: '200',
      h: '60',
    });
    expect([img.width, img.height]).toEqual([200, 60]);
    expect(share(img, BLUE, 60)).toBeGreaterThan(0.01);
    // No axis labels: the left edge holds only the line and white.
    let dark = 0;
    for (let y = 0; y < img.height; y++) if (near(img.pixel(2, y), [102, 102, 102, 255], 40)) dark += 1;
    expect(dark).toBe(0);
  });

  it('progress bar: the value filled from the left, the rest grey', async () => {
    const img = await render("{type:'progressBar',data:{datasets:[{data:[50],backgroundColor:'green'}]}}", { w: '300', h: '40' });
    expect(near(pixelAt(img, 0.2, 0.5), GREEN, 40)).toBe(true);
    expect(near(pixelAt(img, 0.85, 0.5), GREEN, 40)).toBe(false);
    expect(near(pixelAt(img, 0.85, 0.5), WHITE, 4)).toBe(false);
  });

  it('plugins: datalabels, annotation (v2 and v4), outlabels and doughnut centre label (v2)', async () => {
    const annotation2 =
      "{type:'line',data:{labels:[1,2,3],datasets:[{data:[1,2,3],fill:false,borderColor:'blue'}]},options:{annotation:{annotations:[{type:'line',mode:'horizontal',scaleID:'y-axis-0',value:2.5,borderColor:'red',borderWidth:6}]}}}";
    expect(share(await render(annotation2), RED, 40)).toBeGreaterThan(0.005);
    const annotation4 =
      "{type:'line',data:{labels:[1,2,3],datasets:[{data:[1,2,3],borderColor:'blue'}]},options:{plugins:{annotation:{annotations:{l:{type:'line',yMin:2.5,yMax:2.5,borderColor:'red',borderWidth:6}}}}}}";
    expect(share(await render(annotation4, { v: '4' }), RED, 40)).toBeGreaterThan(0.005);
    const labels =
      "{type:'bar',data:{labels:['a'],datasets:[{data:[10],backgroundColor:'white'}]},options:{plugins:{datalabels:{display:true,color:'red',font:{size:40,weight:'bold'}}}}}";
    expect(share(await render(labels), RED, 60)).toBeGreaterThan(0.002);
    expect(share(await render(labels, { v: '4' }), RED, 60)).toBeGreaterThan(0.002);
    const centre =
      "{type:'doughnut',data:{datasets:[{data:[1,1],backgroundColor:['#eee','#eee']}]},options:{plugins:{datalabels:{display:false},doughnutlabel:{labels:[{text:'88',font:{size:60},color:'red'}]}}}}";
    const centreImg = await render(centre);
    expect(share(centreImg, RED, 60)).toBeGreaterThan(0.002);
    const outlabels =
      "{type:'outlabeledPie',data:{labels:['ONE','TWO'],datasets:[{data:[1,2],backgroundColor:['#eee','#ddd']}]},options:{plugins:{legend:false,outlabels:{text:'%l',color:'red',backgroundColor:'red'}}}}";
    expect(share(await render(outlabels), RED, 60)).toBeGreaterThan(0.002);
  });
});

describe('Issue 29 §3: charts as their documentation writes them', () => {
  it('moment tokens in a Chart.js 4 time scale, on /chart?v=4 and on chart-to-img', async () => {
    const options = {
      scales: {
        x: {
          type: 'time',
          time: { parser: 'YYYY-MM-DD', unit: 'month', tooltipFormat: 'MMM D, YYYY', displayFormats: { month: 'MMM YYYY' } },
        },
      },
    };
    const data = {
      datasets: [
        {
          label: 'A',
          data: [
            { x: '2024-01-05', y: 1 },
            { x: '2024-03-09', y: 3 },
          ],
          borderColor: 'red',
        },
      ],
    };
    const res = await get({ c: JSON.stringify({ type: 'line', data, options }), v: '4' });
    expect(res.status, await res.clone().text()).toBe(200);
    const convert = await gateway.post('/api/chart-to-img/convert', {
      library: 'chartjs',
      chartType: 'line',
      chartData: data,
      chartOptions: options,
    });
    expect(convert.status, await convert.clone().text()).toBe(200);
  });

  it('string values Chart.js parses ("12.5") or skips ("", "n/a") are accepted on chart-to-img', async () => {
    const res = await gateway.post('/api/chart-to-img/convert', {
      library: 'chartjs',
      chartType: 'bar',
      chartData: { labels: ['a', 'b', 'c'], datasets: [{ label: 'A', data: ['12.5', '', 'n/a'] }] },
    });
    expect(res.status, await res.clone().text()).toBe(200);
  });
});
