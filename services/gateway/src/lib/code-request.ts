import {
  AppError,
  type CodeConvertBody,
  CodeLayout,
  type CodeRenderPayload,
  codeImageSizeProblem,
  codeLines,
  codeTextWidth,
  minCodeHeight,
  normalizeCode,
  visibleLineCount,
} from '@render/contracts';
import { resolveCodeLanguage, resolveCodeTheme } from './code-catalog.ts';
import { assertPixelBudget } from './image-reply.ts';

/**
 * Turns a validated request into the job payload, refusing here everything that can be known without a
 * browser (unknown language or theme, no room for code, an auto height certainly over the limit), so such
 * requests never occupy a worker.
 */
export function prepareCodePayload(body: CodeConvertBody): CodeRenderPayload {
  const { width, fontSize, padding, showLineNumbers, scale } = body;
  let code = normalizeCode(body.code);
  if (!code.trim()) throw new AppError('VALIDATION_ERROR', 'Please enter some code');
  const language = resolveCodeLanguage(body.language);
  const theme = resolveCodeTheme(body.theme);
  const height = body.height === 'auto' ? undefined : body.height;

  let lines = codeLines(code);
  if (height !== undefined) {
    assertPixelBudget(width, height, scale);
    const visible = visibleLineCount(height, fontSize, padding);
    if (lines.length > visible) {
      lines = lines.slice(0, visible);
      code = lines.join('\n');
    }
  }

  const geometry = { width, fontSize, padding, showLineNumbers, lineCount: lines.length };
  if (codeTextWidth(geometry) < fontSize * CodeLayout.charWidthRatio) {
    throw new AppError(
      'VALIDATION_ERROR',
      `width ${width} leaves no room for code after padding${showLineNumbers ? ' and line numbers' : ''}; use a larger width or a smaller padding or fontSize`,
    );
  }
  if (height === undefined) {
    const problem = codeImageSizeProblem({
      width,
      height: minCodeHeight(lines, geometry),
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
    fontSize,
    padding,
    borderRadius: body.borderRadius,
    showLineNumbers,
    scale,
  };
}
