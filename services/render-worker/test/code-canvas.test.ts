import { CodeDefaults, type CodeRenderPayload } from '@render/contracts';
import { parseAllowlist } from '@render/egress-policy';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EgressProxy, startEgressProxy } from '../src/egress/egress-proxy.ts';
import { type CodeRoute, renderCode, renderCodeVia } from '../src/renderers/code/code.renderer.ts';
import { needsDomLayout } from '../src/renderers/code/code-canvas.ts';
import { RenderError } from '../src/renderers/page/render-error.ts';
import type { RendererContext } from '../src/renderers/page/renderer.ts';
import { startTestPool, type TestPool } from './helpers/test-pool.ts';

let proxy: EgressProxy;
let browser: TestPool;
let ctx: RendererContext;

beforeAll(async () => {
  proxy = await startEgressProxy({ allowlist: parseAllowlist('') });
  browser = await startTestPool('code', proxy.url, 'code-canvas-test');
  ctx = {
    pool: async () => browser.cluster,
    timeoutMs: 20_000,
    imageFetch: { proxyUrl: proxy.url, maxBytes: 1_000_000, timeoutMs: 1_000 },
  };
});

afterAll(async () => {
  await browser?.close();
  await proxy?.close();
});

const job = (overrides: Partial<CodeRenderPayload>): CodeRenderPayload => ({
  code: 'const a = 1;',
  language: 'typescript',
  theme: 'monokai',
  format: 'png',
  width: CodeDefaults.width,
  fontSize: CodeDefaults.fontSize,
  padding: CodeDefaults.padding,
  borderRadius: CodeDefaults.borderRadius,
  showLineNumbers: true,
  quality: CodeDefaults.quality,
  scale: 1,
  ...overrides,
});

/** Mean and largest per-channel difference of two PNGs of the same size (RGBA). */
function difference(a: Buffer, b: Buffer) {
  const x = PNG.sync.read(a);
  const y = PNG.sync.read(b);
  expect([x.width, x.height]).toEqual([y.width, y.height]);
  let sum = 0;
  let max = 0;
  for (let i = 0; i < x.data.length; i++) {
    const d = Math.abs(x.data[i]! - y.data[i]!);
    sum += d;
    if (d > max) max = d;
  }
  return { mean: sum / x.data.length, max };
}

const both = async (payload: CodeRenderPayload) => {
  const [canvas, dom] = [await renderCodeVia('canvas', payload, ctx), await renderCodeVia('dom', payload, ctx)];
  return { canvas, dom };
};

const MIXED = [
  "import { createServer } from 'node:http';",
  '',
  '\tif (x) {\t// tabs to the next stop',
  '\t\treturn a => b != c;   // no ligatures: => and != stay two characters',
  '\t}',
  `// ${'wrapped at spaces, like pre-wrap, '.repeat(6)}`,
  `const long = "${'x'.repeat(230)}"; // broken anywhere, like overflow-wrap: anywhere`,
  '   ',
  'const 名前 = "日本語のテキスト、かなり長い行になるので折り返されるはずです。日本語のテキスト、かなり長い行になるので折り返されるはずです";',
  'export function total(order: Order): number { return 0 }',
].join('\n');

describe('code canvas route', () => {
  it('draws what the DOM route draws: same size, same wrapping, tabs, gutter and token styles', async () => {
    const cases: Array<Partial<CodeRenderPayload>> = [
      { code: MIXED },
      { code: MIXED, theme: 'github-light', showLineNumbers: false, padding: 8, borderRadius: 0 },
      { code: MIXED, fontSize: 20, width: 600, scale: 2 },
      { code: MIXED, height: 120 },
      // Large glyphs make any ligature, baseline or advance difference cover many pixels.
      { code: 'a => b != c === d -> e <= f >= g // www 0xFF', fontSize: 40, width: 1200, theme: 'dark-plus' },
    ];
    for (const overrides of cases) {
      const { canvas, dom } = await both(job(overrides));
      expect([canvas.width, canvas.height]).toEqual([dom.width, dom.height]);
      const diff = difference(canvas.bytes, dom.bytes);
      // Only the anti-aliasing of glyph edges differs (measured: mean 0.1–0.3 of 255).
      expect(diff.mean, JSON.stringify({ overrides: Object.keys(overrides), diff })).toBeLessThan(1);
    }
  });

  it('answers JPEG with the theme colour in the corners and PNG with transparent ones', async () => {
    const png = PNG.sync.read((await renderCodeVia('canvas', job({ borderRadius: 20 }), ctx)).bytes);
    expect(png.data[3]).toBe(0); // top-left pixel, outside the rounded window
    expect(png.data[(png.width * 20 + 20) * 4 + 3]).toBe(255);
    const jpeg = await renderCodeVia('canvas', job({ format: 'jpeg', borderRadius: 20 }), ctx);
    expect(jpeg.bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    const webp = await renderCodeVia('canvas', job({ format: 'webp' }), ctx);
    expect(webp.bytes.toString('ascii', 8, 12)).toBe('WEBP');
  });

  it('names the limit when wrapping makes auto height too tall, and the page serves the next job', async () => {
    // Spaces count for nothing in the up-front estimate (they may hang), so only the page finds this too tall.
    const code = Array.from({ length: 300 }, () => 'a '.repeat(150)).join('\n');
    const failure = await renderCodeVia('canvas', job({ code, language: 'text' }), ctx).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(RenderError);
    expect((failure as RenderError).message).toMatch(/would be [\d,]+ px tall .*auto height is limited to 16,000 px/);
    const next = await renderCodeVia('canvas', job({}), ctx);
    expect(next.height).toBe(2 * CodeDefaults.padding + 21);
  });

  it('sends right-to-left code to the DOM route, which lays bidi text out', async () => {
    expect(needsDomLayout('const s = "שלום";')).toBe(true);
    expect(needsDomLayout('// مرحبا')).toBe(true);
    expect(needsDomLayout('x = "\u202e"')).toBe(true);
    expect(needsDomLayout('const 名前 = "Привет, αβγ 🎉";')).toBe(false);
    const image = await renderCode(job({ code: 'const greeting = "שלום עולם"; // مرحبا' }), ctx);
    expect([image.width, image.height]).toEqual([800, 2 * CodeDefaults.padding + 21]);
  });

  it.each<CodeRoute>(['canvas', 'dom'])('draws colour emoji and other scripts with fallback fonts (%s)', async (route) => {
    const image = await renderCodeVia(route, job({ code: '"🎉"; // Привет, αβγ' }), ctx);
    const png = PNG.sync.read(image.bytes);
    // Some pixel is saturated yellow or orange (the emoji), which no theme colour of monokai's plain text is.
    let colourful = false;
    for (let i = 0; i < png.data.length && !colourful; i += 4) {
      const [r, g, b] = [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
      colourful = r > 200 && g > 120 && b < 80;
    }
    expect(colourful).toBe(true);
  });
});
