import { type ChartRenderPayload, isCssColor, MimeTypes, type QuickChartJob } from '@render/contracts';
import type { Page } from 'puppeteer-core';
import type { PageSlot } from '../../browser/page-pool-concurrency.ts';
import { applyPageSettings, dataUrlBytes, evaluateInPage, pageCall, withDeadline } from '../page/page-ops.ts';
import { RenderError } from '../page/render-error.ts';
import type { RenderedImage, RendererContext } from '../page/renderer.ts';
import type { QuickChartPageConfig, QuickChartPageResult } from './page/quickchart.ts';

const isJson = (source: string): boolean => {
  try {
    JSON.parse(source);
    return true;
  } catch {
    return false;
  }
};

/** QuickChart's SVG of a Chart.js chart is its canvas; here the PNG in an SVG document of the chart's size. */
const svgOf = (png: Buffer, width: number, height: number): Buffer =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
      `<image width="${width}" height="${height}" xlink:href="data:image/png;base64,${png.toString('base64')}"/></svg>`,
    'utf8',
  );

function pageConfigOf(payload: ChartRenderPayload, job: QuickChartJob): QuickChartPageConfig {
  const format = payload.format === 'avif' ? 'png' : payload.format;
  const requested = payload.backgroundColor && isCssColor(payload.backgroundColor) ? payload.backgroundColor.trim() : 'transparent';
  // JPEG has no alpha: a transparent canvas would come out black.
  const background = requested === 'transparent' && format === 'jpeg' ? '#ffffff' : requested;
  return { ...job, width: payload.width, height: payload.height, scale: payload.scale, background, format, quality: payload.quality };
}

/**
 * A QuickChart-compatible render (`payload.quickchart`) on the QuickChart pool, whose page holds Chart.js
 * 2.9.4 and 4 and evaluates the config there (page/quickchart.ts). The Node process never evaluates it: it
 * only checks whether the text is JSON, to know whether the page ran caller code. A page that did is
 * tainted, so the pool navigates it to a fresh document (new Window: no globals, timers, or patched
 * prototypes survive) and loads the libraries again before any other job uses it.
 */
export async function renderQuickChart(payload: ChartRenderPayload, job: QuickChartJob, ctx: RendererContext): Promise<RenderedImage> {
  const config = pageConfigOf(payload, job);
  const { width, height } = payload;
  const ranCode = !isJson(job.source);
  return (await ctx.pool('quickchart')).run(({ page, slot }: { page: Page; slot: PageSlot }) =>
    withDeadline(slot, ctx.timeoutMs, async (): Promise<RenderedImage> => {
      await applyPageSettings(page, slot, { scriptEnabled: true, width, height, scale: config.format === 'pdf' ? 1 : payload.scale });
      // JSON only runs the host's own code and stays warm; JavaScript taints the page (see above).
      slot.tainted = ranCode;
      const result = await evaluateInPage<QuickChartPageResult>(page, slot, pageCall('window.__renderQuickChart', config));
      if (!result.ok) throw new RenderError(`Failed to generate image: the chart could not be drawn (${result.message})`, false);
      try {
        if (config.format === 'pdf') {
          const pdf = await page.pdf({ width: `${width}px`, height: `${height}px`, printBackground: true, pageRanges: '1', timeout: 0 });
          return { bytes: Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength), format: 'pdf', mimeType: MimeTypes.pdf, width, height };
        }
        if (!result.image) throw new RenderError('Failed to generate image: the chart produced no image', false);
        const bytes = dataUrlBytes(result.image);
        if (config.format === 'svg') return { bytes: svgOf(bytes, width, height), format: 'svg', mimeType: MimeTypes.svg, width, height };
        const format = config.format;
        const imageWidth = result.imageWidth ?? width;
        const imageHeight = result.imageHeight ?? height;
        return { bytes, format, mimeType: MimeTypes[format], width: imageWidth, height: imageHeight };
      } finally {
        if (!ranCode) evaluateInPage<void>(page, slot, pageCall('window.__destroyChart')).catch(() => undefined);
      }
    }),
  );
}
