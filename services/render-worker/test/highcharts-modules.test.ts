import { type ChartRenderPayload, HighchartsProductTypes, HighchartsTypes } from '@render/contracts';
import { PNG } from 'pngjs';
import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { buildPageConfig, DARK_BACKGROUND } from '../src/renderers/chart/chart-config.ts';
import { useChartPage } from './helpers/chart-page.ts';
import { highchartsSamples } from './highcharts-samples.ts';

/**
 * The Highcharts build's modules (every series type the contract accepts, 3D, styled mode), drawn by the
 * real chart page through `__renderChart` and looked at as images.
 */
let page: Page;
useChartPage((opened) => {
  page = opened;
});

type PageAnswer = { ok: boolean; image?: string; svg?: string; via?: string; message?: string };
const WIDTH = 500;
const HEIGHT = 300;

const payloadOf = (chartType: string, chartOptions: object, overrides: Partial<ChartRenderPayload> = {}) =>
  ({
    library: 'highcharts',
    chartType,
    chartData: null,
    chartOptions,
    format: 'png',
    width: WIDTH,
    height: HEIGHT,
    scale: 1,
    quality: 90,
    theme: 'light',
    ...overrides,
  }) as ChartRenderPayload;

const draw = (payload: ChartRenderPayload, exportVia?: 'paint' | 'image') =>
  page.evaluate((c) => (window as unknown as { __renderChart(c: unknown): Promise<PageAnswer> }).__renderChart(c), {
    ...buildPageConfig(payload),
    ...(exportVia ? { exportVia } : {}),
  } as never);

const decode = (dataUrl: string) => PNG.sync.read(Buffer.from(dataUrl.split(',')[1]!, 'base64'));

/** Pixels whose channels differ by more than `threshold` between two images of one size. */
function differing(a: PNG, b: PNG, threshold = 32): number {
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  let n = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    const d = Math.max(...[0, 1, 2, 3].map((k) => Math.abs(a.data[i + k]! - b.data[i + k]!)));
    if (d > threshold) n += 1;
  }
  return n;
}

/** Share of pixels that are (nearly) black. */
function blackShare(png: PNG): number {
  let n = 0;
  for (let i = 0; i < png.data.length; i += 4)
    if (png.data[i + 3]! > 200 && png.data[i]! + png.data[i + 1]! + png.data[i + 2]! < 60) n += 1;
  return n / (png.width * png.height);
}

/** What the page itself shows: a PDF job leaves the chart visible in the page, which is then captured. */
async function pageShot(payload: ChartRenderPayload): Promise<PNG> {
  await page.setViewport({ width: payload.width, height: payload.height, deviceScaleFactor: 1 });
  const result = await draw({ ...payload, format: 'pdf' });
  expect(result.ok).toBe(true);
  return PNG.sync.read(Buffer.from(await page.screenshot({ type: 'png' })));
}

/** An SVG answer drawn as an image in the page (as a browser showing the file would), as PNG. */
const svgAsPng = async (svg: string, background: string) =>
  decode(
    await page.evaluate(
      async (markup, fill) => {
        const image = new Image();
        image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(markup)}`;
        await image.decode();
        const canvas = document.createElement('canvas');
        canvas.width = image.naturalWidth;
        canvas.height = image.naturalHeight;
        const ctx = canvas.getContext('2d')!;
        ctx.fillStyle = fill;
        ctx.fillRect(0, 0, canvas.width, canvas.height);
        ctx.drawImage(image, 0, 0);
        return canvas.toDataURL('image/png');
      },
      svg,
      background,
    ),
  );

/** Paint and image routes of the raster export give the same pixels (as the painter's own test holds). */
async function expectRoutesAgree(name: string, payload: ChartRenderPayload) {
  const painted = await draw(payload, 'paint');
  const image = await draw(payload, 'image');
  expect([name, image.via]).toEqual([name, 'image']);
  const [a, b] = [painted.image!, image.image!].map(decode);
  let sum = 0;
  for (let i = 0; i < a!.data.length; i++) sum += Math.abs(a!.data[i]! - b!.data[i]!);
  expect({ name, mean: sum / a!.data.length < 0.1, far: differing(a!, b!, 64) < (a!.width * a!.height) / 2000 }).toEqual({
    name,
    mean: true,
    far: true,
  });
  return painted;
}

describe('Highcharts modules in the chart page', () => {
  it('accepts exactly the series types the page knows, and has a minimal sample for each', async () => {
    const known = await page.evaluate(() =>
      Object.keys((window as unknown as { Highcharts: { seriesTypes: object } }).Highcharts.seriesTypes),
    );
    // chart-to-img's types, and those the Stock, Maps and Gantt modules add for POST /highcharts.
    expect(known.sort()).toEqual([...HighchartsTypes, ...HighchartsProductTypes].sort());
    expect(Object.keys(highchartsSamples).sort()).toEqual([...HighchartsTypes].sort());
  });

  it('draws every accepted series type: PNG of the right size with the series on it, and SVG', async () => {
    await page.setViewport({ width: WIDTH, height: HEIGHT, deviceScaleFactor: 1 });
    const failures: string[] = [];
    for (const type of HighchartsTypes) {
      const options = highchartsSamples[type] as { series: object[] };
      const result = await draw(payloadOf(type, options));
      if (!result.ok || !result.image) {
        failures.push(`${type}: ${result.message ?? 'no image'}`);
        continue;
      }
      const png = decode(result.image);
      // The same chart with its series hidden: what differs is what the series drew.
      const hidden = await draw(payloadOf(type, { ...options, series: options.series.map((s) => ({ ...s, visible: false })) }));
      const drawn = hidden.image ? differing(png, decode(hidden.image)) : png.width * png.height;
      if (png.width !== WIDTH || png.height !== HEIGHT || drawn < 100)
        failures.push(`${type}: ${png.width}×${png.height}, ${drawn} px drawn`);

      const svg = await draw(payloadOf(type, options, { format: 'svg' }));
      if (!svg.ok || !/^<svg[^>]* width="500" height="300"/.test(svg.svg ?? '') || !svg.svg!.includes('highcharts-series'))
        failures.push(`${type}: SVG ${svg.message ?? svg.svg?.slice(0, 80)}`);
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('paints every accepted type as the image route draws it, or leaves it to that route', async () => {
    await page.setViewport({ width: WIDTH, height: HEIGHT, deviceScaleFactor: 1 });
    const routes: Record<string, string[]> = { paint: [], image: [] };
    for (const type of HighchartsTypes) {
      const payload = payloadOf(type, highchartsSamples[type]);
      const chosen = await draw(payload);
      routes[chosen.via!]!.push(type);
      if (chosen.via === 'paint') await expectRoutesAgree(type, payload);
    }
    // Among them 3D faces, a settled force layout and organization boxes (their labels made SVG text).
    expect(routes.paint).toEqual(expect.arrayContaining(['cylinder', 'scatter3d', 'networkgraph', 'organization']));
  }, 120_000);

  it('computes force-directed layouts (networkgraph, packedbubble) in one go: the answer is the settled chart', async () => {
    for (const type of ['networkgraph', 'packedbubble'] as const) {
      const series = (highchartsSamples[type] as { series: object[] }).series.map((s) => ({
        ...s,
        layoutAlgorithm: { enableSimulation: true },
      }));
      const answered = await draw(payloadOf(type, { series }, { format: 'svg' }));
      // Frames go by: a simulation still running would move the nodes of the live chart on from the answer.
      await new Promise((r) => setTimeout(r, 300));
      const live = await page.evaluate(() => new XMLSerializer().serializeToString(document.querySelector('#chart svg')!));
      expect({ type, settled: live === answered.svg }).toEqual({ type, settled: true });
    }
  });

  it('draws options3d charts in 3D (column, pie, cylinder), and paint and image routes agree on them', async () => {
    await page.setViewport({ width: WIDTH, height: HEIGHT, deviceScaleFactor: 1 });
    const options3d = { enabled: true, alpha: 15, beta: 15, depth: 50 };
    const data = [1, 3, 2, 4];
    const cases: Array<[string, string, object]> = [
      ['column', 'column', { series: [{ data }] }],
      ['pie', 'pie', { plotOptions: { pie: { depth: 35 } }, series: [{ data }] }],
      ['cylinder', 'column', { series: [{ data }] }],
    ];
    for (const [name, flatType, options] of cases) {
      const flat = await draw(payloadOf(flatType, options));
      const threeD = payloadOf(name, { ...options, chart: { options3d: name === 'pie' ? { ...options3d, alpha: 45 } : options3d } });
      const solid = await expectRoutesAgree(`3D ${name}`, threeD);
      const [a, b] = [solid.image!, flat.image!].map(decode);
      // Far from the flat chart, and far from blank.
      expect({ name, unlikeFlat: differing(a!, b!) > 2000 }).toEqual({ name, unlikeFlat: true });
      const blank = decode((await draw(payloadOf('line', { title: { text: '' }, series: [] }))).image!);
      expect({ name, unlikeBlank: differing(a!, blank) > 5000 }).toEqual({ name, unlikeBlank: true });
    }
  });

  it('styles styled-mode charts with Highcharts’ CSS: PNG, SVG and the page agree, light and dark', async () => {
    const options = {
      chart: { styledMode: true },
      title: { text: 'Styled mode' },
      xAxis: { categories: ['Jan', 'Feb', 'Mar', 'Apr'] },
      series: [{ data: [1, 3, 2, 4] }, { data: [2, 1, 3, 2] }],
    };
    for (const theme of ['light', 'dark'] as const) {
      const payload = payloadOf('column', options, { theme });
      await page.setViewport({ width: WIDTH, height: HEIGHT, deviceScaleFactor: 1 });
      const exported = await expectRoutesAgree(`styled ${theme}`, payload);
      const png = decode(exported.image!);
      // Unstyled, every shape would be black (SVG's default fill).
      expect({ theme, black: blackShare(png) < 0.05 }).toEqual({ theme, black: true });
      // Highcharts' own styled rendering: the live chart in the page, with the style sheet applied.
      const shot = await pageShot(payload);
      expect({ theme, unlike: differing(png, shot, 96) / (WIDTH * HEIGHT) < 0.001 }).toEqual({ theme, unlike: true });
      // The background follows the theme (Highcharts' own light or dark scheme).
      const corner = [...png.data.subarray(4 * (10 * WIDTH + 250), 4 * (10 * WIDTH + 250) + 3)];
      expect({ theme, corner: corner.every((v) => (theme === 'light' ? v > 240 : v < 40)) }).toEqual({ theme, corner: true });

      // SVG output carries the style sheet, so the file alone shows the same chart.
      const svg = await draw({ ...payload, format: 'svg' });
      expect(svg.svg).toContain('.highcharts-background');
      // (Drawn over the background the PNG export puts behind the chart: its edge pixel is half covered.)
      const fromSvg = await svgAsPng(svg.svg!, theme === 'dark' ? DARK_BACKGROUND : '#ffffff');
      expect({ theme, unlike: differing(png, fromSvg, 96) / (WIDTH * HEIGHT) < 0.002 }).toEqual({ theme, unlike: true });
    }
    // The sheet applies to styled charts only: an ordinary chart keeps its own (attribute) colours after one.
    const plain = payloadOf('column', { series: [{ data: [1, 3, 2, 4], color: '#ff0000' }] });
    const after = await draw(plain);
    const svg = await draw({ ...plain, format: 'svg' });
    expect(svg.svg).not.toContain('.highcharts-background');
    let red = 0;
    const png = decode(after.image!);
    for (let i = 0; i < png.data.length; i += 4) if (png.data[i]! > 240 && png.data[i + 1]! < 20 && png.data[i + 2]! < 20) red += 1;
    expect(red).toBeGreaterThan(2000);
  });
});
