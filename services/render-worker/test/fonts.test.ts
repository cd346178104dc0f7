import { existsSync } from 'node:fs';
import { type ChartRenderPayload, CodeDefaults, type CodeRenderPayload } from '@render/contracts';
import type { HtmlRenderPayload, SvgRenderPayload } from '@render/queue';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderChart } from '../src/renderers/chart/chart.renderer.ts';
import { type CodeRoute, renderCodeVia } from '../src/renderers/code/code.renderer.ts';
import { needsDomLayout } from '../src/renderers/code/code-canvas.ts';
import { CODE_FONT_STACK } from '../src/renderers/code/code-font.ts';
import { renderHtml } from '../src/renderers/html/html.renderer.ts';
import type { RendererContext } from '../src/renderers/page/renderer.ts';
import { renderSvg } from '../src/renderers/svg/svg.renderer.ts';
import { startRendererContext, startTestPool, type TestPool } from './helpers/test-pool.ts';

/**
 * The world's scripts render with real glyphs, and emoji in colour, in every renderer (see README, "Fonts").
 *
 * A character no installed font has is drawn as the primary font's .notdef box ("tofu"), whatever the
 * character. So a text drawn at the same size and place as the same number of U+10FFFD (a code point no
 * font has) gives identical pixels exactly when every one of its characters is a box.
 */
const TOFU = '\u{10FFFD}';
const FULL_CHROMIUM = '/usr/bin/chromium';
const tofuOf = (text: string, tofu = TOFU) => Array.from(text, (ch) => (/\s/u.test(ch) ? ch : tofu)).join('');
/**
 * For code, an unassigned code point of the Basic Multilingual Plane: code's fallback face covers the BMP by
 * unicode-range (code-font.ts), and a box is drawn from the first face whose range holds the character, so
 * the reference must take the same path as the scripts' characters.
 */
const CODE_TOFU = '\u0378';

const SCRIPTS: ReadonlyArray<readonly [script: string, sample: string]> = [
  ['Latin', 'Größe façade'],
  ['Cyrillic', 'Привет мир'],
  ['Greek', 'Καλημέρα κόσμε'],
  ['Chinese (simplified)', '简体中文汉语'],
  ['Chinese (traditional)', '繁體中文漢語'],
  ['Japanese', 'ひらがなカタカナ日本語'],
  ['Korean', '한국어 텍스트'],
  ['Arabic', 'مرحبا بالعالم'],
  ['Hebrew', 'שלום עולם'],
  ['Devanagari (Hindi)', 'नमस्ते दुनिया'],
  ['Bengali', 'বাংলা লিপি'],
  ['Tamil', 'தமிழ் எழுத்து'],
  ['Thai', 'ภาษาไทย'],
];

/** Font stacks as pages write them: none (the default font), the generic families, and a common named stack. */
const FAMILIES = ['', 'sans-serif', 'serif', 'monospace', 'Helvetica, Arial, sans-serif'];

/**
 * Emoji presentation code points, and one that is text by default followed by VS16. The DejaVu fonts have
 * black-and-white glyphs for the first two (😀 in DejaVu Sans, ⚡ in Sans and Sans Mono), and ❤ too: where a
 * DejaVu font is the page's font they win over the colour emoji font (see infra/fonts/fonts.conf).
 */
const EMOJI = ['😀', '⚡', '❤️', '🎉'];

let ctx: RendererContext;
let proxyUrl: string;
let closeContext: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ ctx, proxyUrl, close: closeContext } = await startRendererContext('fonts-test'));
}, 60_000);

afterAll(async () => {
  await closeContext?.();
});

// ------------------------------------------------------------------------------------------ pixel helpers

const decode = (bytes: Buffer) => PNG.sync.read(bytes);

function samePixels(a: Buffer, b: Buffer): boolean {
  const x = decode(a);
  const y = decode(b);
  return x.width === y.width && x.height === y.height && x.data.equals(y.data);
}

interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

function region(png: PNG, { x, y, w, h }: Rect): Buffer {
  const out = Buffer.alloc(w * h * 4);
  for (let row = 0; row < h; row++) png.data.copy(out, row * w * 4, ((y + row) * png.width + x) * 4, ((y + row) * png.width + x + w) * 4);
  return out;
}

/** Clearly coloured pixels: grey text, its anti-aliasing and grey chart parts never count. */
function colourfulPixels(png: PNG, rect: Rect = { x: 0, y: 0, w: png.width, h: png.height }): number {
  let n = 0;
  for (let row = rect.y; row < rect.y + rect.h; row++) {
    for (let col = rect.x; col < rect.x + rect.w; col++) {
      const i = (row * png.width + col) * 4;
      const [r, g, b, a] = [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!, png.data[i + 3]!];
      if (a > 128 && Math.max(r, g, b) - Math.min(r, g, b) >= 60) n += 1;
    }
  }
  return n;
}

// ------------------------------------------------------------------------------------------ a grid of cells

/** One text per cell, drawn at a whole-pixel offset so that equal glyphs give equal pixels in any cell. */
interface Cell extends Rect {
  text: string;
  family: string;
  fontSize: number;
}

const CELL = { w: 360, h: 48, fontSize: 24 };

/** Per script and family: the sample, and to its right the same number of tofu code points. */
function tofuGrid(): { cells: Cell[]; pairs: Array<{ label: string; sample: Cell; tofu: Cell }>; width: number; height: number } {
  const cells: Cell[] = [];
  const pairs: Array<{ label: string; sample: Cell; tofu: Cell }> = [];
  SCRIPTS.forEach(([script, text], row) => {
    FAMILIES.forEach((family, f) => {
      const at = (col: number, t: string): Cell => ({
        x: col * CELL.w,
        y: row * CELL.h,
        w: CELL.w,
        h: CELL.h,
        text: t,
        family,
        fontSize: CELL.fontSize,
      });
      const sample = at(2 * f, text);
      const tofu = at(2 * f + 1, tofuOf(text));
      cells.push(sample, tofu);
      pairs.push({ label: `${script} in ${family || 'the default font'}`, sample, tofu });
    });
  });
  return { cells, pairs, width: 2 * FAMILIES.length * CELL.w, height: SCRIPTS.length * CELL.h };
}

function emojiGrid(): { cells: Cell[]; width: number; height: number } {
  const w = 64;
  const cells = FAMILIES.flatMap((family, row) =>
    EMOJI.map((text, col): Cell => ({ x: col * w, y: row * w, w, h: w, text, family, fontSize: 40 })),
  );
  return { cells, width: EMOJI.length * w, height: FAMILIES.length * w };
}

const cssFamily = (family: string) => (family ? `font-family:${family};` : '');

function gridHtml(cells: Cell[]): string {
  const divs = cells.map(
    (c) =>
      `<div style="position:absolute;left:${c.x}px;top:${c.y}px;width:${c.w}px;height:${c.h}px;overflow:hidden;white-space:nowrap;` +
      `${cssFamily(c.family)}font-size:${c.fontSize}px;line-height:${c.h}px;padding-left:4px">${c.text}</div>`,
  );
  return `<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0;background:#fff;color:#222">${divs.join('')}</body></html>`;
}

function gridSvg(cells: Cell[], width: number, height: number): string {
  const texts = cells.map(
    (c) =>
      `<text x="${c.x + 4}" y="${c.y + Math.round(c.h * 0.7)}" font-size="${c.fontSize}"${c.family ? ` font-family="${c.family}"` : ''}>${c.text}</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/>${texts.join('')}</svg>`;
}

const html = (markup: string, width: number, height: number): HtmlRenderPayload => ({
  html: markup,
  format: 'png',
  width,
  height,
  quality: 90,
  scale: 1,
});

const svg = (markup: string, width: number, height: number): SvgRenderPayload => ({
  svg: markup,
  format: 'png',
  width,
  height,
  quality: 90,
  transparent: false,
});

/** Labels of the cells drawn as boxes: the sample's pixels equal those of its tofu cell. */
function tofuCells(bytes: Buffer, pairs: ReturnType<typeof tofuGrid>['pairs']): string[] {
  const png = decode(bytes);
  return pairs.filter(({ sample, tofu }) => region(png, sample).equals(region(png, tofu))).map(({ label }) => label);
}

function monochromeEmoji(bytes: Buffer, cells: Cell[]): string[] {
  const png = decode(bytes);
  return cells.filter((c) => colourfulPixels(png, c) < 40).map((c) => `${c.text} in ${c.family || 'the default font'}`);
}

// ------------------------------------------------------------------------------------------ renderers

describe('HTML', () => {
  it('draws every script with real glyphs in the default font, the generic families and a named stack', async () => {
    const grid = tofuGrid();
    const image = await renderHtml(html(gridHtml(grid.cells), grid.width, grid.height), ctx);
    expect(tofuCells(image.bytes, grid.pairs)).toEqual([]);
  });

  it('draws emoji in colour whatever the font stack', async () => {
    const grid = emojiGrid();
    const image = await renderHtml(html(gridHtml(grid.cells), Math.max(grid.width, 50), grid.height), ctx);
    expect(monochromeEmoji(image.bytes, grid.cells)).toEqual([]);
  });
});

describe('SVG (rasterised through <img>)', () => {
  it('draws every script with real glyphs', async () => {
    const grid = tofuGrid();
    const image = await renderSvg(svg(gridSvg(grid.cells, grid.width, grid.height), grid.width, grid.height), ctx);
    expect(tofuCells(image.bytes, grid.pairs)).toEqual([]);
  });

  it('draws emoji in colour', async () => {
    const grid = emojiGrid();
    const image = await renderSvg(svg(gridSvg(grid.cells, grid.width, grid.height), grid.width, grid.height), ctx);
    expect(monochromeEmoji(image.bytes, grid.cells)).toEqual([]);
  });
});

/** What every chart job here shares: a 480×240 PNG in greys only (so colour means emoji). */
const greyChartBase = (library: ChartRenderPayload['library']) => ({
  library,
  format: 'png' as const,
  width: 480,
  height: 240,
  quality: 90,
  scale: 1,
  theme: 'light' as const,
  colors: ['#888888'],
});

/** A chart whose title, category label and series name are `text`, in greys only (so colour means emoji). */
function chartJob(library: ChartRenderPayload['library'], text: string): ChartRenderPayload {
  const base = greyChartBase(library);
  if (library === 'chartjs') {
    return {
      ...base,
      chartType: 'bar',
      chartData: { labels: [text], datasets: [{ label: text, data: [3], backgroundColor: '#888888', borderColor: '#888888' }] },
      chartOptions: { plugins: { title: { display: true, text, font: { size: 20 } } } },
    };
  }
  if (library === 'highcharts') {
    return {
      ...base,
      chartType: 'column',
      chartData: [{ name: text, data: [3] }],
      chartOptions: { title: { text }, xAxis: { categories: [text] }, credits: { enabled: false } },
    };
  }
  return {
    ...base,
    chartType: 'bar',
    chartData: { labels: [text], datasets: [{ label: text, data: [3] }] },
    chartOptions: { title: text, legend: true },
  };
}

/** The places a chart draws text; each is checked alone, so one place drawing boxes cannot hide behind another. */
type ChartTextPlace = 'title' | 'category' | 'legend' | 'axis title' | 'data label';
const CHART_TEXT_PLACES: Record<ChartRenderPayload['library'], ChartTextPlace[]> = {
  chartjs: ['title', 'category', 'legend', 'axis title', 'data label'],
  highcharts: ['title', 'category', 'legend', 'axis title', 'data label'],
  // D3's data labels are numbers only.
  d3: ['title', 'category', 'legend', 'axis title'],
};

/** A grey chart with plain ASCII everywhere but `place`, which shows `text`. */
function chartJobAt(library: ChartRenderPayload['library'], place: ChartTextPlace, text: string): ChartRenderPayload {
  const at = (p: ChartTextPlace) => (p === place ? text : 'abc');
  const base = greyChartBase(library);
  if (library === 'chartjs') {
    return {
      ...base,
      chartType: 'bar',
      chartData: {
        labels: [at('category')],
        datasets: [
          {
            label: at('legend'),
            // chartjs-plugin-datalabels shows a point's `label` when the point is an object.
            data: [{ x: at('category'), y: 3, label: at('data label') }],
            backgroundColor: '#888888',
            borderColor: '#888888',
          },
        ],
      },
      chartOptions: {
        plugins: { title: { display: true, text: at('title'), font: { size: 20 } }, datalabels: { color: '#444444' } },
        scales: { y: { title: { display: true, text: at('axis title') } } },
      },
    };
  }
  if (library === 'highcharts') {
    return {
      ...base,
      chartType: 'column',
      chartData: [{ name: at('legend'), data: [3], dataLabels: { enabled: true, format: at('data label') } }],
      chartOptions: {
        title: { text: at('title') },
        xAxis: { categories: [at('category')] },
        yAxis: { title: { text: at('axis title') } },
        credits: { enabled: false },
      },
    };
  }
  return {
    ...base,
    chartType: 'bar',
    chartData: { labels: [at('category')], datasets: [{ label: at('legend'), data: [3] }] },
    chartOptions: { title: at('title'), legend: true, xAxisLabel: at('axis title') },
  };
}

describe.each(['chartjs', 'highcharts', 'd3'] as const)('chart (%s, PNG exported by the page)', (library) => {
  it.each(CHART_TEXT_PLACES[library])('draws every script with real glyphs in the %s', async (place) => {
    const boxes: string[] = [];
    for (const [script, text] of SCRIPTS) {
      const sample = await renderChart(chartJobAt(library, place, text), ctx);
      const tofu = await renderChart(chartJobAt(library, place, tofuOf(text)), ctx);
      if (samePixels(sample.bytes, tofu.bytes)) boxes.push(script);
    }
    expect(boxes).toEqual([]);
  });

  it.each(CHART_TEXT_PLACES[library])('draws emoji in colour in the %s', async (place) => {
    const monochrome: string[] = [];
    for (const emoji of EMOJI) {
      const image = await renderChart(chartJobAt(library, place, emoji), ctx);
      if (colourfulPixels(decode(image.bytes)) < 20) monochrome.push(emoji);
    }
    expect(monochrome).toEqual([]);
  });

  it('draws every script with real glyphs', async () => {
    const boxes: string[] = [];
    for (const [script, text] of SCRIPTS) {
      const sample = await renderChart(chartJob(library, text), ctx);
      const tofu = await renderChart(chartJob(library, tofuOf(text)), ctx);
      if (samePixels(sample.bytes, tofu.bytes)) boxes.push(script);
    }
    expect(boxes).toEqual([]);
  });

  it('draws emoji in colour', async () => {
    const monochrome: string[] = [];
    for (const emoji of EMOJI) {
      const image = await renderChart(chartJob(library, emoji), ctx);
      if (colourfulPixels(decode(image.bytes)) < 40) monochrome.push(emoji);
    }
    expect(monochrome).toEqual([]);
  });
});

const codeJob = (code: string): CodeRenderPayload => ({
  code,
  language: 'text',
  theme: 'github-light',
  format: 'png',
  width: 600,
  fontSize: 20,
  padding: CodeDefaults.padding,
  borderRadius: CodeDefaults.borderRadius,
  showLineNumbers: true,
  quality: CodeDefaults.quality,
  scale: 1,
});

describe('code fallback fonts', () => {
  it('keeps symbols JetBrains Mono lacks one cell wide (DejaVu Sans Mono), and leaves emoji to the colour font', async () => {
    const widths = await (await ctx.pool('code')).run(({ page }) =>
      page.evaluate(async (stack) => {
        const font = `100px ${stack}`;
        const symbols = ['0', '✓', '❯', '→', '≠', '∀', '╭', '━', '█'];
        await document.fonts.load(font, `${symbols.join('')}⚡`);
        const ctx = document.createElement('canvas').getContext('2d')!;
        ctx.font = font;
        return {
          symbols: symbols.map((s) => `${s} ${Math.round(ctx.measureText(s).width)}`),
          emoji: Math.round(ctx.measureText('⚡').width),
        };
      }, CODE_FONT_STACK),
    );
    expect(widths.symbols).toEqual(widths.symbols.map((s) => `${s.split(' ')[0]} 60`));
    // Noto Color Emoji's advance; DejaVu Sans Mono's black-and-white ⚡ would be one cell (60).
    expect(widths.emoji).toBeGreaterThan(100);
  });
});

describe.each<CodeRoute>(['canvas', 'dom'])('code (%s route)', (route) => {
  it('draws every script with real glyphs where JetBrains Mono has none', async () => {
    const boxes: string[] = [];
    for (const [script, text] of SCRIPTS) {
      // The canvas route does not lay right-to-left text out; the renderer sends it to the DOM route.
      if (route === 'canvas' && needsDomLayout(text)) continue;
      const sample = await renderCodeVia(route, codeJob(text), ctx);
      const tofu = await renderCodeVia(route, codeJob(tofuOf(text, CODE_TOFU)), ctx);
      if (samePixels(sample.bytes, tofu.bytes)) boxes.push(script);
    }
    expect(boxes).toEqual([]);
  });

  it('draws emoji in colour', async () => {
    const monochrome: string[] = [];
    for (const emoji of EMOJI) {
      const image = await renderCodeVia(route, codeJob(`x = "${emoji}"`), ctx);
      if (colourfulPixels(decode(image.bytes)) < 40) monochrome.push(emoji);
    }
    expect(monochrome).toEqual([]);
  });
});

/**
 * The full Chromium build resolves generic families differently from headless shell: it asks fontconfig for
 * "Monospace" (DejaVu Sans Mono, whose ⚡ is black and white, unless infra/fonts/fonts.conf says otherwise).
 */
describe.runIf(existsSync(FULL_CHROMIUM))('HTML in the full Chromium build (new headless)', () => {
  let full: TestPool;
  let fullCtx: RendererContext;
  beforeAll(async () => {
    full = await startTestPool('generic', proxyUrl, 'fonts-test-full', 1, {
      launch: (options) => ({ ...options, executablePath: FULL_CHROMIUM, headless: true }),
    });
    fullCtx = { ...ctx, pool: async () => full.cluster };
  }, 60_000);
  afterAll(() => full?.close());

  it('draws every script with real glyphs, and emoji in colour', async () => {
    const scripts = tofuGrid();
    const text = await renderHtml(html(gridHtml(scripts.cells), scripts.width, scripts.height), fullCtx);
    expect(tofuCells(text.bytes, scripts.pairs)).toEqual([]);
    const emoji = emojiGrid();
    const image = await renderHtml(html(gridHtml(emoji.cells), Math.max(emoji.width, 50), emoji.height), fullCtx);
    expect(monochromeEmoji(image.bytes, emoji.cells)).toEqual([]);
  });
});
