import type { ChartRenderPayload } from '@render/contracts';
import { PNG } from 'pngjs';
import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { buildPageConfig } from '../src/renderers/chart/chart-config.ts';
import { oneDataset } from './helpers/chart-data.ts';
import { useChartPage } from './helpers/chart-page.ts';

/**
 * D3 charts stay readable whatever the data (issue 14): thousands of categories, values around 1e9, long
 * category labels, lone points between gaps, negative bars. Drawn by the real chart page; the assertions
 * read the laid-out SVG (boxes as the page measures them) or the exported PNG.
 */

let page: Page;
useChartPage((opened) => {
  page = opened;
});

const WIDTH = 800;
const HEIGHT = 400;

const payload = (overrides: Partial<ChartRenderPayload>): ChartRenderPayload =>
  ({
    library: 'd3',
    width: WIDTH,
    height: HEIGHT,
    scale: 1,
    quality: 90,
    theme: 'light',
    format: 'svg',
    colors: ['#ff0000'],
    ...overrides,
  }) as ChartRenderPayload;

type Drawn = { ok: boolean; svg?: string; image?: string; message?: string };

/** Draws the chart in the page; it stays there (until the next one) for the measurements below. */
async function draw(overrides: Partial<ChartRenderPayload>): Promise<Drawn> {
  const result = await page.evaluate(
    (c) => (window as unknown as { __renderChart(c: unknown): Drawn }).__renderChart(c),
    buildPageConfig(payload(overrides)) as never,
  );
  expect(result).toMatchObject({ ok: true });
  return result;
}

interface Box {
  text: string;
  left: number;
  right: number;
  top: number;
  bottom: number;
  title: string | null;
}

/** The drawn chart's tick labels on one axis, with their boxes in image coordinates and tooltips. */
const tickLabels = (axis: 'x-axis' | 'y-axis') =>
  page.evaluate((cls) => {
    const svg = document.querySelector('#chart svg')!.getBoundingClientRect();
    return Array.from(document.querySelectorAll(`#chart .${cls} .tick`), (tick) => {
      const text = tick.querySelector('text')!;
      const r = text.getBoundingClientRect();
      return {
        text: text.textContent ?? '',
        left: r.left - svg.left,
        right: r.right - svg.left,
        top: r.top - svg.top,
        bottom: r.bottom - svg.top,
        title: tick.querySelector(':scope > title')?.textContent ?? null,
      };
    }).filter((b) => b.text !== '');
  }, axis);

/** Pairs of labels whose boxes overlap (or touch), side by side along x or stacked along y. */
function overlaps(boxes: Box[], along: 'x' | 'y'): string[] {
  const sorted = [...boxes].sort((a, b) => (along === 'x' ? a.left - b.left : a.top - b.top));
  const out: string[] = [];
  for (let i = 1; i < sorted.length; i++) {
    const [a, b] = [sorted[i - 1]!, sorted[i]!];
    if (along === 'x' ? a.right > b.left : a.bottom > b.top) out.push(`${a.text} / ${b.text}`);
  }
  return out;
}

/** Where the page put a datum of an axis (its tick's line), in image coordinates. */
const tickPosition = (axis: 'x-axis' | 'y-axis', datum: number) =>
  page.evaluate(
    (cls, d) => {
      const svg = document.querySelector('#chart svg')!.getBoundingClientRect();
      const tick = Array.from(document.querySelectorAll(`#chart .${cls} .tick`)).find(
        (t) => (t as unknown as { __data__: unknown }).__data__ === d,
      );
      if (!tick) return null;
      const r = tick.querySelector('line')!.getBoundingClientRect();
      return { x: (r.left + r.right) / 2 - svg.left, y: (r.top + r.bottom) / 2 - svg.top };
    },
    axis,
    datum,
  );

const decode = (dataUrl: string) => PNG.sync.read(Buffer.from(dataUrl.split(',')[1]!, 'base64'));

/** Clearly red pixels (the series colour) within `radius` of (x, y). */
function redNear(png: PNG, x: number, y: number, radius: number): number {
  let n = 0;
  for (let row = Math.max(0, Math.round(y - radius)); row <= Math.min(png.height - 1, Math.round(y + radius)); row++) {
    for (let col = Math.max(0, Math.round(x - radius)); col <= Math.min(png.width - 1, Math.round(x + radius)); col++) {
      const i = (row * png.width + col) * 4;
      if (png.data[i]! > 200 && png.data[i + 1]! < 80 && png.data[i + 2]! < 80) n += 1;
    }
  }
  return n;
}

const N = 10_000;
const manyPoints = {
  labels: Array.from({ length: N }, (_, i) => `2026-01-01 #${i}`),
  datasets: [{ label: 'Load', data: Array.from({ length: N }, (_, i) => Math.round(100 + 50 * Math.sin(i / 300) + (i % 7))) }],
};

describe('D3 charts stay readable', () => {
  it('thins 10,000 category labels to what fits the axis, none overlapping, and draws them quickly', async () => {
    await draw({ chartType: 'line', chartData: manyPoints });
    const labels = await tickLabels('x-axis');
    const narrowest = Math.min(...labels.map((b) => b.right - b.left));
    expect(labels.length).toBeGreaterThan(2);
    expect(labels.length).toBeLessThanOrEqual(Math.floor(WIDTH / narrowest));
    expect(overlaps(labels, 'x')).toEqual([]);
    for (const b of labels) expect([b.text, b.left >= 0 && b.right <= WIDTH]).toEqual([b.text, true]);
    // Thousands of points are not each marked with a circle.
    expect(await page.evaluate(() => document.querySelectorAll('#chart circle').length)).toBeLessThan(100);

    // A warm render of the PNG (drawn, painted and encoded in the page), printed; the bench holds the target.
    const times: number[] = await page.evaluate(
      (c) => {
        const w = window as unknown as { __renderChart(c: unknown): Drawn; __destroyChart(): void };
        const out: number[] = [];
        for (let i = 0; i < 5; i++) {
          w.__destroyChart();
          const t = performance.now();
          const r = w.__renderChart(c);
          out.push(performance.now() - t);
          if (!r.image) throw new Error('no image');
        }
        return out.sort((a, b) => a - b);
      },
      buildPageConfig(payload({ chartType: 'line', chartData: manyPoints, format: 'png' })) as never,
    );
    console.log(`D3 line, ${N} points, PNG in the page: median ${times[2]!.toFixed(1)} ms (${times.map((t) => t.toFixed(0)).join(', ')})`);
  });

  it('keeps many long category labels on a bar chart apart and inside the image', async () => {
    const labels = Array.from({ length: 40 }, (_, i) => `Region number ${i + 1} of the northern district`);
    await draw({ chartType: 'bar', chartData: { labels, datasets: [{ label: 'Sales', data: labels.map((_, i) => i + 1) }] } });
    const boxes = await tickLabels('x-axis');
    expect(boxes.length).toBeGreaterThan(2);
    expect(overlaps(boxes, 'x')).toEqual([]);
    for (const b of boxes) {
      expect([b.text, b.left >= 0 && b.right <= WIDTH]).toEqual([b.text, true]);
      // Cut ones end with an ellipsis and keep the whole label as a tooltip.
      if (b.text.endsWith('…')) expect(labels).toContain(b.title);
    }
  });

  it('writes values around 1e9 compactly on the value axis and on the bars', async () => {
    const chartData = { labels: ['North', 'South', 'East', 'West'], datasets: [{ label: 'Revenue', data: [1.2e9, 3.5e9, 8.1e8, 2.25e9] }] };
    await draw({ chartType: 'bar', chartData, chartOptions: { showValues: true } });
    const ticks = (await tickLabels('y-axis')).map((b) => b.text);
    expect(ticks).toContain('1B');
    for (const t of ticks) expect(t).toMatch(/^(0|\d+(\.\d+)?[kMB])$/);
    const values = await page.evaluate(() => Array.from(document.querySelectorAll('#chart .series > text'), (t) => t.textContent));
    expect(values).toEqual(['1.2B', '3.5B', '810M', '2.25B']);

    // Horizontal bars put them side by side along x: compact, they fit without overlapping.
    await draw({ chartType: 'bar', chartData, chartOptions: { horizontal: true }, width: 500 });
    const along = await tickLabels('x-axis');
    expect(along.map((b) => b.text)).toContain('1B');
    expect(overlaps(along, 'x')).toEqual([]);

    // Scatter x values too, and small values keep their plain format.
    await draw({
      chartType: 'scatter',
      chartData: oneDataset('S', [
        { x: 2e4, y: 0.5 },
        { x: 9e5, y: 2.5 },
      ]),
    });
    const x = (await tickLabels('x-axis')).map((b) => b.text);
    expect(x).toContain('200k');
    for (const t of x) expect(t).toMatch(/^(0|−?\d+(\.\d+)?[kM])$/);
    expect((await tickLabels('y-axis')).map((b) => b.text)).toContain('1.0');
  });

  it('cuts long category labels of horizontal bars with an ellipsis inside the image, the full text in a <title>', async () => {
    const long = 'Another extremely long label for the horizontal bars chart, much wider than a third of it';
    await draw({
      chartType: 'bar',
      chartData: { labels: ['Short', long, 'Mid-length label'], datasets: [{ label: 'x', data: [3, 7, 2] }] },
      chartOptions: { horizontal: true },
    });
    const boxes = await tickLabels('y-axis');
    expect(boxes.map((b) => b.text)).toEqual(['Short', expect.stringMatching(/^Another extremely .*…$/), 'Mid-length label']);
    for (const b of boxes) expect([b.text, b.left >= 0]).toEqual([b.text, true]);
    expect(boxes[1]!.title).toBe(long);
    expect(boxes[0]!.title).toBeNull();
    // The label ends just left of its tick: nothing is cut at the image's edge.
    const axisX = (await tickPosition('y-axis', 1))!.x;
    expect(boxes[1]!.right).toBeLessThan(axisX);
  });

  it('marks a lone point (both neighbours missing) in area and line charts', async () => {
    const cases: Array<[string, Partial<ChartRenderPayload>, number, number]> = [
      [
        'area',
        { chartType: 'area', chartData: { labels: ['a', 'b', 'c', 'd', 'e'], datasets: [{ data: [null, null, 5, null, null] }] } },
        2,
        5,
      ],
      [
        'area, stepped curve',
        {
          chartType: 'area',
          chartData: { labels: ['a', 'b', 'c', 'd', 'e'], datasets: [{ data: [1, null, 4, null, 2] }] },
          chartOptions: { curve: 'step' },
        },
        2,
        4,
      ],
      [
        'dense line (points not marked)',
        {
          chartType: 'line',
          chartData: {
            labels: Array.from({ length: 500 }, (_, i) => String(i)),
            datasets: [{ data: Array.from({ length: 500 }, (_, i) => (i === 250 ? 80 : i > 245 && i < 255 ? null : 20)) }],
          },
        },
        250,
        80,
      ],
    ];
    for (const [name, overrides, index, value] of cases) {
      const drawn = await draw({ ...overrides, format: 'png' });
      // Position from the axes: the category's tick where it has one, else interpolated between two.
      const at = await page.evaluate(
        (j, v) => {
          const svg = document.querySelector('#chart svg')!.getBoundingClientRect();
          const ticks = (cls: string) =>
            Array.from(document.querySelectorAll(`#chart .${cls} .tick`), (t) => {
              const r = t.querySelector('line')!.getBoundingClientRect();
              return { d: (t as unknown as { __data__: number }).__data__, x: r.left - svg.left, y: r.top - svg.top };
            });
          const along = (list: Array<{ d: number; p: number }>, d: number) => {
            const [a, b] = [list[0]!, list[list.length - 1]!];
            return a.p + ((b.p - a.p) * (d - a.d)) / (b.d - a.d);
          };
          return {
            x: along(
              ticks('x-axis').map((t) => ({ d: t.d, p: t.x })),
              j,
            ),
            y: along(
              ticks('y-axis').map((t) => ({ d: t.d, p: t.y })),
              v,
            ),
          };
        },
        index,
        value,
      );
      const png = decode(drawn.image!);
      expect({ name, red: redNear(png, at.x, at.y, 4) > 8 }).toEqual({ name, red: true });
    }
  });

  it('nices the value domain with room beyond the longest bar, and keeps 0 in it', async () => {
    const cases: Array<[string, Partial<ChartRenderPayload>]> = [
      ['vertical', { chartType: 'bar', chartData: { labels: ['a', 'b', 'c'], datasets: [{ data: [-8, 4, -2] }] } }],
      [
        'horizontal',
        { chartType: 'bar', chartData: { labels: ['a', 'b', 'c'], datasets: [{ data: [-8, 4, -2] }] }, chartOptions: { horizontal: true } },
      ],
      ['all positive', { chartType: 'bar', chartData: { labels: ['a', 'b'], datasets: [{ data: [20, 40] }] } }],
    ];
    for (const [name, overrides] of cases) {
      const drawn = await draw({ ...overrides, format: 'png' });
      const geometry = await page.evaluate(() => {
        const svg = document.querySelector('#chart svg')!.getBoundingClientRect();
        const box = (el: Element) => {
          const r = el.getBoundingClientRect();
          return { left: r.left - svg.left, right: r.right - svg.left, top: r.top - svg.top, bottom: r.bottom - svg.top };
        };
        const grid = Array.from(document.querySelectorAll('#chart .grid line'), box);
        return {
          bars: Array.from(document.querySelectorAll('#chart .series rect'), box),
          // The plot's edges: the outermost grid lines sit on the niced domain's ends.
          plot: {
            left: Math.min(...grid.map((g) => g.left)),
            right: Math.max(...grid.map((g) => g.right)),
            top: Math.min(...grid.map((g) => g.top)),
            bottom: Math.max(...grid.map((g) => g.bottom)),
          },
          ticks: Array.from(document.querySelectorAll('#chart .tick'), (t) => (t as unknown as { __data__: unknown }).__data__),
        };
      });
      const horizontal = name === 'horizontal';
      const { bars, plot } = geometry;
      expect(geometry.ticks).toContain(0);
      if (name === 'all positive') {
        // Bars start at 0, the bottom of the plot, and the tallest leaves room above it.
        expect(Math.max(...bars.map((b) => b.bottom))).toBeCloseTo(plot.bottom, 0);
        expect(Math.min(...bars.map((b) => b.top)) - plot.top).toBeGreaterThan(5);
        continue;
      }
      // The -8 bar ends clearly short of the plot's edge, in the SVG and in the image.
      const gap = horizontal ? Math.min(...bars.map((b) => b.left)) - plot.left : plot.bottom - Math.max(...bars.map((b) => b.bottom));
      expect({ name, gap: gap > 5 }).toEqual({ name, gap: true });
      const png = decode(drawn.image!);
      const longest = bars[0]!;
      const edge = horizontal
        ? { x: plot.left + 2, y: (longest.top + longest.bottom) / 2 }
        : { x: (longest.left + longest.right) / 2, y: plot.bottom - 2 };
      expect({ name, red: redNear(png, edge.x, edge.y, 1) }).toEqual({ name, red: 0 });
    }
  });
});
