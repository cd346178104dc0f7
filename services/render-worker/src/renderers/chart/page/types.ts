import type { Chart, Plugin } from 'chart.js';
import type * as HighchartsApi from 'highcharts';
import type { PageChartConfig } from '../chart-config.ts';
import type { D3 } from './d3-types.ts';

export type { PageChartConfig };

/**
 * What a library's renderer answers: the chart's SVG markup, an image the page exported itself (a data
 * URL and its pixel size; `via` says which Highcharts/D3 route made it), or nothing, when the page must be
 * captured.
 */
export interface Drawn {
  svg?: string;
  image?: string;
  imageWidth?: number;
  imageHeight?: number;
  via?: 'paint' | 'image';
}

/** What `window.__renderChart` answers (directly, or as a promise when the chart is exported as an image). */
export type PageResult = ({ ok: true } & Drawn) | { ok: false; message: string };

export type LibraryRenderer = (config: PageChartConfig) => Drawn | Promise<Drawn>;

/** The libraries chart-host.ts inlines before the page code, as the page's globals. */
declare global {
  interface Window {
    Chart: typeof Chart;
    ChartDataLabels?: Plugin;
    dateFns?: { locale?: Record<string, unknown> };
    Highcharts: typeof HighchartsApi;
    d3: D3;
  }
}
