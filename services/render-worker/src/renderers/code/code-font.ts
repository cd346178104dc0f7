import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * JetBrains Mono from @fontsource, inlined as base64 @font-face rules so the image never depends on the
 * fonts installed on the worker machine. The package splits each face by script (latin, cyrillic, …); a
 * page gets only the subsets its code uses and the styles its tokens use, which keeps plain ASCII code at
 * about 30 KB of font data instead of 240 KB.
 */
export const CODE_FONT_FAMILY = 'JetBrains Mono';

/**
 * Characters JetBrains Mono lacks (box drawing, arrows, maths, ✓ ❯ …) come from DejaVu Sans Mono, installed
 * with the worker's fonts (README, "Fonts"), which draws them one cell wide. It is declared as local() faces
 * whose unicode-range leaves out every emoji-presentation code point: DejaVu's black-and-white ☕ ⚡ ♈ …
 * would otherwise win over the colour emoji font. Those, and CJK, Indic, Thai…, go on to `monospace` and
 * Chromium's per-character fallback (Noto fonts, Noto Color Emoji).
 */
export const CODE_FALLBACK_FAMILY = 'Code Fallback';

/** The font-family list code is drawn with, in CSS and canvas `font` syntax. */
export const CODE_FONT_STACK = `'${CODE_FONT_FAMILY}', '${CODE_FALLBACK_FAMILY}', monospace`;

export interface FontNeeds {
  italic: boolean;
  bold: boolean;
}

interface Face {
  subset: string;
  weight: number;
  italic: boolean;
  ranges: Array<[number, number]>;
  css: string;
}

const STYLE_FILES = ['400.css', '400-italic.css', '700.css', '700-italic.css'];

let faces: Face[] | undefined;

function parseRanges(value: string): Array<[number, number]> {
  return value.split(',').map((part) => {
    const [from, to] = part.trim().replace(/^U\+/i, '').split('-');
    const start = Number.parseInt(from!, 16);
    return [start, to ? Number.parseInt(to, 16) : start];
  });
}

/** Reads the package's CSS and font files once per process. */
function loadFaces(): Face[] {
  if (faces) return faces;
  const root = dirname(createRequire(import.meta.url).resolve('@fontsource/jetbrains-mono/package.json'));
  const loaded: Face[] = [];
  for (const file of STYLE_FILES) {
    const css = readFileSync(join(root, file), 'utf8');
    for (const [, body] of css.matchAll(/@font-face\s*\{([^}]*)\}/g)) {
      const woff2 = /url\(\.\/files\/([\w.-]+\.woff2)\)/.exec(body!)?.[1];
      const weight = Number(/font-weight:\s*(\d+)/.exec(body!)?.[1]);
      const italic = /font-style:\s*italic/.test(body!);
      const range = /unicode-range:\s*([^;]+);/.exec(body!)?.[1];
      if (!woff2 || !range) continue;
      const subset = /jetbrains-mono-(.+)-\d{3}-(?:normal|italic)\.woff2$/.exec(woff2)?.[1] ?? woff2;
      const data = readFileSync(join(root, 'files', woff2)).toString('base64');
      loaded.push({
        subset,
        weight,
        italic,
        ranges: parseRanges(range),
        css:
          `@font-face{font-family:'${CODE_FONT_FAMILY}';font-style:${italic ? 'italic' : 'normal'};font-weight:${weight};` +
          `font-display:block;src:url(data:font/woff2;base64,${data}) format('woff2');unicode-range:${range.trim()}}`,
      });
    }
  }
  if (!loaded.some((f) => f.subset === 'latin')) throw new Error('@fontsource/jetbrains-mono: latin faces not found');
  faces = loaded;
  return faces;
}

/** Subsets whose unicode-range covers a character of `text`; latin always (digits of the gutter). */
export function subsetsFor(text: string): Set<string> {
  const all = loadFaces();
  const needed = new Set(['latin']);
  const seen = new Set<number>();
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x80 || seen.has(cp)) continue;
    seen.add(cp);
    for (const face of all) {
      if (!needed.has(face.subset) && face.ranges.some(([a, b]) => cp >= a && cp <= b)) needed.add(face.subset);
    }
  }
  return needed;
}

const cssCache = new Map<string, string>();

/** The @font-face rules for these subsets and styles; cached, as most jobs ask for the same few sets. */
export function fontFaceCss(subsets: Set<string>, needs: FontNeeds): string {
  const key = `${[...subsets].sort().join(',')}|${needs.italic ? 'i' : ''}${needs.bold ? 'b' : ''}`;
  let css = cssCache.get(key);
  if (css === undefined) {
    css = loadFaces()
      .filter((f) => subsets.has(f.subset) && (!f.italic || needs.italic) && (f.weight === 400 || needs.bold))
      .map((f) => f.css)
      .join('');
    cssCache.set(key, css);
  }
  return css;
}

/** Every face of every subset, for a page that serves all jobs (the browser loads a face only when used). */
export function allFontFaceCss(): string {
  return loadFaces()
    .map((f) => f.css)
    .join('');
}

const FALLBACK_FACES = [
  { weight: 400, italic: false, local: ['DejaVu Sans Mono', 'DejaVuSansMono'] },
  { weight: 700, italic: false, local: ['DejaVu Sans Mono Bold', 'DejaVuSansMono-Bold'] },
  { weight: 400, italic: true, local: ['DejaVu Sans Mono Oblique', 'DejaVuSansMono-Oblique'] },
  { weight: 700, italic: true, local: ['DejaVu Sans Mono Bold Oblique', 'DejaVuSansMono-BoldOblique'] },
];

let fallbackRange: string | undefined;

/** The Basic Multilingual Plane (DejaVu Sans Mono has nothing beyond it) without emoji-presentation code points. */
function fallbackUnicodeRange(): string {
  if (fallbackRange !== undefined) return fallbackRange;
  const ranges: string[] = [];
  const hex = (cp: number) => cp.toString(16).toUpperCase();
  let start = -1;
  for (let cp = 0; cp <= 0x10000; cp++) {
    const keep = cp < 0x10000 && (cp < 0xd800 || cp > 0xdfff) && !/\p{Emoji_Presentation}/u.test(String.fromCodePoint(cp));
    if (keep && start < 0) start = cp;
    if (!keep && start >= 0) {
      ranges.push(start === cp - 1 ? `U+${hex(start)}` : `U+${hex(start)}-${hex(cp - 1)}`);
      start = -1;
    }
  }
  fallbackRange = ranges.join(',');
  return fallbackRange;
}

/** The fallback faces (see CODE_FALLBACK_FAMILY) for these styles; they name installed fonts, so cost no data. */
export function fallbackFontFaceCss(needs: FontNeeds): string {
  return FALLBACK_FACES.filter((f) => (!f.italic || needs.italic) && (f.weight === 400 || needs.bold))
    .map(
      (f) =>
        `@font-face{font-family:'${CODE_FALLBACK_FAMILY}';font-style:${f.italic ? 'italic' : 'normal'};font-weight:${f.weight};` +
        `src:${f.local.map((name) => `local('${name}')`).join(',')};unicode-range:${fallbackUnicodeRange()}}`,
    )
    .join('');
}
