import { type Static, Type } from 'typebox';
import {
  cacheField,
  dimension,
  formatMessages,
  optimizeField,
  outputFields,
  quality,
  RasterFormats,
  RenderLimits,
  scaleField,
} from './render.ts';
import { boundedInteger, StringEnum, withMessages } from './schema-helpers.ts';
import { webhookField } from './webhook.ts';

/** docs/spec/limits.md: the API docs' defaults (the demo page starts on vs2015, which is accepted as a theme alias). */
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
  maxOuterPadding: 200,
  maxTitleLength: 100,
  maxHighlightRanges: 50,
  maxLineNumber: 1_000_000,
} as const;

/** Window styles drawn above the code; `none` (the default) draws no bar. */
export const CodeWindowStyles = ['mac', 'windows', 'none'] as const;
export type CodeWindowStyle = (typeof CodeWindowStyles)[number];

/** outerPadding when a background or shadow is asked for without one (a frame needs room to show). */
export const CODE_FRAMED_OUTER_PADDING = 48;

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
  /** Height of the window bar (mac or windows style), in CSS px, inside the code card. */
  windowBarHeight: 36,
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
  /** The number the gutter starts at (default 1): the gutter is as wide as the last number shown. */
  firstLineNumber?: number;
}

/** Digits of the widest gutter number. */
export const gutterDigits = (lineCount: number, firstLineNumber = 1) => String(firstLineNumber + lineCount - 1).length;

/** Width left for code after padding and the gutter (CSS px); ≤ 0 means not even one character fits. */
export function codeTextWidth(g: CodeGeometry): number {
  const charWidth = g.fontSize * CodeLayout.charWidthRatio;
  const gutter = g.showLineNumbers ? (gutterDigits(g.lineCount, g.firstLineNumber) + CodeLayout.gutterGapChars) * charWidth : 0;
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

/** The frame around a job's code window: the bar inside the window's height, outerPadding on every side. */
export const codeFrame = (p: { window?: { style: string }; outerPadding?: number }) => ({
  bar: p.window ? CodeLayout.windowBarHeight : 0,
  outer: p.outerPadding ?? 0,
});

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
    description: 'Corner radius of the window; the corners outside it are transparent in PNG, WebP and AVIF',
  });

const formatField = () => withMessages(StringEnum(RasterFormats, { default: 'png' }), formatMessages(RasterFormats));

const hexColor = (field: string, description: string, required?: string) =>
  withMessages(Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description }), {
    type: `${field} must be a colour such as #1e3a8a`,
    format: `${field} must be a colour such as #1e3a8a`,
    ...(required ? { required } : {}),
  });

const GRADIENT_NEEDS = 'background.gradient needs from and to colours';

const windowField = () =>
  withMessages(
    Type.Object(
      {
        style: withMessages(
          StringEnum(CodeWindowStyles, {
            default: 'mac',
            description: 'mac: three traffic-light dots; windows: minimise, maximise and close controls; none: no bar',
          }),
          { enum: 'window.style must be one of: mac, windows, none', type: 'window.style must be one of: mac, windows, none' },
        ),
        title: Type.Optional(
          withMessages(
            Type.String({
              maxLength: CodeLimits.maxTitleLength,
              description: 'A file name or title centred in the bar (needs style mac or windows)',
            }),
            { type: 'window.title must be a string', maxLength: `window.title must be at most ${CodeLimits.maxTitleLength} characters` },
          ),
        ),
      },
      {
        additionalProperties: false,
        description: `A window bar (${CodeLayout.windowBarHeight} px, part of the window's height) above the code, as carbon and ray.so draw it`,
      },
    ),
    { type: 'window must be an object such as { "style": "mac", "title": "app.ts" }' },
  );

const backgroundField = () =>
  withMessages(
    Type.Object(
      {
        color: Type.Optional(hexColor('background.color', 'A solid colour, #rrggbb')),
        gradient: Type.Optional(
          withMessages(
            Type.Object(
              {
                from: hexColor('background.gradient.from', 'Start colour, #rrggbb', GRADIENT_NEEDS),
                to: hexColor('background.gradient.to', 'End colour, #rrggbb', GRADIENT_NEEDS),
                angle: boundedInteger('background.gradient.angle', {
                  min: 0,
                  max: 360,
                  default: 135,
                  description: 'Direction in degrees, as CSS linear-gradient: 0 runs upwards, 90 to the right, 135 to the bottom right',
                }),
              },
              {
                additionalProperties: false,
                description:
                  'A linear gradient { from, to, angle }: two #rrggbb colours and a direction in degrees as CSS linear-gradient (0 upwards, 90 to the right; default 135, to the bottom right)',
              },
            ),
            {
              type: 'background.gradient must be an object such as { "from": "#4f46e5", "to": "#db2777" }',
            },
          ),
        ),
      },
      {
        additionalProperties: false,
        description:
          'What fills outerPadding around the window: a colour or a gradient (one of them). Omit it for a transparent surround in PNG, WebP and AVIF',
      },
    ),
    { type: 'background must be an object such as { "color": "#1e3a8a" }' },
  );

const highlightLineMessages = {
  type: 'highlightLines entries must be line numbers such as 3 or ranges such as "5-7"',
  format: 'highlightLines entries must be line numbers such as 3 or ranges such as "5-7"',
  range: `highlightLines numbers must be between 1 and ${CodeLimits.maxLineNumber}`,
};

const highlightLinesField = () =>
  withMessages(
    Type.Array(
      Type.Union([
        withMessages(Type.Integer({ minimum: 1, maximum: CodeLimits.maxLineNumber }), highlightLineMessages),
        withMessages(Type.String({ pattern: '^[0-9]{1,7}-[0-9]{1,7}$', maxLength: 15 }), highlightLineMessages),
      ]),
      {
        maxItems: CodeLimits.maxHighlightRanges,
        description: `Lines to highlight, as the gutter numbers them (firstLineNumber counts): numbers and "from-to" ranges, e.g. [3, "5-7"]; at most ${CodeLimits.maxHighlightRanges} entries`,
      },
    ),
    {
      type: 'highlightLines must be a list such as [3, "5-7"]',
      maxLength: `highlightLines has at most ${CodeLimits.maxHighlightRanges} entries`,
    },
  );

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
    optimize: optimizeField(),
    ...outputFields(),
    cache: cacheField(),
    webhook: webhookField(),
    fontSize: fontSizeField(),
    padding: paddingField(),
    borderRadius: borderRadiusField(),
    showLineNumbers: withMessages(Type.Boolean({ default: true, description: 'Show a line-number gutter' }), {
      type: 'showLineNumbers must be true or false',
    }),
    scale: scaleField(),
    window: Type.Optional(windowField()),
    background: Type.Optional(backgroundField()),
    outerPadding: Type.Optional(
      boundedInteger('outerPadding', {
        min: 0,
        max: CodeLimits.maxOuterPadding,
        description: `Space around the code window, in CSS px, filled with \`background\` (transparent without one; JPEG then needs a background). The image is \`width\` + 2 × outerPadding wide. Default 0, or ${CODE_FRAMED_OUTER_PADDING} when background or shadow is set`,
      }),
    ),
    shadow: withMessages(
      Type.Boolean({ default: false, description: 'Drop a soft shadow under the code window (shows within outerPadding)' }),
      { type: 'shadow must be true or false' },
    ),
    highlightLines: Type.Optional(highlightLinesField()),
    firstLineNumber: boundedInteger('firstLineNumber', {
      min: 1,
      max: CodeLimits.maxLineNumber,
      default: 1,
      description: 'Number shown in the gutter for the first line (e.g. 120 for an excerpt); the gutter widens for longer numbers',
    }),
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
    optimize: Type.Optional(Type.Boolean()),
    fontSize: Type.Integer({ minimum: CodeLimits.minFontSize, maximum: CodeLimits.maxFontSize }),
    padding: Type.Integer({ minimum: 0, maximum: CodeLimits.maxPadding }),
    borderRadius: Type.Integer({ minimum: 0, maximum: CodeLimits.maxBorderRadius }),
    showLineNumbers: Type.Boolean(),
    scale: Type.Number({ minimum: RenderLimits.minScale, maximum: RenderLimits.maxScale }),
    // The frame: each absent when not asked for, so a plain job is what it always was.
    window: Type.Optional(
      Type.Object(
        { style: StringEnum(['mac', 'windows'] as const), title: Type.Optional(Type.String({ maxLength: CodeLimits.maxTitleLength })) },
        { additionalProperties: false },
      ),
    ),
    background: Type.Optional(
      Type.Object(
        {
          color: Type.Optional(Type.String({ pattern: '^#[0-9a-fA-F]{6}$' })),
          gradient: Type.Optional(
            Type.Object(
              {
                from: Type.String({ pattern: '^#[0-9a-fA-F]{6}$' }),
                to: Type.String({ pattern: '^#[0-9a-fA-F]{6}$' }),
                angle: Type.Integer({ minimum: 0, maximum: 360 }),
              },
              { additionalProperties: false },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    outerPadding: Type.Optional(Type.Integer({ minimum: 1, maximum: CodeLimits.maxOuterPadding })),
    shadow: Type.Optional(Type.Literal(true)),
    /** Ranges of gutter numbers, [from, to] inclusive. */
    highlightLines: Type.Optional(
      Type.Array(
        Type.Tuple([
          Type.Integer({ minimum: 1, maximum: CodeLimits.maxLineNumber }),
          Type.Integer({ minimum: 1, maximum: CodeLimits.maxLineNumber }),
        ]),
        { minItems: 1, maxItems: CodeLimits.maxHighlightRanges },
      ),
    ),
    firstLineNumber: Type.Optional(Type.Integer({ minimum: 2, maximum: CodeLimits.maxLineNumber })),
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
