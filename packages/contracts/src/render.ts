import { type Static, Type } from '@sinclair/typebox';
import { boundedInteger, StringEnum, withMessages } from './schema-helpers.ts';

/** Bounds and defaults from spec §5 and §9; the gateway, the worker and the web forms all read these. */
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

export const RasterFormats = ['png', 'jpeg', 'webp'] as const;
export type RasterFormat = (typeof RasterFormats)[number];
export const SvgOutputFormats = ['png', 'jpeg', 'webp', 'svg'] as const;
export type SvgOutputFormat = (typeof SvgOutputFormats)[number];
export const OutputModes = ['json', 'binary'] as const;

export const MimeTypes = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
} as const;

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
    description: 'JPEG/WebP quality; ignored for PNG and SVG',
  });

export const outputMode = (field: 'output' | 'outputType' = 'output') =>
  withMessages(StringEnum(OutputModes, { default: 'binary', description: '`json` answers base64 in JSON; otherwise the image bytes' }), {
    enum: `${field} must be one of: json, binary`,
    type: `${field} must be one of: json, binary`,
  });

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
    format: withMessages(StringEnum(RasterFormats, { default: 'png' }), {
      enum: 'format must be one of: png, jpeg, webp',
      type: 'format must be one of: png, jpeg, webp',
    }),
    width: dimension('width', RenderDefaults.width),
    height: dimension('height', RenderDefaults.height),
    quality: quality(),
    scale: scaleField(),
    output: outputMode(),
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
    format: withMessages(StringEnum(SvgOutputFormats, { default: 'png' }), {
      enum: 'format must be one of: png, jpeg, webp, svg',
      type: 'format must be one of: png, jpeg, webp, svg',
    }),
    width: dimension('width', RenderDefaults.width),
    height: dimension('height', RenderDefaults.height),
    quality: quality(),
    transparent: withMessages(Type.Boolean({ default: false, description: 'Transparent background (PNG and WebP only)' }), {
      type: 'transparent must be true or false',
    }),
    output: outputMode(),
  },
  { $id: 'SvgConvertBody', additionalProperties: true },
);
export type SvgConvertBody = Static<typeof SvgConvertBody>;

export const ImageJsonResponse = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object({
      image: Type.String({ description: 'base64-encoded image' }),
      format: Type.String(),
      mimeType: Type.String(),
      width: Type.Integer({ description: 'image width in pixels' }),
      height: Type.Integer({ description: 'image height in pixels' }),
      size: Type.Integer({ description: 'image size in bytes' }),
    }),
  },
  { $id: 'ImageJsonResponse' },
);
export type ImageJsonResponse = Static<typeof ImageJsonResponse>;

export const ErrorResponse = Type.Object(
  {
    success: Type.Literal(false),
    message: Type.String(),
    code: Type.String(),
  },
  { $id: 'ErrorResponse' },
);
export type ErrorResponse = Static<typeof ErrorResponse>;

export const PingResponse = Type.Object(
  { success: Type.Literal(true), message: Type.String(), time: Type.String() },
  { $id: 'PingResponse' },
);
