import {
  AppError,
  assertSvgDocument,
  type HtmlConvertBody,
  type HtmlRenderPayload,
  resolvePdfOptions,
  type SvgConvertBody,
  type SvgRenderPayload,
} from '@render/contracts';
import { assertPixelBudget } from '../images/image-reply.ts';

/** An HTML convert call as its job: some content, within the pixel budget, PDF options resolved; only the job's fields. */
export function htmlPayload(body: HtmlConvertBody): HtmlRenderPayload {
  const { html, format, width, height, quality, scale } = body;
  if (!html.trim()) throw new AppError('VALIDATION_ERROR', 'Please enter some HTML content');
  assertPixelBudget(width, height, scale);
  const payload: HtmlRenderPayload = { html, format, width, height, quality, scale, ...optimized(body) };
  if (format === 'pdf') payload.pdf = resolvePdfOptions(body);
  return payload;
}

/** An SVG convert call as its job: parsed and its root checked here, so a non-SVG never occupies a worker. */
export function svgPayload(body: SvgConvertBody): SvgRenderPayload {
  const { svg, format, width, height, quality, transparent } = body;
  if (!svg.trim()) throw new AppError('VALIDATION_ERROR', 'Please enter some SVG content');
  assertSvgDocument(svg);
  return { svg, format, width, height, quality, transparent, ...optimized(body) };
}

/** `optimize` goes in the job only when asked for, so a plain request's job is what it always was. */
export const optimized = (body: { optimize?: boolean }): { optimize?: true } => (body.optimize ? { optimize: true } : {});
