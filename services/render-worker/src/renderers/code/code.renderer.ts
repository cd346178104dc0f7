import {
  type CodeRenderPayload,
  codeImageSizeProblem,
  codeLines,
  MimeTypes,
  minCodeHeight,
  normalizeCode,
  visibleLineCount,
} from '@render/contracts';
import { applyPageSettings, screenshot, withDeadline } from '../page-ops.ts';
import { RenderError } from '../render-error.ts';
import type { RenderedImage, Renderer } from '../renderer.ts';
import { highlightCode } from './code-highlighter.ts';
import { buildCodePage, WINDOW_ID } from './code-page.ts';

/**
 * Loads every embedded face (only the ones this page needs are declared) and then measures the window:
 * layout must use the real font before the height is read. A face that fails to load leaves the monospace
 * fallback rather than failing the job. DevTools evaluation runs with page scripts off.
 */
const MEASURE = `Promise.allSettled([...document.fonts].map((f) => f.load())).then(() => Math.ceil(document.getElementById('${WINDOW_ID}').getBoundingClientRect().height))`;

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
  const html = buildCodePage(highlighted, payload);
  const timeoutMs = Math.max(1_000, ctx.timeoutMs - (Date.now() - started));
  const transparent = format !== 'jpeg' && payload.borderRadius > 0;

  const result = await (await ctx.pool('generic')).run<PageResult>(({ page, slot }) =>
    withDeadline(slot, timeoutMs, async () => {
      const settings = { scriptEnabled: false, width, height: estimate, scale };
      await applyPageSettings(page, slot, settings);
      // timeout 0: withDeadline owns the deadline.
      await page.setContent(html, { waitUntil: 'load', timeout: 0 });
      const measured = (await page.evaluate(MEASURE)) as number;
      const height = payload.height ?? measured;
      if (payload.height === undefined) {
        // Returned rather than thrown: throwing inside withDeadline would retire a page that is fine.
        const problem = sizeProblem(height, false);
        if (problem) return { problem };
        await applyPageSettings(page, slot, { ...settings, height });
      }
      const bytes = await screenshot(page, {
        type: format,
        quality: format === 'png' ? undefined : payload.quality,
        omitBackground: transparent,
      });
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
