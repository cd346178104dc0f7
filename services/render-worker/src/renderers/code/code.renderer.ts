import {
  type CodeRenderPayload,
  codeFrame,
  codeImageSizeProblem,
  codeLines,
  MimeTypes,
  minCodeHeight,
  normalizeCode,
  visibleLineCount,
} from '@render/contracts';
import type { Page } from 'puppeteer-core';
import type { PageSlot } from '../../browser/page-pool-concurrency.ts';
import { type CaptureFormat, finishRendered, planEncoding } from '../page/image-encoder.ts';
import { applyPageSettings, dataUrlBytes, evaluateInPage, pageCall, screenshot, withDeadline } from '../page/page-ops.ts';
import { RenderError } from '../page/render-error.ts';
import type { RenderedImage, Renderer, RendererContext } from '../page/renderer.ts';
import { buildCanvasJob, type CanvasCodeResult, needsDomLayout } from './code-canvas.ts';
import { type HighlightedCode, highlightCode } from './code-highlighter.ts';
import { buildCodeContent, HOST_STYLE_ID, WINDOW_ID } from './code-page.ts';

/**
 * Runs in the code pool's host page (DevTools evaluation works with page scripts off): swaps in this job's
 * styles and rows, lets layout ask for the faces it uses and waits for them, then measures the window.
 * Layout must use the real font before the height is read; a face that fails leaves the fallback.
 */
const fillAndMeasure = (css: string, rows: string, styleId: string, windowId: string) => {
  (document.getElementById(styleId) as HTMLStyleElement).textContent = css;
  const win = document.getElementById(windowId) as HTMLElement;
  win.innerHTML = rows;
  win.getBoundingClientRect(); // layout now, so the faces this text needs start loading
  return document.fonts.ready.then(() => Math.ceil(win.getBoundingClientRect().height));
};

/** At most this share of the render budget (and at most 2 s) goes to tokenising; code past it is drawn unstyled. */
const HIGHLIGHT_SHARE = 0.25;

type PageResult = { image: RenderedImage } | { problem: string };

/** A code job as the page draws it: in a format Chromium encodes. */
type CapturedCode = CodeRenderPayload & { format: CaptureFormat };

/** How a code job is drawn: see `renderCode`. */
export type CodeRoute = 'canvas' | 'dom';

/**
 * Code → tokens in Node (one shiki highlighter per process), then drawn on a warm code page. The usual
 * route paints the tokens into a canvas that the page encodes itself (code-canvas.browser.js): one DevTools
 * call, no DOM to lay out, no screenshot. Code with right-to-left text takes the DOM route instead, whose
 * bidi layout the canvas does not reproduce. Either way auto height fits the code, and past
 * `CodeLimits.maxImageHeight` or the pixel budget the job fails with a message naming the limit.
 */
export const renderCode: Renderer<CodeRenderPayload> = (payload, ctx) =>
  renderCodeVia(needsDomLayout(payload.code) && !isFramed(payload) ? 'dom' : 'canvas', payload, ctx);

/**
 * The frame (window bar, background, shadow, highlighted lines, shifted numbers) is drawn by the canvas only,
 * so framed code always takes it, right-to-left text included (drawn left to right there).
 */
export const isFramed = (p: CodeRenderPayload) =>
  Boolean(p.window || p.background || p.outerPadding || p.shadow || p.highlightLines || p.firstLineNumber);

/** `renderCode` on a given route (the tests hold the two routes to the same pixels). */
export async function renderCodeVia(route: CodeRoute, requested: CodeRenderPayload, ctx: RendererContext): Promise<RenderedImage> {
  const started = Date.now();
  const plan = planEncoding(requested.format, requested);
  // The page draws what Chromium encodes (AVIF: a PNG, encoded here after the page is back in the pool).
  const payload: CapturedCode = { ...requested, format: plan.capture };
  const { width, fontSize, padding, showLineNumbers, scale } = payload;
  if (route === 'dom' && isFramed(payload)) throw new RenderError('Framed code is drawn by the canvas route only', false);
  const { bar, outer } = codeFrame(payload);
  let lines = codeLines(normalizeCode(payload.code));
  if (payload.height !== undefined) lines = lines.slice(0, visibleLineCount(payload.height - bar, fontSize, padding));
  const geometry = { width, fontSize, padding, showLineNumbers, lineCount: lines.length, firstLineNumber: payload.firstLineNumber };
  /** `height` is the whole image's (CSS px), frame included. */
  const sizeProblem = (height: number, minimum: boolean) =>
    codeImageSizeProblem({ width: width + 2 * outer, height, scale, lines: lines.length, fontSize, minimum });

  const estimate = payload.height ?? minCodeHeight(lines, geometry);
  if (payload.height === undefined) {
    const problem = sizeProblem(estimate + bar + 2 * outer, true);
    if (problem) throw new RenderError(problem, false);
  }

  const highlighted = await highlightCode(lines.join('\n'), payload.language, payload.theme, ctx.timeoutMs * HIGHLIGHT_SHARE);
  const timeoutMs = Math.max(1_000, ctx.timeoutMs - (Date.now() - started));
  const result = await (await ctx.pool('code')).run<PageResult>(({ page, slot }) =>
    withDeadline(slot, timeoutMs, async () => {
      if (route === 'dom') return renderInDom(page, slot, highlighted, payload, estimate);
      const drawn = await evaluateInPage<CanvasCodeResult>(page, slot, pageCall('window.__drawCode', buildCanvasJob(highlighted, payload)));
      // Returned rather than thrown: throwing inside withDeadline would retire a page that is fine.
      if ('tooLarge' in drawn) return { problem: sizeProblem(drawn.height, false) ?? 'The code image is too large' };
      return { image: imageOf(dataUrlBytes(drawn.image), payload, drawn.height, width + 2 * outer) };
    }),
  );
  if ('problem' in result) throw new RenderError(result.problem, false);
  return finishRendered(result.image, plan);
}

const imageOf = (bytes: Buffer, payload: CapturedCode, height: number, width = payload.width): RenderedImage => ({
  bytes,
  format: payload.format,
  mimeType: MimeTypes[payload.format],
  width: Math.round(width * payload.scale),
  height: Math.round(height * payload.scale),
});

/**
 * The DOM route: the highlighted HTML fills the host page's window, and the viewport is captured. The
 * viewport starts at the height the lines need unwrapped (exact for most code), the window is measured
 * after the font loads, and the viewport is resized only if wrapping made it taller.
 */
async function renderInDom(
  page: Page,
  slot: PageSlot,
  highlighted: HighlightedCode,
  payload: CapturedCode,
  estimate: number,
): Promise<PageResult> {
  const { width, scale, format } = payload;
  const { css, rows } = buildCodeContent(highlighted, payload);
  // The window's height does not depend on the viewport's, so keep the current height while measuring:
  // a run of similar jobs then resizes nothing.
  const current = page.viewport();
  const keep = current && current.width === width && current.deviceScaleFactor === scale;
  await applyPageSettings(page, slot, { scriptEnabled: false, width, height: keep ? current.height : estimate, scale });
  const measured = await evaluateInPage<number>(page, slot, pageCall(fillAndMeasure, css, rows, HOST_STYLE_ID, WINDOW_ID));
  const height = payload.height ?? measured;
  if (payload.height === undefined) {
    // Returned rather than thrown: throwing inside withDeadline would retire a page that is fine.
    const problem = codeImageSizeProblem({ width, height, scale, lines: highlighted.lines.length, fontSize: payload.fontSize });
    if (problem) return { problem };
  }
  await applyPageSettings(page, slot, { scriptEnabled: false, width, height, scale });
  // No omitBackground: the code pool's pages already have a transparent default background
  // (prepareCodePage), which spares two DevTools calls per job; JPEG pages paint the theme colour.
  const bytes = await screenshot(page, { type: format, quality: format === 'png' ? undefined : payload.quality });
  return { image: imageOf(bytes, payload, height) };
}
