import { HighchartsTypes } from '@render/contracts';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumLaunchOptions } from '../src/browser/chromium-args.ts';
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
});
