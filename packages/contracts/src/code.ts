import { type Static, Type } from '@sinclair/typebox';
import { dimension, outputMode, quality, RasterFormats, RenderLimits, scaleField } from './render.ts';
import { boundedInteger, StringEnum, withMessages } from './schema-helpers.ts';

/** Spec §9: the API docs' defaults (the demo page starts on vs2015, which is accepted as a theme alias). */
export const CodeDefaults = {
  width: 800,
  fontSize: 14,
  padding: 20,
  borderRadius: 5,
  quality: 90,
  language: 'javascript',
  theme: 'monokai',
} as const;

export const CodeLimits = {
  maxCodeLength: 200_000,
  minFontSize: 8,
  maxFontSize: 72,
  maxPadding: 200,
  maxBorderRadius: 100,
  /**
   * Tallest image auto height may produce, in image pixels (height × scale): bounds one job's memory and
   * encode time (the pixel budget alone would allow 50 × 320,000), and nobody reads a longer code image.
   * An explicit `height` crops instead.
   */
  maxImageHeight: 16_000,
} as const;

/**
 * Theme names other tools use that shiki does not bundle, mapped to the closest bundled theme. `vs2015`
 * (highlight.js's Visual Studio dark, the demo page's default) has the same #1E1E1E background and palette
 * family as VS Code's `dark-plus`.
 */
export const CodeThemeAliases: Readonly<Record<string, string>> = {
  vs2015: 'dark-plus',
  vs: 'light-plus',
  'vs-dark': 'dark-plus',
  github: 'github-light',
  'atom-one-dark': 'one-dark-pro',
  'atom-one-light': 'one-light',
};

/**
 * Layout constants shared by the gateway's size check and the worker's page, so both compute the same
 * geometry. JetBrains Mono (the bundled font) advances every glyph by 0.6 em.
 */
export const CodeLayout = {
  lineHeightRatio: 1.5,
  charWidthRatio: 0.6,
  /** Space between the line-number gutter and the code, in characters. */
  gutterGapChars: 2,
  tabSize: 4,
} as const;

export const codeLineHeight = (fontSize: number) => Math.round(fontSize * CodeLayout.lineHeightRatio);

/** One newline convention, and no trailing blank lines (they would only add empty rows at the bottom). */
export const normalizeCode = (code: string) => code.replace(/\r\n?/g, '\n').trimEnd();

export const codeLines = (code: string) => code.split('\n');

export interface CodeGeometry {
  width: number;
  fontSize: number;
  padding: number;
  showLineNumbers: boolean;
  lineCount: number;
}

/** Width left for code after padding and the gutter (CSS px); ≤ 0 means not even one character fits. */
export function codeTextWidth(g: CodeGeometry): number {
  const charWidth = g.fontSize * CodeLayout.charWidthRatio;
  const gutter = g.showLineNumbers ? (String(g.lineCount).length + CodeLayout.gutterGapChars) * charWidth : 0;
  return g.width - 2 * g.padding - gutter;
}

/**
 * A lower bound of the rendered height (CSS px) with wrapping: every line takes at least one row, and its
 * non-space ASCII characters (exactly 0.6 em wide in the bundled font) need at least their width in rows.
 * Spaces may hang at a row's end and other scripts may fall back to narrower fonts, so they count as zero.
 */
export function minCodeHeight(lines: readonly string[], g: CodeGeometry): number {
  const charWidth = g.fontSize * CodeLayout.charWidthRatio;
  // +1: never claim more rows than Chromium could produce, whatever its sub-pixel rounding.
  const maxCharsPerRow = Math.max(1, Math.floor(codeTextWidth(g) / charWidth) + 1);
  let rows = 0;
  for (const line of lines) {
    let visible = 0;
    for (let i = 0; i < line.length; i++) {
      const c = line.charCodeAt(i);
      if (c > 0x20 && c < 0x7f) visible++;
    }
    rows += Math.max(1, Math.ceil(visible / maxCharsPerRow));
  }
  return rows * codeLineHeight(g.fontSize) + 2 * g.padding;
}

/**
 * Lines that can show inside an explicit `height` (every line takes at least one row); the rest would be
 * cropped anyway, so neither the queue nor the highlighter needs them.
 */
export const visibleLineCount = (height: number, fontSize: number, padding: number) =>
  Math.max(1, Math.ceil(Math.max(0, height - padding) / codeLineHeight(fontSize)));

const fmt = (n: number) => n.toLocaleString('en-US');

/**
 * Why an auto-height image of this size cannot be made, naming the limit; undefined when it fits. `minimum`
 * marks a lower-bound estimate (the gateway's, before anything is wrapped) rather than a measurement.
 */
export function codeImageSizeProblem(size: {
  width: number;
  height: number;
  scale: number;
  lines: number;
  fontSize: number;
  minimum?: boolean;
}): string | undefined {
  const imageWidth = Math.round(size.width * size.scale);
  const imageHeight = Math.round(size.height * size.scale);
  const would = size.minimum ? 'would be at least' : 'would be';
  const detail = `${fmt(size.lines)} lines at fontSize ${size.fontSize}${size.scale === 1 ? '' : `, scale ${size.scale}`}`;
  if (imageHeight > CodeLimits.maxImageHeight) {
    return (
      `The code image ${would} ${fmt(imageHeight)} px tall (${detail}); auto height is limited to ${fmt(CodeLimits.maxImageHeight)} px. ` +
      'Use a smaller fontSize or scale, shorten the code, or set height to crop it'
    );
  }
  if (imageWidth * imageHeight > RenderLimits.maxPixels) {
    return (
      `The code image ${would} ${fmt(imageWidth)} × ${fmt(imageHeight)} px (${detail}), above the ${fmt(RenderLimits.maxPixels)}-pixel limit. ` +
      'Use a smaller width, fontSize or scale, or set height to crop it'
    );
  }
  return undefined;
}

const heightField = () => {
  const messages = {
    type: `height must be "auto" or a whole number between ${RenderLimits.minDimension} and ${RenderLimits.maxDimension}`,
    range: `height must be between ${RenderLimits.minDimension} and ${RenderLimits.maxDimension}`,
  };
  // The integer branch comes first so Ajv's first error (the one the error handler reports) carries these messages.
  return withMessages(
    Type.Union(
      [
        withMessages(Type.Integer({ minimum: RenderLimits.minDimension, maximum: RenderLimits.maxDimension }), messages),
        Type.Literal('auto'),
      ],
      { description: 'Image height in CSS pixels; omit (or "auto") to fit the code, or give a number to crop or pad to it' },
    ),
    messages,
  );
};

const fontSizeField = () =>
  boundedInteger('fontSize', {
    min: CodeLimits.minFontSize,
    max: CodeLimits.maxFontSize,
    default: CodeDefaults.fontSize,
    description: 'Font size in CSS pixels; lines are 1.5× as tall',
  });

const paddingField = () =>
  boundedInteger('padding', {
    min: 0,
    max: CodeLimits.maxPadding,
    default: CodeDefaults.padding,
    description: 'Space between the window edge and the code',
  });

const borderRadiusField = () =>
  boundedInteger('borderRadius', {
    min: 0,
    max: CodeLimits.maxBorderRadius,
    default: CodeDefaults.borderRadius,
    description: 'Corner radius of the window; the corners outside it are transparent in PNG and WebP',
  });

const formatField = () =>
  withMessages(StringEnum(RasterFormats, { default: 'png' }), {
    enum: 'format must be one of: png, jpeg, webp',
    type: 'format must be one of: png, jpeg, webp',
  });

const codeMessages = {
  required: 'Please enter some code',
  minLength: 'Please enter some code',
  type: 'Please enter some code',
  maxLength: `code must be at most ${CodeLimits.maxCodeLength} characters`,
};

export const CodeConvertBody = Type.Object(
  {
    code: withMessages(
      Type.String({ minLength: 1, maxLength: CodeLimits.maxCodeLength, description: 'Source code to highlight' }),
      codeMessages,
    ),
    language: withMessages(
      Type.String({
        minLength: 1,
        maxLength: 64,
        default: CodeDefaults.language,
        description:
          'A shiki language id or alias, case-insensitive (e.g. typescript, ts, python, go, text); GET /api/code-to-img/languages lists them, and any other name is a 400',
      }),
      { type: 'language must be a string such as typescript', minLength: 'language must not be empty', maxLength: 'language is too long' },
    ),
    theme: withMessages(
      Type.String({
        minLength: 1,
        maxLength: 64,
        default: CodeDefaults.theme,
        description:
          'A shiki theme, case-insensitive (e.g. monokai, github-dark, dracula) or an alias: vs2015 → dark-plus, vs → light-plus, github → github-light; GET /api/code-to-img/languages lists them, and any other name is a 400',
      }),
      { type: 'theme must be a string such as monokai', minLength: 'theme must not be empty', maxLength: 'theme is too long' },
    ),
    format: formatField(),
    width: dimension('width', CodeDefaults.width),
    height: Type.Optional(heightField()),
    quality: quality(CodeDefaults.quality),
    outputType: outputMode('outputType'),
    fontSize: fontSizeField(),
    padding: paddingField(),
    borderRadius: borderRadiusField(),
    showLineNumbers: withMessages(Type.Boolean({ default: true, description: 'Show a line-number gutter' }), {
      type: 'showLineNumbers must be true or false',
    }),
    scale: scaleField(),
  },
  { $id: 'CodeConvertBody', additionalProperties: true },
);
export type CodeConvertBody = Static<typeof CodeConvertBody>;

/**
 * What the worker gets: language and theme already resolved to shiki's canonical ids, the code normalised
 * (and cut to the visible lines when `height` is given), `height` absent for auto.
 */
export const CodeRenderPayload = Type.Object(
  {
    code: Type.String({ minLength: 1, maxLength: CodeLimits.maxCodeLength }),
    language: Type.String({ minLength: 1, maxLength: 64 }),
    theme: Type.String({ minLength: 1, maxLength: 64 }),
    format: formatField(),
    width: Type.Integer({ minimum: RenderLimits.minDimension, maximum: RenderLimits.maxDimension }),
    height: Type.Optional(Type.Integer({ minimum: RenderLimits.minDimension, maximum: RenderLimits.maxDimension })),
    quality: Type.Integer({ minimum: RenderLimits.minQuality, maximum: RenderLimits.maxQuality }),
    fontSize: Type.Integer({ minimum: CodeLimits.minFontSize, maximum: CodeLimits.maxFontSize }),
    padding: Type.Integer({ minimum: 0, maximum: CodeLimits.maxPadding }),
    borderRadius: Type.Integer({ minimum: 0, maximum: CodeLimits.maxBorderRadius }),
    showLineNumbers: Type.Boolean(),
    scale: Type.Number({ minimum: RenderLimits.minScale, maximum: RenderLimits.maxScale }),
  },
  { additionalProperties: false },
);
/** The same schema under the name `@render/queue` registers the code job with. */
export const CodeRenderPayloadWithHeight = CodeRenderPayload;
export type CodeRenderPayload = Static<typeof CodeRenderPayload>;

export const CodeCatalogResponse = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object({
      languages: Type.Array(Type.String(), { description: 'shiki language ids (aliases such as ts or py are accepted too)' }),
      themes: Type.Array(Type.String(), { description: 'shiki theme ids' }),
      themeAliases: Type.Record(Type.String(), Type.String(), { description: 'Extra theme names and the shiki theme they render with' }),
    }),
  },
  { $id: 'CodeCatalogResponse' },
);
export type CodeCatalogResponse = Static<typeof CodeCatalogResponse>;
