import { type ChartRenderPayload, MimeTypes, withoutXmlForbiddenCharacters } from '@render/contracts';
import type { Page } from 'puppeteer-core';
import type { PageSlot } from '../../browser/page-pool-concurrency.ts';
import { finishRendered, planEncoding } from '../page/image-encoder.ts';
import { applyPageSettings, dataUrlBytes, evaluateInPage, pageCall, screenshot, withDeadline } from '../page/page-ops.ts';
import { RenderError } from '../page/render-error.ts';
import type { RenderedImage, Renderer } from '../page/renderer.ts';
import { buildPageConfig, isOpaque, type PageChartConfig } from './chart-config.ts';
import { ChartConfigError } from './chart-sanitize.ts';
import type { PageResult } from './page/types.ts';
import { renderQuickChart } from './quickchart.renderer.ts';

/** See page/main.ts: `__renderChart` answers a PageResult, directly or as a promise. */
const drawInPage = (page: Page, slot: PageSlot, config: PageChartConfig) =>
  evaluateInPage<PageResult>(page, slot, pageCall('window.__renderChart', config));

const destroyInPage = (page: Page, slot: PageSlot) => evaluateInPage<void>(page, slot, pageCall('window.__destroyChart'));

/**
 * Charts render on the chart pool's warm pages, where chart.js, d3 and Highcharts are already loaded
 * (chart-host.ts), so a job only passes its JSON config to `__renderChart`, captures the result and
 * clears the chart. PNG/JPEG are exported by the page where it can (Chart.js's canvas, Highcharts' SVG
 * drawn into a canvas) and are otherwise screenshots of the container; SVG is the chart's own markup (D3,
 * Highcharts); PDF prints the page, which holds only the vector chart, at exactly the chart's size.
 */
export const renderChart: Renderer<ChartRenderPayload> = async (payload, ctx) => {
  if (payload.quickchart) return renderQuickChart(payload, payload.quickchart, ctx);
  const { format, width, height } = payload;
  const plan = format === 'svg' || format === 'pdf' ? undefined : planEncoding(format, payload);
  const raster = plan !== undefined;
  let config: PageChartConfig;
  try {
    // The page exports (or is captured in) what Chromium encodes: AVIF is drawn as PNG and encoded here.
    config = buildPageConfig(plan ? { ...payload, format: plan.capture } : payload);
  } catch (err) {
    if (err instanceof ChartConfigError) throw new RenderError(err.message, false);
    throw err;
  }

  const image = await (await ctx.pool('chart')).run(({ page, slot }) =>
    withDeadline(slot, ctx.timeoutMs, async (): Promise<RenderedImage> => {
      await applyPageSettings(page, slot, { scriptEnabled: true, width, height, scale: raster ? payload.scale : 1 });
      // applyPageSettings taints any scripted page, but here only our own host script runs, on JSON data:
      // nothing of the user's can linger, so the page stays warm (no reset navigation + library reload).
      // A failed job still retires the page through withDeadline.
      slot.tainted = false;

      const result = await drawInPage(page, slot, config);
      if (!result.ok) throw new RenderError(`Failed to generate image: the chart could not be drawn (${result.message})`, false);
      try {
        if (format === 'svg') {
          if (!result.svg) throw new RenderError('Failed to generate image: the chart produced no SVG', false);
          // The browser's serializer keeps a control character of a label as it is, which no XML parser
          // takes (Highcharts drops them itself): the SVG answer must parse, and they draw nothing.
          const svg = withoutXmlForbiddenCharacters(result.svg);
          return { bytes: Buffer.from(svg, 'utf8'), format, mimeType: MimeTypes.svg, width, height };
        }
        if (!plan) {
          const pdf = await page.pdf({ width: `${width}px`, height: `${height}px`, printBackground: true, pageRanges: '1', timeout: 0 });
          return { bytes: Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength), format, mimeType: MimeTypes.pdf, width, height };
        }
        if (result.image) {
          // The page exported the image (see page/); no screenshot needed.
          const bytes = dataUrlBytes(result.image);
          return { bytes, format, mimeType: plan.mimeType, width: result.imageWidth ?? width, height: result.imageHeight ?? height };
        }
        const bytes = await screenshot(page, {
          type: plan.capture,
          quality: plan.captureQuality,
          omitBackground: plan.capture !== 'jpeg' && !isOpaque(config.background),
        });
        return {
          bytes,
          format,
          mimeType: plan.mimeType,
          width: Math.round(width * payload.scale),
          height: Math.round(height * payload.scale),
        };
      } finally {
        // Not awaited: the capture is done, so clearing the chart need not delay the answer. CDP keeps the
        // order, so the next job's render still runs after it; a failure here only means a stale chart.
        destroyInPage(page, slot).catch(() => undefined);
      }
    }),
  );
  return finishRendered(image, plan);
};
