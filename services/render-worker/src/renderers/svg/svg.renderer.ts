import { MimeTypes } from '@render/contracts';
import type { SvgRenderPayload } from '@render/queue';
import { finishRendered, planEncoding } from '../page/image-encoder.ts';
import { applyPageSettings, screenshot, withDeadline } from '../page/page-ops.ts';
import type { RenderedImage, Renderer } from '../page/renderer.ts';
import { inlineSvgImages } from './svg-image-inliner.ts';

const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';

/**
 * Pasted SVG often comes from inline HTML and lacks the namespace declarations that standalone SVG needs.
 * Adding them is what a user means; without them the image would be blank.
 */
export function normalizeSvg(svg: string, size?: { width: number; height: number }): string {
  const open = /<svg\b[^>]*>/i.exec(svg);
  if (!open) return svg;
  let tag = open[0];
  if (!/\sxmlns\s*=/.test(tag)) tag = tag.replace(/^<svg\b/i, `<svg xmlns="${SVG_NS}"`);
  if (/xlink:/.test(svg) && !/\sxmlns:xlink\s*=/.test(tag)) tag = tag.replace(/^<svg\b/i, `<svg xmlns:xlink="${XLINK_NS}"`);
  if (size) {
    const attr = (name: string) => new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)')`, 'i').exec(tag);
    const ow = attr('width');
    const oh = attr('height');
    if (!/\sviewBox\s*=/i.test(tag) && ow && oh) {
      const w = Number.parseFloat(ow[2] ?? ow[3] ?? '');
      const h = Number.parseFloat(oh[2] ?? oh[3] ?? '');
      if (w > 0 && h > 0) tag = tag.replace(/^<svg\b/i, `<svg viewBox="0 0 ${w} ${h}"`);
    }
    tag = tag.replace(/\s(width|height)\s*=\s*("[^"]*"|'[^']*')/gi, '');
    tag = tag.replace(/^<svg\b/i, `<svg width="${size.width}" height="${size.height}"`);
  }
  return svg.slice(0, open.index) + tag + svg.slice(open.index + open[0].length);
}

/** SVG output needs no browser: the document is normalised and resized by its root attributes. */
function svgToSvg(svg: string, payload: SvgRenderPayload): RenderedImage {
  const bytes = Buffer.from(normalizeSvg(svg, { width: payload.width, height: payload.height }), 'utf8');
  return { bytes, format: 'svg', mimeType: MimeTypes.svg, width: payload.width, height: payload.height };
}

/**
 * Raster output draws the SVG through an <img>: in image mode Chromium runs no SVG scripts and loads no
 * external resources, so a hostile SVG can neither execute nor reach the network. Image variables are
 * therefore fetched by the worker and inlined first, before a page is taken from the pool.
 */
export const renderSvg: Renderer<SvgRenderPayload> = async (payload, ctx) => {
  // Fetching and drawing share the one render budget.
  const deadline = Date.now() + ctx.timeoutMs;
  const plan = payload.format === 'svg' ? undefined : planEncoding(payload.format, payload);
  const svg = payload.images?.length ? await inlineSvgImages(payload.svg, payload.images, ctx.imageFetch, deadline) : payload.svg;
  if (!plan) return svgToSvg(svg, payload);
  const timeoutMs = Math.max(1, deadline - Date.now());
  const image = await (await ctx.pool('generic')).run(({ page, slot }) =>
    withDeadline(slot, timeoutMs, async (): Promise<RenderedImage> => {
      const transparent = payload.transparent && plan.capture !== 'jpeg';
      const src = `data:image/svg+xml;base64,${Buffer.from(normalizeSvg(svg), 'utf8').toString('base64')}`;
      const html =
        '<!doctype html><html><head><style>html,body{margin:0;padding:0;overflow:hidden;' +
        `background:${transparent ? 'transparent' : '#fff'}}` +
        `img{display:block;width:${payload.width}px;height:${payload.height}px}</style></head>` +
        `<body><img src="${src}"></body></html>`;
      await applyPageSettings(page, slot, { scriptEnabled: false, width: payload.width, height: payload.height, scale: 1 });
      await page.setContent(html, { waitUntil: 'load', timeout: 0 });
      const bytes = await screenshot(page, { type: plan.capture, quality: plan.captureQuality, omitBackground: transparent });
      return { bytes, format: plan.format, mimeType: plan.mimeType, width: payload.width, height: payload.height };
    }),
  );
  return finishRendered(image, plan);
};
