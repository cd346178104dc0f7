import {
  AppError,
  CODE_FRAMED_OUTER_PADDING,
  type CodeConvertBody,
  CodeLayout,
  CodeLimits,
  type CodeRenderPayload,
  codeFrame,
  codeImageSizeProblem,
  codeLines,
  codeTextWidth,
  minCodeHeight,
  normalizeCode,
  visibleLineCount,
} from '@render/contracts';
import { assertPixelBudget } from '../images/image-reply.ts';
import { resolveCodeLanguage, resolveCodeTheme } from './code-catalog.ts';

/**
 * Turns a validated request into the job payload, refusing here everything that can be known without a
 * browser (unknown language or theme, no room for code, an auto height certainly over the limit), so such
 * requests never occupy a worker.
 */
export function prepareCodePayload(body: CodeConvertBody): CodeRenderPayload {
  const { width, fontSize, padding, showLineNumbers, scale } = body;
  const frame = prepareFrame(body);
  const { bar, outer } = codeFrame(frame);
  const firstLineNumber = body.firstLineNumber;
  let code = normalizeCode(body.code);
  if (!code.trim()) throw new AppError('VALIDATION_ERROR', 'Please enter some code');
  const language = resolveCodeLanguage(body.language);
  const theme = resolveCodeTheme(body.theme);
  const height = body.height === 'auto' ? undefined : body.height;

  let lines = codeLines(code);
  if (height !== undefined) {
    assertPixelBudget(width + 2 * outer, height + 2 * outer, scale);
    const visible = visibleLineCount(height - bar, fontSize, padding);
    if (lines.length > visible) {
      lines = lines.slice(0, visible);
      code = lines.join('\n');
    }
  }

  const geometry = { width, fontSize, padding, showLineNumbers, lineCount: lines.length, firstLineNumber };
  if (codeTextWidth(geometry) < fontSize * CodeLayout.charWidthRatio) {
    throw new AppError(
      'VALIDATION_ERROR',
      `width ${width} leaves no room for code after padding${showLineNumbers ? ' and line numbers' : ''}; use a larger width or a smaller padding or fontSize`,
    );
  }
  if (height === undefined) {
    const problem = codeImageSizeProblem({
      width: width + 2 * outer,
      height: minCodeHeight(lines, geometry) + bar + 2 * outer,
      scale,
      lines: lines.length,
      fontSize,
      minimum: true,
    });
    if (problem) throw new AppError('VALIDATION_ERROR', problem);
  }

  return {
    code,
    language,
    theme,
    format: body.format,
    width,
    ...(height === undefined ? {} : { height }),
    quality: body.quality,
    ...(body.optimize ? { optimize: true } : {}),
    fontSize,
    padding,
    borderRadius: body.borderRadius,
    showLineNumbers,
    scale,
    ...frame,
    ...(firstLineNumber === 1 ? {} : { firstLineNumber }),
  };
}

type Frame = Pick<CodeRenderPayload, 'window' | 'background' | 'outerPadding' | 'shadow' | 'highlightLines'>;

/**
 * The frame options in the job's terms, each left out when it changes nothing (so a plain request's job is
 * what it always was); refuses what the schema alone cannot: a title without a bar, two backgrounds, a
 * transparent surround in JPEG, reversed ranges.
 */
function prepareFrame(body: CodeConvertBody): Frame {
  const frame: Frame = {};
  const window = body.window;
  if (window && window.style !== 'none') {
    frame.window = { style: window.style, ...(window.title?.trim() ? { title: window.title.trim() } : {}) };
  } else if (window?.title?.trim()) {
    throw new AppError('VALIDATION_ERROR', 'window.title needs a window bar: set window.style to mac or windows');
  }

  const background = body.background;
  if (background) {
    if (background.color && background.gradient) {
      throw new AppError('VALIDATION_ERROR', 'background takes either color or gradient, not both');
    }
    if (background.color) frame.background = { color: background.color };
    else if (background.gradient) frame.background = { gradient: background.gradient };
  }
  if (body.shadow) frame.shadow = true;
  const outer = body.outerPadding ?? (frame.background || frame.shadow ? CODE_FRAMED_OUTER_PADDING : 0);
  if (outer > 0) frame.outerPadding = outer;
  if (outer > 0 && !frame.background && body.format === 'jpeg') {
    throw new AppError(
      'VALIDATION_ERROR',
      'JPEG has no transparency: give background.color or background.gradient for the space around the window, or use png, webp or avif',
    );
  }

  if (body.highlightLines?.length) {
    frame.highlightLines = body.highlightLines.map((entry): [number, number] => {
      if (typeof entry === 'number') return [entry, entry];
      const [from, to] = entry.split('-').map(Number) as [number, number];
      if (from < 1 || to > CodeLimits.maxLineNumber || from > to) {
        throw new AppError(
          'VALIDATION_ERROR',
          `highlightLines range "${entry}" must run from a smaller to a larger line number, between 1 and ${CodeLimits.maxLineNumber}`,
        );
      }
      return [from, to];
    });
  }
  return frame;
}
