import { type Static, Type } from '@sinclair/typebox';
import { dimension, outputMode, quality, RasterFormats, scaleField } from './render.ts';
import { StringEnum, withMessages } from './schema-helpers.ts';

export const CodeDefaults = {
  width: 800,
  fontSize: 14,
  padding: 20,
  borderRadius: 5,
  quality: 90,
  language: 'javascript',
  theme: 'monokai',
} as const;

export const CodeLimits = { maxCodeLength: 200_000, minFontSize: 8, maxFontSize: 72, maxPadding: 200, maxBorderRadius: 100 } as const;

export const CodeConvertBody = Type.Object(
  {
    code: withMessages(Type.String({ minLength: 1, maxLength: CodeLimits.maxCodeLength, description: 'Source code to highlight' }), {
      required: 'Please enter some code',
      minLength: 'Please enter some code',
      type: 'Please enter some code',
      maxLength: `code must be at most ${CodeLimits.maxCodeLength} characters`,
    }),
    language: Type.String({ minLength: 1, maxLength: 64, default: CodeDefaults.language, description: 'A shiki language id or alias' }),
    theme: Type.String({
      minLength: 1,
      maxLength: 64,
      default: CodeDefaults.theme,
      description: 'A shiki theme; vs2015 and monokai included',
    }),
    format: withMessages(StringEnum(RasterFormats, { default: 'png' }), {
      enum: 'format must be one of: png, jpeg, webp',
      type: 'format must be one of: png, jpeg, webp',
    }),
    width: dimension('width', CodeDefaults.width),
    height: Type.Optional(dimension('height', 600)),
    quality: quality(CodeDefaults.quality),
    outputType: outputMode('outputType'),
    fontSize: withMessages(
      Type.Integer({ minimum: CodeLimits.minFontSize, maximum: CodeLimits.maxFontSize, default: CodeDefaults.fontSize }),
      {
        range: `fontSize must be between ${CodeLimits.minFontSize} and ${CodeLimits.maxFontSize}`,
        type: `fontSize must be a whole number between ${CodeLimits.minFontSize} and ${CodeLimits.maxFontSize}`,
      },
    ),
    padding: withMessages(Type.Integer({ minimum: 0, maximum: CodeLimits.maxPadding, default: CodeDefaults.padding }), {
      range: `padding must be between 0 and ${CodeLimits.maxPadding}`,
      type: `padding must be a whole number between 0 and ${CodeLimits.maxPadding}`,
    }),
    borderRadius: withMessages(Type.Integer({ minimum: 0, maximum: CodeLimits.maxBorderRadius, default: CodeDefaults.borderRadius }), {
      range: `borderRadius must be between 0 and ${CodeLimits.maxBorderRadius}`,
      type: `borderRadius must be a whole number between 0 and ${CodeLimits.maxBorderRadius}`,
    }),
    showLineNumbers: withMessages(Type.Boolean({ default: true }), { type: 'showLineNumbers must be true or false' }),
    scale: scaleField(),
  },
  { $id: 'CodeConvertBody', additionalProperties: true },
);
export type CodeConvertBody = Static<typeof CodeConvertBody>;

export const CodeRenderPayload = Type.Required(Type.Omit(CodeConvertBody, ['outputType', 'height']), { additionalProperties: false });
export const CodeRenderPayloadWithHeight = Type.Composite([CodeRenderPayload, Type.Object({ height: Type.Optional(Type.Integer()) })], {
  additionalProperties: false,
});
export type CodeRenderPayload = Static<typeof CodeRenderPayloadWithHeight>;
