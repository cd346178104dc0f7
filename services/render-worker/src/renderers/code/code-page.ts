import { CodeLayout, type CodeRenderPayload, codeLineHeight } from '@render/contracts';
import type { ThemedToken } from 'shiki';
import { allFontFaceCss, CODE_FONT_STACK, fallbackFontFaceCss, fontFaceCss, subsetsFor } from './code-font.ts';
import type { HighlightedCode } from './code-highlighter.ts';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

const HEX = /^#[0-9a-f]{3,8}$/i;

/** TextMate's font-style bit flags, as in shiki tokens' `fontStyle` (the enum is not exported as a value). */
export const FontStyle = { Italic: 1, Bold: 2, Underline: 4, Strikethrough: 8 } as const;

/** What a token changes from the theme's plain text: only valid hex colours, and the colour only if it differs. */
export function tokenColors(token: ThemedToken, fg: string): { color?: string; background?: string; fontStyle: number } {
  const color = token.color && HEX.test(token.color) && token.color.toLowerCase() !== fg.toLowerCase() ? token.color : undefined;
  const background = token.bgColor && HEX.test(token.bgColor) ? token.bgColor : undefined;
  return { color, background, fontStyle: token.fontStyle && token.fontStyle > 0 ? token.fontStyle : 0 };
}

/** Element id of the code window, which the renderer measures for auto height. */
export const WINDOW_ID = 'w';

export type CodePageOptions = Pick<
  CodeRenderPayload,
  'width' | 'height' | 'fontSize' | 'padding' | 'borderRadius' | 'showLineNumbers' | 'format'
>;

/**
 * A self-contained, script-free document: every piece of code is text (escaped), every style inline, the
 * font embedded. Token styles become a handful of classes rather than one inline style per token, which
 * keeps a 1,000-line page small to send and quick to parse.
 *
 * The image is the window itself: the theme background with rounded corners. Outside the corners the page
 * is transparent for PNG and WebP (the renderer omits the default white) and the theme background for
 * JPEG, which has no alpha. Long lines wrap (`pre-wrap`, breaking anywhere if a word is longer than a row)
 * with the line number on the line's first row. With `height`, the window is exactly that tall: longer
 * code is cropped, shorter code padded.
 */
export interface CodeContent {
  /** Layout and token styles, without fonts. */
  css: string;
  /** The window's rows (escaped text). */
  rows: string;
  fonts: { subsets: Set<string>; italic: boolean; bold: boolean };
}

export function buildCodeContent(highlighted: HighlightedCode, opts: CodePageOptions): CodeContent {
  const { lines, fg, bg, lineNumberColor } = highlighted;
  const lineHeight = codeLineHeight(opts.fontSize);
  const classes = new Map<string, number>();
  const rules: string[] = [];
  let italic = false;
  let bold = false;

  const classOf = (token: ThemedToken): number | undefined => {
    const { color, background, fontStyle: style } = tokenColors(token, fg);
    if (!color && !background && !style) return undefined;
    const key = `${color}|${background}|${style}`;
    let index = classes.get(key);
    if (index === undefined) {
      index = classes.size;
      classes.set(key, index);
      const decls: string[] = [];
      if (color) decls.push(`color:${color}`);
      if (background) decls.push(`background:${background}`);
      if (style & FontStyle.Italic) {
        decls.push('font-style:italic');
        italic = true;
      }
      if (style & FontStyle.Bold) {
        decls.push('font-weight:700');
        bold = true;
      }
      const decorations = [style & FontStyle.Underline ? 'underline' : '', style & FontStyle.Strikethrough ? 'line-through' : ''].filter(
        Boolean,
      );
      if (decorations.length) decls.push(`text-decoration:${decorations.join(' ')}`);
      rules.push(`.t${index}{${decls.join(';')}}`);
    }
    return index;
  };

  const digits = String(lines.length).length;
  const rows: string[] = [];
  let text = '';
  for (let n = 0; n < lines.length; n++) {
    let html = '';
    for (const token of lines[n]!) {
      if (!token.content) continue;
      text += token.content;
      const cls = classOf(token);
      const content = escapeHtml(token.content);
      html += cls === undefined ? content : `<span class="t${cls}">${content}</span>`;
    }
    rows.push(opts.showLineNumbers ? `<div class="l"><span class="n">${n + 1}</span><span class="c">${html}</span></div>` : html);
  }
  // Without a gutter the lines need no boxes of their own: one pre-wrap block gives the same pixels and
  // lays out in about two thirds of the time. A final line break makes no line there, so an empty last
  // line gets a second one.
  const body = opts.showLineNumbers ? rows.join('') : `<div class="c">${rows.join('\n')}${rows.at(-1) === '' ? '\n' : ''}</div>`;

  const transparentCorners = opts.format !== 'jpeg';
  const windowHeight = opts.height === undefined ? '' : `height:${opts.height}px;`;
  const css =
    // overflow hidden on the root: no scrollbar may take width from the code while the height is measured.
    `html,body{margin:0;padding:0;overflow:hidden;background:${transparentCorners ? 'transparent' : bg}}` +
    `#${WINDOW_ID}{box-sizing:border-box;width:${opts.width}px;${windowHeight}overflow:hidden;padding:${opts.padding}px;` +
    `background:${bg};color:${fg};border-radius:${opts.borderRadius}px;` +
    `font-family:${CODE_FONT_STACK};font-size:${opts.fontSize}px;line-height:${lineHeight}px;` +
    // Ligatures would merge characters (!= → ≠) and break the one-glyph-per-character grid.
    `font-variant-ligatures:none;font-feature-settings:"liga" 0,"calt" 0;tab-size:${CodeLayout.tabSize}}` +
    `.l{display:flex;min-height:${lineHeight}px}` +
    `.n{flex:none;width:${digits}ch;margin-right:${CodeLayout.gutterGapChars}ch;text-align:right;color:${lineNumberColor};user-select:none}` +
    '.c{flex:1 1 auto;min-width:0;white-space:pre-wrap;overflow-wrap:anywhere}' +
    rules.join('');

  return { css, rows: body, fonts: { subsets: subsetsFor(text), italic, bold } };
}

/** A self-contained document for one job (fonts limited to what the code uses). */
export function buildCodePage(highlighted: HighlightedCode, opts: CodePageOptions): string {
  const { css, rows, fonts } = buildCodeContent(highlighted, opts);
  return `<!doctype html><html><head><meta charset="utf-8"><style>${fontFaceCss(fonts.subsets, fonts)}${fallbackFontFaceCss(fonts)}${css}</style></head><body><div id="${WINDOW_ID}">${rows}</div></body></html>`;
}

/** Element ids of the code pool's host page, whose fonts stay loaded between jobs. */
export const HOST_STYLE_ID = 's';

/**
 * The code pool's warm page: every embedded face declared once (the browser decodes a face only when text
 * uses it, and then keeps it), and an empty style and window a job fills in with one DevTools call.
 */
export function codeHostHtml(): string {
  return `<!doctype html><html><head><meta charset="utf-8"><style>${allFontFaceCss()}${fallbackFontFaceCss({ italic: true, bold: true })}</style><style id="${HOST_STYLE_ID}"></style></head><body><div id="${WINDOW_ID}"></div></body></html>`;
}
