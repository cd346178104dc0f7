import { type Static, Type } from '@sinclair/typebox';
import { dimension, outputMode, quality, RasterFormats, scaleField } from './render.ts';
import { StringEnum, withMessages } from './schema-helpers.ts';

/** The 14 interface languages a screenshot can be taken in (Accept-Language and navigator.language). */
export const ScreenshotLanguages = [
  'en-US',
  'en-GB',
  'fr-FR',
  'de-DE',
  'es-ES',
  'it-IT',
  'pt-BR',
  'nl-NL',
  'pl-PL',
  'ru-RU',
  'ja-JP',
  'ko-KR',
  'zh-CN',
  'ar-SA',
] as const;
export const DeviceTypes = ['desktop', 'mobile', 'tablet'] as const;
export const ScreenshotDefaults = { width: 1280, height: 800, quality: 80, language: 'en-US', delay: 0, maxDelay: 10_000 } as const;

export const ScreenshotConvertBody = Type.Object(
  {
    url: withMessages(Type.String({ minLength: 1, maxLength: 2048, description: 'http(s) URL of the page' }), {
      required: 'Please enter a URL',
      minLength: 'Please enter a URL',
      type: 'Please enter a URL',
      maxLength: 'Please enter a valid URL (including http:// or https://)',
    }),
    format: withMessages(StringEnum(RasterFormats, { default: 'png' }), {
      enum: 'format must be one of: png, jpeg, webp',
      type: 'format must be one of: png, jpeg, webp',
    }),
    deviceType: withMessages(
      StringEnum(DeviceTypes, { default: 'desktop', description: 'desktop 1280×800, mobile iPhone 12 Pro, tablet iPad Pro' }),
      {
        enum: 'deviceType must be one of: desktop, mobile, tablet',
        type: 'deviceType must be one of: desktop, mobile, tablet',
      },
    ),
    width: Type.Optional(dimension('width', ScreenshotDefaults.width)),
    height: Type.Optional(dimension('height', ScreenshotDefaults.height)),
    fullPage: withMessages(Type.Boolean({ default: false }), { type: 'fullPage must be true or false' }),
    quality: quality(ScreenshotDefaults.quality),
    outputType: outputMode('outputType'),
    language: withMessages(StringEnum(ScreenshotLanguages, { default: ScreenshotDefaults.language }), {
      enum: `language must be one of: ${ScreenshotLanguages.join(', ')}`,
      type: `language must be one of: ${ScreenshotLanguages.join(', ')}`,
    }),
    delay: withMessages(
      Type.Integer({ minimum: 0, maximum: ScreenshotDefaults.maxDelay, default: 0, description: 'Extra wait after load, ms' }),
      {
        range: `delay must be between 0 and ${ScreenshotDefaults.maxDelay} ms`,
        type: `delay must be a whole number of milliseconds between 0 and ${ScreenshotDefaults.maxDelay}`,
      },
    ),
    selector: Type.Optional(Type.String({ minLength: 1, maxLength: 512, description: 'CSS selector of the element to capture' })),
    waitForSelector: Type.Optional(Type.String({ minLength: 1, maxLength: 512, description: 'Wait until this CSS selector is present' })),
    hideCookieBanners: withMessages(Type.Boolean({ default: true }), { type: 'hideCookieBanners must be true or false' }),
    hideScrollbars: withMessages(Type.Boolean({ default: true }), { type: 'hideScrollbars must be true or false' }),
    darkMode: withMessages(Type.Boolean({ default: false }), { type: 'darkMode must be true or false' }),
    transparent: withMessages(Type.Boolean({ default: false }), { type: 'transparent must be true or false' }),
    scale: Type.Optional(scaleField()),
  },
  { $id: 'ScreenshotConvertBody', additionalProperties: true },
);
export type ScreenshotConvertBody = Static<typeof ScreenshotConvertBody>;

export const ScreenshotRenderPayload = Type.Omit(ScreenshotConvertBody, ['outputType'], { additionalProperties: false });
export type ScreenshotRenderPayload = Static<typeof ScreenshotRenderPayload>;
