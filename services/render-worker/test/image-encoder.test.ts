import type { ChartRenderPayload, CodeRenderPayload } from '@render/contracts';
import type { HtmlRenderPayload, SvgRenderPayload } from '@render/queue';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderChart } from '../src/renderers/chart/chart.renderer.ts';
import { type CodeRoute, renderCodeVia } from '../src/renderers/code/code.renderer.ts';
import { renderHtml } from '../src/renderers/html/html.renderer.ts';
import { AVIF_MAX_SIDE, finishImage, optimizePng, planEncoding } from '../src/renderers/page/image-encoder.ts';
import { RenderError } from '../src/renderers/page/render-error.ts';
import type { RendererContext } from '../src/renderers/page/renderer.ts';
import { renderSvg } from '../src/renderers/svg/svg.renderer.ts';
import { startRendererContext } from './helpers/test-pool.ts';

/**
 * The one image encoder every renderer goes through (renderers/image-encoder.ts): AVIF from a lossless
 * capture, WebP for charts, and lossless PNG optimisation, each through real Chromium pages.
 */

let ctx: RendererContext;
let closeContext: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ ctx, close: closeContext } = await startRendererContext('image-encoder-test'));
}, 60_000);

afterAll(async () => {
  await closeContext?.();
});

const isAvif = (bytes: Buffer) => bytes.toString('ascii', 4, 12) === 'ftypavif';
const isWebp = (bytes: Buffer) => bytes.toString('ascii', 0, 4) === 'RIFF' && bytes.toString('ascii', 8, 12) === 'WEBP';
const rgba = async (bytes: Buffer) => sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });

/** Mean absolute difference per channel between two decoded images of the same size (0–255). */
async function meanDifference(a: Buffer, b: Buffer): Promise<number> {
  const [x, y] = await Promise.all([rgba(a), rgba(b)]);
  expect([x.info.width, x.info.height]).toEqual([y.info.width, y.info.height]);
  let sum = 0;
  for (let i = 0; i < x.data.length; i++) sum += Math.abs(x.data[i]! - y.data[i]!);
  return sum / x.data.length;
}

const CARD =
  '<div style="margin:0;padding:16px;font:16px sans-serif;background:#eef2ff;height:118px">' +
  '<h1 style="margin:0;color:#4338ca;font-size:22px">Quarterly report</h1><p style="color:#1e293b">Revenue up 12% on the year.</p>' +
  '<div style="width:120px;height:20px;background:linear-gradient(90deg,#f43f5e,#22c55e)"></div></div>';
const html = (format: HtmlRenderPayload['format'], extra: Partial<HtmlRenderPayload> = {}): HtmlRenderPayload => ({
  html: CARD,
  format,
  width: 240,
  height: 150,
  quality: 80,
  scale: 1,
  ...extra,
});

describe('planEncoding (decided before a page is taken)', () => {
  it('captures what Chromium encodes and PNG for AVIF, with the quality only where the browser makes the final image', () => {
    expect(planEncoding('avif', { quality: 55 })).toMatchObject({
      capture: 'png',
      captureQuality: undefined,
      quality: 55,
      mimeType: 'image/avif',
    });
    expect(planEncoding('webp', { quality: 55 })).toMatchObject({ capture: 'webp', captureQuality: 55, mimeType: 'image/webp' });
    expect(planEncoding('jpeg', { quality: 55 })).toMatchObject({ capture: 'jpeg', captureQuality: 55 });
    expect(planEncoding('png', { quality: 55, optimize: true })).toMatchObject({
      capture: 'png',
      captureQuality: undefined,
      optimize: true,
    });
    // optimize is a PNG option: other formats ignore it.
    expect(planEncoding('jpeg', { quality: 55, optimize: true }).optimize).toBe(false);
  });

  it('answers a clear content error for an AVIF taller than the format allows, before encoding', async () => {
    const tall = await sharp({ create: { width: 20, height: AVIF_MAX_SIDE + 1, channels: 4, background: '#fff' } })
      .png()
      .toBuffer();
    const failure = await finishImage(tall, planEncoding('avif', { quality: 80 })).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(RenderError);
    expect((failure as RenderError).retryable).toBe(false);
    expect((failure as RenderError).message).toBe(
      `Failed to generate image: AVIF images are at most 16,384 pixels on a side and this one is 20×${AVIF_MAX_SIDE + 1}; use png or jpeg, or capture less`,
    );
  });
});

describe('AVIF for every renderer', () => {
  it('HTML: an AVIF (ftypavif) of the PNG render’s size and pixels, smaller than it', async () => {
    const [png, avif] = await Promise.all([renderHtml(html('png'), ctx), renderHtml(html('avif'), ctx)]);
    expect(avif).toMatchObject({ format: 'avif', mimeType: 'image/avif', width: 240, height: 150 });
    expect(isAvif(avif.bytes)).toBe(true);
    const meta = await sharp(avif.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['heif', 240, 150]);
    expect(await meanDifference(avif.bytes, png.bytes)).toBeLessThan(3);
    expect(avif.bytes.length).toBeLessThan(png.bytes.length);
  });

  it('HTML: quality still means something (lower quality, smaller file) and scale applies', async () => {
    const [low, high, scaled] = await Promise.all([
      renderHtml(html('avif', { quality: 20 }), ctx),
      renderHtml(html('avif', { quality: 95 }), ctx),
      renderHtml(html('avif', { scale: 2 }), ctx),
    ]);
    expect(low.bytes.length).toBeLessThan(high.bytes.length);
    const meta = await sharp(scaled.bytes).metadata();
    expect([meta.width, meta.height, scaled.width, scaled.height]).toEqual([480, 300, 480, 300]);
  });

  it('SVG: a transparent background stays transparent in AVIF', async () => {
    const payload: SvgRenderPayload = {
      svg: '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><rect width="50" height="50" fill="#2563eb"/></svg>',
      format: 'avif',
      width: 100,
      height: 100,
      quality: 80,
      transparent: true,
    };
    const image = await renderSvg(payload, ctx);
    expect(isAvif(image.bytes)).toBe(true);
    const { data, info } = await rgba(image.bytes);
    const at = (x: number, y: number) => [...data.subarray((y * info.width + x) * 4, (y * info.width + x) * 4 + 4)];
    expect(at(80, 80)[3]).toBe(0);
    const [r, g, b, a] = at(20, 20);
    expect(a).toBe(255);
    expect(Math.abs(r! - 0x25) + Math.abs(g! - 0x63) + Math.abs(b! - 0xeb)).toBeLessThan(12);
  });

  const chart = (library: ChartRenderPayload['library'], format: ChartRenderPayload['format']): ChartRenderPayload => ({
    library,
    chartType: library === 'highcharts' ? 'column' : 'bar',
    chartData:
      library === 'highcharts'
        ? [{ name: 'Sales', data: [3, 7, 4] }]
        : { labels: ['a', 'b', 'c'], datasets: [{ label: 'Sales', data: [3, 7, 4] }] },
    chartOptions: {},
    format,
    width: 240,
    height: 160,
    quality: 90,
    scale: 1,
    theme: 'light',
  });

  it.each(['chartjs', 'd3', 'highcharts'] as const)('chart (%s): AVIF and WebP with the PNG’s pixels', async (library) => {
    const [png, avif, webp] = await Promise.all(['png', 'avif', 'webp'].map((f) => renderChart(chart(library, f as 'png'), ctx)));
    expect(avif).toMatchObject({ format: 'avif', mimeType: 'image/avif', width: 240, height: 160 });
    expect(isAvif(avif!.bytes)).toBe(true);
    expect(webp).toMatchObject({ format: 'webp', mimeType: 'image/webp', width: 240, height: 160 });
    expect(isWebp(webp!.bytes)).toBe(true);
    expect(await meanDifference(avif!.bytes, png!.bytes)).toBeLessThan(4);
    expect(await meanDifference(webp!.bytes, png!.bytes)).toBeLessThan(4);
  });

  const code = (format: CodeRenderPayload['format']): CodeRenderPayload => ({
    code: 'const answer = 42;\nconsole.log(answer);',
    language: 'javascript',
    theme: 'monokai',
    format,
    width: 300,
    quality: 90,
    fontSize: 14,
    padding: 20,
    borderRadius: 8,
    showLineNumbers: true,
    scale: 1,
  });

  it.each(['canvas', 'dom'] as CodeRoute[])('code (%s route): AVIF with transparent rounded corners', async (route) => {
    const [png, avif] = await Promise.all([renderCodeVia(route, code('png'), ctx), renderCodeVia(route, code('avif'), ctx)]);
    expect(avif).toMatchObject({ format: 'avif', mimeType: 'image/avif', width: png.width, height: png.height });
    expect(isAvif(avif.bytes)).toBe(true);
    // The top-left corner, outside the radius: transparent (AVIF codes alpha lossily too, hence "nearly").
    expect((await rgba(png.bytes)).data[3]).toBe(0);
    expect((await rgba(avif.bytes)).data[3]).toBeLessThan(8);
    expect(await meanDifference(avif.bytes, png.bytes)).toBeLessThan(4);
  });
});

describe('optimize: lossless PNG optimisation', () => {
  it('keeps every decoded pixel of a typical render and makes the file smaller', async () => {
    const [plain, optimized] = await Promise.all([renderHtml(html('png'), ctx), renderHtml(html('png', { optimize: true }), ctx)]);
    expect(optimized.format).toBe('png');
    const [a, b] = await Promise.all([rgba(plain.bytes), rgba(optimized.bytes)]);
    expect(b.data.equals(a.data)).toBe(true);
    expect(optimized.bytes.length).toBeLessThan(plain.bytes.length);
  });

  it('uses a palette only when it is exact: a few-colour image shrinks a lot, a many-colour one keeps its pixels', async () => {
    // Few colours: flat shapes, no anti-aliasing.
    const flat = await sharp({ create: { width: 200, height: 100, channels: 4, background: { r: 255, g: 255, b: 255, alpha: 1 } } })
      .composite([{ input: { create: { width: 80, height: 40, channels: 4, background: '#ff0000' } }, left: 10, top: 10 }])
      .png({ compressionLevel: 1 })
      .toBuffer();
    const smallFlat = await optimizePng(flat);
    expect((await sharp(smallFlat).metadata()).isPalette).toBe(true);
    expect((await rgba(smallFlat)).data.equals((await rgba(flat)).data)).toBe(true);
    expect(smallFlat.length).toBeLessThan(flat.length);

    // Thousands of colours (a smooth gradient with alpha): a palette would be lossy, so none is used.
    const raw = Buffer.alloc(256 * 64 * 4);
    for (let y = 0; y < 64; y++) for (let x = 0; x < 256; x++) raw.set([x, y * 4, 255 - x, 128 + (x % 128)], (y * 256 + x) * 4);
    const gradient = await sharp(raw, { raw: { width: 256, height: 64, channels: 4 } })
      .png()
      .toBuffer();
    const smallGradient = await optimizePng(gradient);
    expect((await rgba(smallGradient)).data.equals(raw)).toBe(true);
    expect(smallGradient.length).toBeLessThanOrEqual(gradient.length);
  });
});
