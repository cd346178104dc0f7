import { readFileSync } from 'node:fs';
import { CodeLayout, CodeLimits, type CodeRenderPayload, codeLineHeight, RenderLimits } from '@render/contracts';
import type { ThemedToken } from 'shiki';
import { CODE_FONT_STACK } from './code-font.ts';
import type { HighlightedCode } from './code-highlighter.ts';
import { type CodePageOptions, FontStyle, tokenColors } from './code-page.ts';

/** The source of `window.__drawCode` (code-canvas.browser.js), read once per process. */
let source: string | undefined;
export const codeCanvasSource = () => {
  source ??= readFileSync(new URL('./code-canvas.browser.js', import.meta.url), 'utf8');
  return source;
};

/** A token style as the canvas draws it; index 0 is the theme's plain text. */
export interface CanvasStyle {
  color?: string;
  background?: string;
  italic?: boolean;
  bold?: boolean;
  underline?: boolean;
  strikethrough?: boolean;
}

/** What `window.__drawCode` receives: plain JSON, tokens as [text, style index] pairs to keep it small. */
export interface CanvasCodeJob {
  lines: Array<Array<[string, number]>>;
  styles: CanvasStyle[];
  fg: string;
  bg: string;
  lineNumberColor: string;
  width: number;
  /** Explicit height (crop or pad), or null for auto. */
  height: number | null;
  fontSize: number;
  lineHeight: number;
  padding: number;
  borderRadius: number;
  showLineNumbers: boolean;
  scale: number;
  format: CodeRenderPayload['format'];
  quality: number;
  /** The font-family list (code-font.ts), as a canvas `font` ends. */
  family: string;
  tabSize: number;
  gutterGapChars: number;
  /** Auto height past these answers { tooLarge } instead of an image (the renderer names the limit). */
  maxImageHeight: number;
  maxPixels: number;
  /** The frame (absent: none). `height` and `width` above are the window's; the image adds 2 × outerPadding. */
  window?: CodeRenderPayload['window'];
  windowBarHeight: number;
  background?: CodeRenderPayload['background'];
  outerPadding: number;
  shadow: boolean;
  highlightLines: Array<[number, number]>;
  firstLineNumber: number;
}

export type CanvasCodeResult = { image: string; height: number } | { height: number; tooLarge: true };

/**
 * Right-to-left scripts and bidi controls: their visual order needs the browser's bidi layout, which the
 * canvas (drawing token after token, left to right) does not do; such code takes the DOM route.
 */
const NEEDS_BIDI = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff\u200e\u200f\u202a-\u202e\u2066-\u2069\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;

export const needsDomLayout = (code: string) => NEEDS_BIDI.test(code);

export function buildCanvasJob(
  highlighted: HighlightedCode,
  opts: CodePageOptions &
    Pick<
      CodeRenderPayload,
      'scale' | 'quality' | 'window' | 'background' | 'outerPadding' | 'shadow' | 'highlightLines' | 'firstLineNumber'
    >,
): CanvasCodeJob {
  const styles: CanvasStyle[] = [{}];
  const index = new Map<string, number>();
  const styleOf = (token: ThemedToken): number => {
    const { color, background, fontStyle } = tokenColors(token, highlighted.fg);
    if (!color && !background && !fontStyle) return 0;
    const key = `${color}|${background}|${fontStyle}`;
    let i = index.get(key);
    if (i === undefined) {
      i = styles.length;
      index.set(key, i);
      styles.push({
        ...(color ? { color } : {}),
        ...(background ? { background } : {}),
        ...(fontStyle & FontStyle.Italic ? { italic: true } : {}),
        ...(fontStyle & FontStyle.Bold ? { bold: true } : {}),
        ...(fontStyle & FontStyle.Underline ? { underline: true } : {}),
        ...(fontStyle & FontStyle.Strikethrough ? { strikethrough: true } : {}),
      });
    }
    return i;
  };
  const lines = highlighted.lines.map((line) => line.filter((t) => t.content).map((t): [string, number] => [t.content, styleOf(t)]));
  return {
    lines,
    styles,
    fg: highlighted.fg,
    bg: highlighted.bg,
    lineNumberColor: highlighted.lineNumberColor,
    width: opts.width,
    height: opts.height ?? null,
    fontSize: opts.fontSize,
    lineHeight: codeLineHeight(opts.fontSize),
    padding: opts.padding,
    borderRadius: opts.borderRadius,
    showLineNumbers: opts.showLineNumbers,
    scale: opts.scale,
    format: opts.format,
    quality: opts.quality,
    family: CODE_FONT_STACK,
    tabSize: CodeLayout.tabSize,
    gutterGapChars: CodeLayout.gutterGapChars,
    maxImageHeight: CodeLimits.maxImageHeight,
    maxPixels: RenderLimits.maxPixels,
    ...(opts.window ? { window: opts.window } : {}),
    windowBarHeight: CodeLayout.windowBarHeight,
    ...(opts.background ? { background: opts.background } : {}),
    outerPadding: opts.outerPadding ?? 0,
    shadow: opts.shadow ?? false,
    highlightLines: opts.highlightLines ?? [],
    firstLineNumber: opts.firstLineNumber ?? 1,
  };
}
