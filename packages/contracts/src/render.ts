import { type Static, Type } from 'typebox';
import { AppError } from './errors.ts';
import { PageContentMimeTypes, PageMetadata } from './page-content.ts';
import { PdfFieldNames, PdfJobOptions, pdfBodyFields } from './pdf.ts';
import { RenderWarnings } from './render-warnings.ts';
import { boundedInteger, StringEnum, withMessages } from './schema-helpers.ts';
import { webhookField } from './webhook.ts';

/** Bounds and defaults from docs/spec/validation.md and limits.md; the gateway, the worker and the web forms all read these. */
export const RenderLimits = {
  minDimension: 50,
  maxDimension: 4000,
  minQuality: 1,
  maxQuality: 100,
  minScale: 0.1,
  maxScale: 3,
  /** Pixel budget (width × height × scale²) so `scale` cannot turn a legal size into a 144-megapixel job. */
  maxPixels: 4000 * 4000,
} as const;

export const RenderDefaults = {
  width: 800,
  height: 600,
  quality: 80,
  scale: 1,
} as const;

/**
 * The image formats every kind answers in. Chromium encodes PNG, JPEG and WebP itself; AVIF is encoded by
 * the worker from a lossless capture (see the render worker's image encoder).
 */
export const RasterFormats = ['png', 'jpeg', 'webp', 'avif'] as const;
export type RasterFormat = (typeof RasterFormats)[number];
/** What the HTML and screenshot calls answer with: an image, or a PDF document (`format: "pdf"`). */
export const PageOutputFormats = [...RasterFormats, 'pdf'] as const;
export type PageOutputFormat = (typeof PageOutputFormats)[number];
export const SvgOutputFormats = [...RasterFormats, 'svg'] as const;
export type SvgOutputFormat = (typeof SvgOutputFormats)[number];
export const OutputModes = ['json', 'binary'] as const;
export type OutputMode = (typeof OutputModes)[number];

export const MimeTypes = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  // Screenshots recorded as videos (screen-recording.ts).
  mp4: 'video/mp4',
  webm: 'video/webm',
  gif: 'image/gif',
  // A screenshot's page content (page-content.ts).
  ...PageContentMimeTypes,
} as const;

/** The file name extension of a format's files (`jpeg` → `jpg`); shared by the gateway's replies and the web app's downloads. */
export const fileExtension = (format: string) => ({ jpeg: 'jpg', markdown: 'md', text: 'txt' })[format] ?? format;

/** A format field's user-facing messages: the list of what it accepts, from the enum itself. */
export const formatMessages = (formats: readonly string[]) => {
  const message = `format must be one of: ${formats.join(', ')}`;
  return { enum: message, type: message };
};

/** Lossy formats whose `quality` applies. */
export const LossyFormats: readonly string[] = ['jpeg', 'webp', 'avif'];

/**
 * `optimize`: lossless PNG optimisation. The worker re-encodes Chromium's PNG at maximum compression and, when
 * the image has at most 256 colours and a palette reproduces it exactly, as a palette PNG. Off by default: it
 * costs encoding time (tens of ms for 800×600) that a one-off render may not want to pay.
 */
export const optimizeField = () =>
  withMessages(
    Type.Boolean({
      default: false,
      description:
        'PNG only: lossless optimisation (maximum compression, adaptive filtering, a palette when one holds the image exactly). ' +
        'The decoded pixels are identical and the file usually smaller; it adds encoding time. Other formats ignore it.',
    }),
    { type: 'optimize must be true or false' },
  );

export const dimension = (name: 'width' | 'height', def: number) =>
  boundedInteger(name, {
    min: RenderLimits.minDimension,
    max: RenderLimits.maxDimension,
    default: def,
    description: `${name} in CSS pixels`,
  });

export const quality = (def: number = RenderDefaults.quality) =>
  boundedInteger('quality', {
    min: RenderLimits.minQuality,
    max: RenderLimits.maxQuality,
    default: def,
    description: 'JPEG, WebP and AVIF quality (1–100); ignored for PNG, SVG and PDF',
  });

/** The longest a convert call may ask its image to be kept for identical requests (`cache`). */
export const RENDER_CACHE_MAX_SECONDS = 86_400;

/**
 * `cache`: seconds during which an identical request (same caller, same body) is answered from the cache,
 * with `X-Cache: HIT` and no credit charged; identical requests arriving together render once.
 */
export const cacheField = () =>
  Type.Optional(
    boundedInteger('cache', {
      min: 0,
      max: RENDER_CACHE_MAX_SECONDS,
      description:
        'Seconds to keep the image for identical requests (same caller, same body): those are answered from the cache with X-Cache: HIT and cost no credit, and identical requests arriving together render once. 0 or absent: no cache.',
    }),
  );

const outputMode = (field: 'output' | 'outputType') =>
  withMessages(
    StringEnum(OutputModes, {
      description:
        '`json` answers base64 in JSON; `binary` (the default) the image bytes. `output` and `outputType` are one field under the two names the specification uses: every convert call accepts either (both only when they agree).',
    }),
    { enum: `${field} must be one of: json, binary`, type: `${field} must be one of: json, binary` },
  );

/**
 * `output` / `outputType`: JSON (base64) or the bytes. The specification names it `output` on the HTML and
 * SVG calls and `outputType` on the others; every convert call accepts both (`outputModeOf` reads them).
 * No schema default: a default on one name would contradict the other one sent alone.
 */
export const outputFields = () => ({
  output: Type.Optional(outputMode('output')),
  outputType: Type.Optional(outputMode('outputType')),
});

/** What `output` / `outputType` mean when neither is sent (they have no schema default: see `outputFields`). */
export const OutputDefault: OutputMode = 'binary';

/** The answer's form a convert body asks for: `output` or `outputType`, binary when neither; a 400 when they differ. */
export function outputModeOf(body: { output?: OutputMode; outputType?: OutputMode }): OutputMode {
  const { output, outputType } = body;
  if (output !== undefined && outputType !== undefined && output !== outputType) {
    const message = `output and outputType are the same field under two names and disagree here ("${output}" and "${outputType}"): send one of them`;
    throw new AppError('VALIDATION_ERROR', message, undefined, {
      fieldErrors: [
        { field: 'output', message },
        { field: 'outputType', message },
      ],
    });
  }
  return output ?? outputType ?? OutputDefault;
}

export const scaleField = () =>
  withMessages(
    Type.Number({
      minimum: RenderLimits.minScale,
      maximum: RenderLimits.maxScale,
      default: RenderDefaults.scale,
      description:
        'Device scale factor: the image is width×scale by height×scale pixels; width × height × scale² must not exceed 16,000,000 (a 400 otherwise)',
    }),
    {
      type: `scale must be a number between ${RenderLimits.minScale} and ${RenderLimits.maxScale}`,
      range: `scale must be between ${RenderLimits.minScale} and ${RenderLimits.maxScale}`,
    },
  );

export const HtmlConvertBody = Type.Object(
  {
    html: withMessages(Type.String({ minLength: 1, description: 'HTML document or fragment to render' }), {
      required: 'Please enter some HTML content',
      minLength: 'Please enter some HTML content',
      type: 'Please enter some HTML content',
    }),
    format: withMessages(
      StringEnum(PageOutputFormats, {
        default: 'png',
        description: 'An image, or a PDF document (pdf: the page options below apply; width sets the layout width of fitToContent)',
      }),
      formatMessages(PageOutputFormats),
    ),
    width: dimension('width', RenderDefaults.width),
    height: dimension('height', RenderDefaults.height),
    quality: quality(),
    optimize: optimizeField(),
    scale: scaleField(),
    ...outputFields(),
    cache: cacheField(),
    webhook: webhookField(),
    ...pdfBodyFields(),
  },
  { $id: 'HtmlConvertBody', additionalProperties: true },
);
export type HtmlConvertBody = Static<typeof HtmlConvertBody>;

export const SvgConvertBody = Type.Object(
  {
    svg: withMessages(Type.String({ minLength: 1, description: 'An SVG document (root element <svg>)' }), {
      required: 'Please enter some SVG content',
      minLength: 'Please enter some SVG content',
      type: 'Please enter some SVG content',
    }),
    format: withMessages(StringEnum(SvgOutputFormats, { default: 'png' }), formatMessages(SvgOutputFormats)),
    width: dimension('width', RenderDefaults.width),
    height: dimension('height', RenderDefaults.height),
    quality: quality(),
    optimize: optimizeField(),
    transparent: withMessages(Type.Boolean({ default: false, description: 'Transparent background (PNG, WebP and AVIF)' }), {
      type: 'transparent must be true or false',
    }),
    ...outputFields(),
    cache: cacheField(),
    webhook: webhookField(),
  },
  { $id: 'SvgConvertBody', additionalProperties: true },
);
export type SvgConvertBody = Static<typeof SvgConvertBody>;

// Job payloads: what the gateway queues and the worker re-validates (packages/queue compiles them once).
// Every field is filled in (defaults applied) and nothing else is allowed.

export const HtmlRenderPayload = Type.Interface(
  [
    Type.Required(Type.Omit(HtmlConvertBody, ['output', 'outputType', 'cache', 'webhook', 'optimize', ...PdfFieldNames])),
    // Only for format pdf: the page options, resolved by the gateway. `optimize` only when asked for.
    Type.Object({ pdf: Type.Optional(PdfJobOptions), optimize: Type.Optional(Type.Boolean()) }),
  ],
  {},
  { additionalProperties: false },
);
export type HtmlRenderPayload = Static<typeof HtmlRenderPayload>;

/**
 * An SVG template's image variable: every attribute value in the SVG exactly equal to `ref` becomes the image
 * at `url`, which the worker fetches itself (through its egress policy) and inlines as a data: URI.
 */
export const SvgImageVariable = Type.Object(
  {
    ref: Type.String({ pattern: '^render-image:[0-9]{1,2}$' }),
    url: Type.String({ maxLength: 2048, pattern: '^[Hh][Tt][Tt][Pp][Ss]?://' }),
  },
  { additionalProperties: false },
);
export type SvgImageVariable = Static<typeof SvgImageVariable>;

export const SvgRenderPayload = Type.Interface(
  [
    Type.Required(Type.Omit(SvgConvertBody, ['output', 'outputType', 'cache', 'webhook', 'optimize'])),
    Type.Object({ images: Type.Optional(Type.Array(SvgImageVariable, { maxItems: 20 })), optimize: Type.Optional(Type.Boolean()) }),
  ],
  {},
  { additionalProperties: false },
);
export type SvgRenderPayload = Static<typeof SvgRenderPayload>;

/**
 * What describes a rendered image, wherever it travels: the worker's result, its reply to the gateway, the
 * signed-URL image cache and the JSON answer all carry these fields.
 */
export const ImageMeta = Type.Object({
  format: Type.String(),
  mimeType: Type.String(),
  width: Type.Integer({ description: 'image width in pixels (a PDF: its first page’s width in CSS pixels, 1/96 in)' }),
  height: Type.Integer({ description: 'image height in pixels (a PDF: its first page’s height in CSS pixels, 1/96 in)' }),
  /** The render's diagnostics (absent: none); the JSON answer always lists them, the binary one counts them. */
  warnings: Type.Optional(RenderWarnings),
  /** A screenshot's page metadata, when the job asked for it (`metadata: true`). */
  metadata: Type.Optional(PageMetadata),
});
export type ImageMeta = Static<typeof ImageMeta>;

/** A finished render as the worker reports it to the gateway: the image's metadata, size and timings. */
export const RenderResultMeta = Type.Object({
  ...ImageMeta.properties,
  size: Type.Integer({ description: 'image size in bytes' }),
  renderMs: Type.Integer(),
  queueMs: Type.Integer(),
  /** `renderMs` to the tenth of a millisecond, for the `Server-Timing` header (absent from older workers). */
  renderTime: Type.Optional(Type.Number({ minimum: 0 })),
  /** Set when the image did not fit in the reply: it waits under this Redis key, which the gateway GETDELs. */
  resultKey: Type.Optional(Type.String()),
});
export type RenderResultMeta = Static<typeof RenderResultMeta>;

export const ImageJsonResponse = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object({
      image: Type.String({ description: 'base64-encoded image' }),
      ...ImageMeta.properties,
      size: RenderResultMeta.properties.size,
      warnings: RenderWarnings,
      content: Type.Optional(
        Type.String({
          description: 'A screenshot in format markdown, html or text: the page’s main content (image holds the same, base64)',
        }),
      ),
    }),
  },
  { $id: 'ImageJsonResponse' },
);
export type ImageJsonResponse = Static<typeof ImageJsonResponse>;

export const FieldErrorSchema = Type.Object({
  field: Type.String({ description: 'The refused field: its path in the body or query (`width`, `clip.x`), `body` for the whole' }),
  message: Type.String(),
  messageId: Type.Optional(Type.String({ description: 'The message’s id in the message catalog, when it is a catalogued sentence' })),
});

/**
 * Every error answer of every service: an RFC 9457 problem (`application/problem+json`: type, title, status,
 * detail, instance) that keeps the API's own fields (`success: false`, `message` as the specification words
 * it, `code`), plus the request's id and, for a refused body, every refused field.
 */
export const ErrorResponse = Type.Object(
  {
    success: Type.Literal(false),
    message: Type.String({
      description: 'What went wrong, in a sentence to show as is (the first refused field’s, for a validation error)',
    }),
    code: Type.String({ description: 'The error code (VALIDATION_ERROR, UNAUTHORIZED, QUEUE_FULL, …): branch on this' }),
    messageId: Type.Optional(
      Type.String({
        description:
          'The stable id of `message` (`auth.emailTaken`) when it is one of the API’s catalogued sentences: translate by this, as the English words may change',
      }),
    ),
    type: Type.String({
      description: 'RFC 9457 problem type: a URI reference to the code on the documentation’s errors page (`/docs?tab=errors#<code>`)',
    }),
    title: Type.String({ description: 'RFC 9457: a short summary of the problem type' }),
    status: Type.Integer({ description: 'RFC 9457: the HTTP status' }),
    detail: Type.String({ description: 'RFC 9457: this occurrence explained (the same text as `message`)' }),
    instance: Type.String({ description: 'RFC 9457: the request’s path (without its query string)' }),
    requestId: Type.String({ description: 'The request’s `X-Request-Id`: quote it when reporting a problem' }),
    errors: Type.Optional(Type.Array(FieldErrorSchema, { description: 'Validation errors: each refused field with its message' })),
  },
  { $id: 'ErrorResponse' },
);
/**
 * The fields every service's error answer has had from the start: what the gateway requires of the answers of
 * its own services (which it checks, and whose message it passes on).
 */
export const ServiceError = Type.Object({ success: Type.Literal(false), message: Type.String(), code: Type.String() });
export type ErrorResponse = Static<typeof ErrorResponse>;

export const PingResponse = Type.Object(
  { success: Type.Literal(true), message: Type.String(), time: Type.String() },
  { $id: 'PingResponse' },
);
