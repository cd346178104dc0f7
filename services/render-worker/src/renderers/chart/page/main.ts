/*
 * The chart page's own code: runs INSIDE the chart pool's warm Chromium page (not in Node), once per page,
 * after chart.js, d3 and Highcharts have been inlined by chart-host.ts, which compiles this file and its
 * imports into one script for the page (esbuild; the worker's build does the same into dist/).
 *
 * window.__renderChart(config) draws one chart synchronously into #chart (animations off) and answers
 * { ok: true, svg?, image? } or { ok: false, message }; directly, or as a promise when it exports the chart
 * as an image (Highcharts raster output). window.__destroyChart() empties the container so the page
 * stays warm and holds nothing of the previous job. `config` is plain JSON built by chart-config.ts; nothing
 * in it is ever evaluated.
 */
import { renderChartJs } from './chartjs.ts';
import { renderD3 } from './d3.ts';
import { renderHighcharts } from './highcharts.ts';
import { container, destroy } from './shared.ts';
import type { Drawn, LibraryRenderer, PageChartConfig, PageResult } from './types.ts';

const renderers: Record<PageChartConfig['library'], LibraryRenderer> = {
  chartjs: renderChartJs,
  highcharts: renderHighcharts,
  d3: renderD3,
};

const failed = (err: unknown): PageResult => {
  destroy();
  return { ok: false, message: String((err as Error | undefined)?.message || err).slice(0, 300) };
};

/**
 * The chart is drawn hidden (laid out and measurable, never painted): most jobs answer markup or an
 * image the page exported itself, and painting the live chart into the page's next frame would only
 * compete for the CPU with the answer on its way out. Only a chart that must be captured (screenshot or
 * PDF: no image in the answer) is made visible.
 */
const answer = (result: Drawn): PageResult => {
  if (!result.image && !result.svg) container.style.visibility = 'visible';
  return { ok: true, ...result };
};

const isPromise = (value: Drawn | Promise<Drawn>): value is Promise<Drawn> => typeof (value as Promise<Drawn>).then === 'function';

/** Answers synchronously, or with a promise when the chart is exported as an image (Highcharts). */
const render = (config: PageChartConfig): PageResult | Promise<PageResult> => {
  destroy();
  try {
    container.style.visibility = 'hidden';
    container.style.width = config.responsiveWidth ? '100%' : `${config.width}px`;
    container.style.height = `${config.height}px`;
    container.style.background = config.background;
    const result = (renderers[config.library] as LibraryRenderer)(config);
    return isPromise(result) ? result.then(answer, failed) : answer(result);
  } catch (err) {
    return failed(err);
  }
};

// Non-writable so nothing a chart library does with user data can replace the entry points.
Object.defineProperty(window, '__renderChart', { value: render });
Object.defineProperty(window, '__destroyChart', { value: destroy });
