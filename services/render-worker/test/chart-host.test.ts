import { type ChartRenderPayload, HighchartsTypes } from '@render/contracts';
import { PNG } from 'pngjs';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumLaunchOptions } from '../src/browser/chromium-args.ts';
import { buildPageConfig } from '../src/renderers/chart/chart-config.ts';
import { prepareChartPage } from '../src/renderers/chart/chart-host.ts';

let browser: Browser;
let page: Page;
const requests: string[] = [];

beforeAll(async () => {
  // The proxy points nowhere: the host page must not need the network at all.
  browser = await puppeteer.launch(
    chromiumLaunchOptions({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell',
      sandbox: 'auto',
      proxyUrl: 'http://127.0.0.1:9',
    }),
  );
  page = await browser.newPage();
  page.on('request', (r) => requests.push(r.url()));
  await prepareChartPage(page);
}, 60_000);

afterAll(() => browser?.close());

describe('chart host page', () => {
  it('loads every library from inlined sources, requesting nothing', () => {
    expect(requests.filter((u) => !u.startsWith('about:') && !u.startsWith('data:'))).toEqual([]);
  });

  it('knows every Highcharts type the contract accepts', async () => {
    const known = await page.evaluate(() =>
      Object.keys((window as unknown as { Highcharts: { seriesTypes: object } }).Highcharts.seriesTypes),
    );
    expect(known).toEqual(expect.arrayContaining([...HighchartsTypes]));
  });

  it('forbids inline handlers and eval-like code (CSP), yet renders through __renderChart', async () => {
    // DevTools' own evaluate is exempt from CSP, so the probes run as page code: an inline handler and a
    // string timer (eval-like) must both be refused.
    const ran = await page.evaluate(async () => {
      const w = window as unknown as { __handler?: boolean; __timer?: boolean };
      const div = document.createElement('div');
      div.setAttribute('onclick', 'window.__handler = true');
      div.click();
      (setTimeout as unknown as (code: string, ms: number) => void)('window.__timer = true', 0);
      await new Promise((r) => setTimeout(r, 50));
      return { handler: w.__handler === true, timer: w.__timer === true };
    });
    expect(ran).toEqual({ handler: false, timer: false });
    const result = await page.evaluate(() =>
      (window as unknown as { __renderChart(c: unknown): { ok: boolean } }).__renderChart({
        library: 'd3',
        chartType: 'bar',
        format: 'svg',
        width: 200,
        height: 100,
        background: '#fff',
        colors: [],
        responsiveWidth: false,
        data: { labels: ['a'], datasets: [{ data: [1] }] },
        options: {},
      }),
    );
    expect(result).toMatchObject({ ok: true, svg: expect.stringMatching(/^<svg/) });
  });

  it('cannot have its entry points replaced', async () => {
    const replaced = await page.evaluate(() => {
      try {
        (window as unknown as { __renderChart: unknown }).__renderChart = () => 'hijacked';
      } catch {
        // strict-mode assignment to a read-only property throws; either way it must not stick
      }
      return String((window as unknown as { __renderChart: unknown }).__renderChart).includes('hijacked');
    });
    expect(replaced).toBe(false);
  });

  it('exports Highcharts raster output from its SVG, matching a screenshot of the chart', async () => {
    // Sizes in em on chart.style and a rem title: the exported SVG must keep what it inherits in the page.
    const payload = {
      library: 'highcharts',
      chartType: 'line',
      chartData: [{ name: 'x', data: [3, 7, 2, 9, 4] }],
      chartOptions: { chart: { style: { fontSize: '1.2em' } }, title: { text: 'Exported', style: { fontSize: '1.5rem' } } },
      format: 'png',
      width: 400,
      height: 250,
      scale: 1,
      quality: 90,
      theme: 'light',
    } as ChartRenderPayload;
    await page.setViewport({ width: 400, height: 250 });
    const draw = (config: unknown) =>
      page.evaluate(
        (c) => (window as unknown as { __renderChart(c: unknown): Promise<{ image?: string }> }).__renderChart(c),
        config as never,
      );

    const exported = await draw(buildPageConfig(payload));
    expect(exported.image).toMatch(/^data:image\/png;base64,/);
    // PDF output is never exported, so this leaves the same chart in the page for a screenshot.
    await draw(buildPageConfig({ ...payload, format: 'pdf' }));
    const shot = PNG.sync.read(Buffer.from(await page.screenshot({ type: 'png' })));
    const image = PNG.sync.read(Buffer.from(exported.image!.split(',')[1]!, 'base64'));

    expect([image.width, image.height]).toEqual([shot.width, shot.height]);
    // Anti-aliasing of the slanted line may differ slightly; text of another size or place would not.
    let far = 0;
    for (let i = 0; i < image.data.length; i += 4) {
      const d = Math.max(...[0, 1, 2, 3].map((k) => Math.abs(image.data[i + k]! - shot.data[i + k]!)));
      if (d > 96) far += 1;
    }
    expect(far / (image.width * image.height)).toBeLessThan(0.001);
  });

  it('parses plain label text as Highcharts would, without a DOMParser round trip', async () => {
    const samples = ['Jan', '  padded  ', '1,234.5', 'naïve 日本語 🎉', 'tab\there', '', '   ', 'a > b', 'it\'s "quoted"'];
    const marked = ['<b>bold</b> x', 'a &amp; b', 'a &lt; b', 'x style="color:red"', 'cr\r\nlf'];
    const result = await page.evaluate(
      (plain, withMarkup) => {
        const H = (window as unknown as { Highcharts: { AST: new (s: string) => { nodes: unknown[] } } }).Highcharts;
        // What Highcharts' own parse answers for text: the body's nodes of the trimmed string, as text.
        const reference = (s: string) =>
          Array.from(new DOMParser().parseFromString(s.trim(), 'text/html').body.childNodes, (n) => ({
            tagName: '#text',
            textContent: n.textContent,
          }));
        return {
          plain: plain.map((s) => ({ ast: new H.AST(s).nodes, reference: reference(s) })),
          // Markup still takes Highcharts' path: tags become elements, entities are decoded.
          marked: withMarkup.map((s) => new H.AST(s).nodes),
        };
      },
      samples,
      marked,
    );
    for (const { ast, reference } of result.plain) expect(ast).toEqual(reference);
    expect(result.marked[0]).toEqual([
      { tagName: 'b', attributes: {}, children: [{ tagName: '#text', textContent: 'bold' }] },
      { tagName: '#text', textContent: ' x' },
    ]);
    expect(result.marked[1]).toEqual([{ tagName: '#text', textContent: 'a & b' }]);
    expect(result.marked[2]).toEqual([{ tagName: '#text', textContent: 'a < b' }]);
    expect(result.marked[3]).toEqual([{ tagName: '#text', textContent: 'x data-style="color:red"' }]);
    expect(result.marked[4]).toEqual([{ tagName: '#text', textContent: 'cr\nlf' }]);
  });

  it('formats dates in each chart’s own time zone, though charts share formatters', async () => {
    const midnight = Date.UTC(2026, 0, 1);
    const formatted = await page.evaluate((t) => {
      type Time = { dateTimeFormat(format: string, t: number): string; dTLCache: object };
      const H = (window as unknown as { Highcharts: { Time: new (o: object) => Time } }).Highcharts;
      const zones = ['UTC', 'Asia/Tokyo', 'America/New_York', 'UTC'];
      const times = zones.map((timezone) => new H.Time({ timezone }));
      return {
        // 'HM' becomes Intl options without a time zone, the cache key Highcharts uses for them.
        labels: times.map((time) => time.dateTimeFormat('HM', t)),
        shared: times[0]!.dTLCache === times[3]!.dTLCache,
      };
    }, midnight);
    const intl = (timeZone: string) => new Intl.DateTimeFormat('en-US', { hour: '2-digit', minute: '2-digit', timeZone }).format(midnight);
    expect(formatted.labels).toEqual([intl('UTC'), intl('Asia/Tokyo'), intl('America/New_York'), intl('UTC')]);
    expect(formatted.shared).toBe(true);
  });

  it('never paints a chart it exports itself, and shows one that must be captured', async () => {
    const base = { chartOptions: {}, width: 300, height: 150, scale: 1, quality: 90, theme: 'light' } as const;
    const visibility = () => page.evaluate(() => getComputedStyle(document.getElementById('chart')!).visibility);
    const draw = (payload: object) =>
      page.evaluate(
        (c) => (window as unknown as { __renderChart(c: unknown): Promise<{ image?: string; svg?: string }> }).__renderChart(c),
        buildPageConfig({ ...base, ...payload } as ChartRenderPayload) as never,
      );

    // Exported (Chart.js canvas, Highcharts SVG as an image) or answered as markup: laid out, not painted.
    expect(
      await draw({ library: 'chartjs', chartType: 'bar', chartData: { labels: ['a'], datasets: [{ data: [1] }] }, format: 'png' }),
    ).toHaveProperty('image');
    expect(await visibility()).toBe('hidden');
    expect(await draw({ library: 'highcharts', chartData: [{ data: [1, 2] }], format: 'png' })).toHaveProperty('image');
    expect(await visibility()).toBe('hidden');
    expect(
      await draw({ library: 'd3', chartType: 'bar', chartData: { labels: ['a'], datasets: [{ data: [1] }] }, format: 'svg' }),
    ).toHaveProperty('svg');
    expect(await visibility()).toBe('hidden');

    // D3 raster output is a screenshot of the page: the chart must be there to see.
    await page.setViewport({ width: 300, height: 150 });
    const result = await draw({
      library: 'd3',
      chartType: 'bar',
      chartData: { labels: ['a'], datasets: [{ data: [1], color: '#ff0000' }] },
      format: 'png',
    });
    expect(result).not.toHaveProperty('image');
    expect(await visibility()).toBe('visible');
    const shot = PNG.sync.read(Buffer.from(await page.screenshot({ type: 'png' })));
    let red = 0;
    for (let i = 0; i < shot.data.length; i += 4) if (shot.data[i]! > 200 && shot.data[i + 1]! < 60 && shot.data[i + 2]! < 60) red += 1;
    expect(red).toBeGreaterThan(100);
  });
});
