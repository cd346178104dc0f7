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
  // The validator below lets these through, and an SVG answer holding one would not parse.
  const forbidden = xmlForbiddenCharacter(svg);
  if (forbidden) {
    const line = svg.slice(0, forbidden.index).split('\n').length;
    const column = forbidden.index - svg.lastIndexOf('\n', forbidden.index - 1);
    throw new AppError(
      code,
      `Invalid SVG: the content contains ${forbidden.name} at line ${line}, column ${column}, a character XML does not allow`,
    );
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

/**
 * What XML 1.0 (§2.2, `Char`) does not allow anywhere in a document: C0 controls other than tab, LF and CR,
 * U+FFFE, U+FFFF, and surrogates not part of a pair (no character at all; UTF-8 cannot carry them).
 */
const XML_FORBIDDEN =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding these control characters is the point.
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const XML_FORBIDDEN_ALL = new RegExp(XML_FORBIDDEN.source, 'g');

/** `text` without the characters XML forbids (they draw nothing): for markup built from the caller's data. */
export const withoutXmlForbiddenCharacters = (text: string) => text.replace(XML_FORBIDDEN_ALL, '');

/** The first character of `text` that XML forbids: where it is (UTF-16 index) and its name ("U+000B"). */
export function xmlForbiddenCharacter(text: string): { index: number; name: string } | undefined {
  const match = XML_FORBIDDEN.exec(text);
  if (!match) return undefined;
  const unit = match[0].charCodeAt(0);
  const hex = `U+${unit.toString(16).toUpperCase().padStart(4, '0')}`;
  const name = unit === 0 ? `${hex} (NUL)` : unit >= 0xd800 && unit <= 0xdfff ? `a lone surrogate (${hex})` : hex;
  return { index: match.index, name };
}
