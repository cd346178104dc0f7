import {
  type CodeRenderPayload,
  codeImageSizeProblem,
  codeLines,
  MimeTypes,
  minCodeHeight,
  normalizeCode,
  visibleLineCount,
} from '@render/contracts';
import { applyPageSettings, evaluateInPage, pageCall, screenshot, withDeadline } from '../page-ops.ts';
import { RenderError } from '../render-error.ts';
import type { RenderedImage, Renderer } from '../renderer.ts';
import { highlightCode } from './code-highlighter.ts';
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

/**
 * Code → highlighted HTML in Node (one shiki highlighter per process), then a script-free page on a warm
 * generic page. Auto height: the viewport starts at the height the lines need unwrapped (exact for most
 * code), the window is measured after the font loads, and the viewport is resized only if wrapping made it
 * taller; past `CodeLimits.maxImageHeight` or the pixel budget the job fails with a message naming the limit.
 */
export const renderCode: Renderer<CodeRenderPayload> = async (payload, ctx) => {
  const started = Date.now();
  const { width, fontSize, padding, showLineNumbers, scale, format } = payload;
  let lines = codeLines(normalizeCode(payload.code));
  if (payload.height !== undefined) lines = lines.slice(0, visibleLineCount(payload.height, fontSize, padding));
  const geometry = { width, fontSize, padding, showLineNumbers, lineCount: lines.length };
  const sizeProblem = (height: number, minimum: boolean) =>
    codeImageSizeProblem({ width, height, scale, lines: lines.length, fontSize, minimum });

  const estimate = payload.height ?? minCodeHeight(lines, geometry);
  if (payload.height === undefined) {
    const problem = sizeProblem(estimate, true);
    if (problem) throw new RenderError(problem, false);
  }

  const highlighted = await highlightCode(lines.join('\n'), payload.language, payload.theme, ctx.timeoutMs * HIGHLIGHT_SHARE);
  const { css, rows } = buildCodeContent(highlighted, payload);
  const timeoutMs = Math.max(1_000, ctx.timeoutMs - (Date.now() - started));

  const result = await (await ctx.pool('code')).run<PageResult>(({ page, slot }) =>
    withDeadline(slot, timeoutMs, async () => {
      // The window's height does not depend on the viewport's, so keep the current height while measuring:
      // a run of similar jobs then resizes nothing.
      const current = page.viewport();
      const keep = current && current.width === width && current.deviceScaleFactor === scale;
      await applyPageSettings(page, slot, { scriptEnabled: false, width, height: keep ? current.height : estimate, scale });
      const measured = await evaluateInPage<number>(page, slot, pageCall(fillAndMeasure, css, rows, HOST_STYLE_ID, WINDOW_ID));
      const height = payload.height ?? measured;
      if (payload.height === undefined) {
        // Returned rather than thrown: throwing inside withDeadline would retire a page that is fine.
        const problem = sizeProblem(height, false);
        if (problem) return { problem };
      }
      await applyPageSettings(page, slot, { scriptEnabled: false, width, height, scale });
      // No omitBackground: the code pool's pages already have a transparent default background
      // (prepareCodePage), which spares two DevTools calls per job; JPEG pages paint the theme colour.
      const bytes = await screenshot(page, { type: format, quality: format === 'png' ? undefined : payload.quality });
      return {
        image: {
          bytes,
          format,
          mimeType: MimeTypes[format],
          width: Math.round(width * scale),
          height: Math.round(height * scale),
        },
      };
    }),
  );
  if ('problem' in result) throw new RenderError(result.problem, false);
  return result.image;
};
