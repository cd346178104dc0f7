import { type Decoded, decodePng, near } from '@render/test-stack/images';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayWithWorker, type TestGateway } from './helpers/stack.ts';

// Issue 14 through the whole path (gateway checks → queue → worker's chart page): configs from Chart.js's
// documentation that used to answer 400 (data forms) or 422 (time scales) now come back as images.
let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startGatewayWithWorker('chartjs-e2e', { RENDER_QUEUES: 'chart' });
});
afterAll(async () => gateway?.close());

async function png(body: Record<string, unknown>): Promise<Decoded> {
  const res = await gateway.post('/api/chart-to-img/convert', { library: 'chartjs', width: 400, height: 250, ...body });
  if (res.status !== 200) throw new Error(`${res.status}: ${await res.text()}`);
  return decodePng(Buffer.from(await res.arrayBuffer()));
}

function share(img: Decoded, rgb: number[]): number {
  let hits = 0;
  for (let y = 0; y < img.height; y += 2) for (let x = 0; x < img.width; x += 2) if (near(img.pixel(x, y), rgb, 12)) hits += 1;
  return hits / ((img.height / 2) * (img.width / 2));
}
const RED = [255, 0, 0, 255];
const GREEN = [0, 200, 0, 255];

describe('Chart.js configs from its documentation', () => {
  it('object-map data and bubbles without r are drawn', async () => {
    const map = await png({
      chartType: 'bar',
      colors: ['#ff0000'],
      chartData: { datasets: [{ label: 'A', data: { January: 10, February: 20 } }] },
    });
    expect(share(map, RED)).toBeGreaterThan(0.05);
    const bubbles = await png({
      chartType: 'bubble',
      colors: ['#ff0000'],
      chartData: {
        datasets: [
          {
            label: 'A',
            radius: 20,
            data: [
              { x: 1, y: 2 },
              { x: 2, y: 3 },
            ],
          },
        ],
      },
    });
    expect(share(bubbles, RED)).toBeGreaterThan(0.01);
  });

  it('a time axis in French with an annotation box and datalabels', async () => {
    const img = await png({
      chartType: 'line',
      chartData: {
        datasets: [
          {
            label: 'A',
            data: [
              { x: '2024-01-10', y: 3 },
              { x: '2024-03-05', y: 7 },
              { x: '2024-05-20', y: 5 },
            ],
          },
        ],
      },
      chartOptions: {
        scales: { x: { type: 'time', time: { unit: 'month', displayFormats: { month: 'MMMM' } }, adapters: { date: { locale: 'fr' } } } },
        plugins: {
          datalabels: { align: 'top' },
          annotation: { annotations: { zone: { type: 'box', xMin: '2024-02-01', xMax: '2024-03-01', backgroundColor: 'rgb(0, 200, 0)' } } },
        },
      },
    });
    expect(share(img, GREEN)).toBeGreaterThan(0.03);
  });
});
