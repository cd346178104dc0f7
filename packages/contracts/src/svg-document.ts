import { XMLValidator } from 'fast-xml-parser';
import { AppError, type ErrorCode } from './errors.ts';

/**
 * Rejects what is not an SVG document before a job is queued: malformed XML, a root element other than
 * <svg>, and DTD entity declarations (entity expansion is the classic XML bomb / external-entity vector and
 * no real-world SVG needs it). `code` lets a save (400) and a render (422) report the same problem.
 */
export function assertSvgDocument(svg: string, code: ErrorCode = 'INVALID_SVG'): void {
  if (!svg.trimStart().startsWith('<')) {
    throw new AppError(code, 'Invalid SVG: the content is not an SVG document (it must start with <svg> or an XML declaration)');
  }
  const result = XMLValidator.validate(svg, { allowBooleanAttributes: true });
  if (result !== true) {
    const { msg, line, col } = result.err;
    throw new AppError(code, `Invalid SVG: the content is not well-formed XML (${msg} at line ${line}, column ${col})`);
  }
  if (/<!ENTITY/i.test(svg)) {
    throw new AppError(code, 'Invalid SVG: entity declarations (<!ENTITY>) are not allowed');
  }
  const root = rootElementName(svg);
  if (root?.replace(/^[\w.-]+:/, '').toLowerCase() !== 'svg') {
    throw new AppError(code, `Invalid SVG: the root element must be <svg>${root ? `, found <${root}>` : ''}`);
  }
}

/** Name of the first element after the prolog, comments, processing instructions and doctype. */
function rootElementName(xml: string): string | undefined {
  const body = xml
    .replace(/^\uFEFF/, '')
    .replace(/<\?[\s\S]*?\?>/g, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>/i, '');
  return /<([A-Za-z_][\w.:-]*)/.exec(body)?.[1];
}
