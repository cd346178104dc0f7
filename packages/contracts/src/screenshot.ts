import { type Static, Type } from '@sinclair/typebox';
import { PdfFieldNames, PdfJobOptions, pdfBodyFields } from './pdf.ts';
import { outputMode, PageOutputFormats, quality, RenderLimits } from './render.ts';
import { boundedInteger, StringEnum, withMessages } from './schema-helpers.ts';

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
export type ScreenshotLanguage = (typeof ScreenshotLanguages)[number];
export const DeviceTypes = ['desktop', 'mobile', 'tablet'] as const;
export type DeviceType = (typeof DeviceTypes)[number];
export const ScreenshotDefaults = { width: 1280, height: 800, quality: 80, language: 'en-US', delay: 0, maxDelay: 10_000 } as const;

/**
 * Viewport of each device type. The worker takes user agent, touch and mobile layout from puppeteer's
 * `KnownDevices[emulates]` (a test keeps these numbers equal to it); the gateway needs the numbers to check
 * the pixel budget before queueing, and cannot depend on puppeteer.
 */
export const ScreenshotDevices = {
  desktop: { width: 1280, height: 800, deviceScaleFactor: 1, emulates: null },
  mobile: { width: 390, height: 844, deviceScaleFactor: 3, emulates: 'iPhone 12 Pro' },
  tablet: { width: 1024, height: 1366, deviceScaleFactor: 2, emulates: 'iPad Pro' },
} as const satisfies Record<DeviceType, { width: number; height: number; deviceScaleFactor: number; emulates: string | null }>;

export const ScreenshotLimits = {
  /** Tallest capture in device pixels; beyond this Chromium's compositor tiles break down. */
  maxCaptureDevicePixels: 16_384,
  /** Same budget as every other route: width × height × scale². */
  maxPixels: RenderLimits.maxPixels,
  maxSelectorLength: 512,
  maxUrlLength: 2048,
} as const;

/**
 * Tallest full-page (or element) capture for a viewport, in CSS pixels: at most 16,384 device pixels and
 * at most `maxPixels` in total. A longer page is cut at this height.
 */
export function maxCaptureHeight(widthCss: number, scale: number): number {
  const byTexture = ScreenshotLimits.maxCaptureDevicePixels / scale;
  const byBudget = ScreenshotLimits.maxPixels / (widthCss * scale * scale);
  return Math.max(1, Math.floor(Math.min(byTexture, byBudget)));
}

// No schema defaults here on purpose: an absent width, height or scale means "the device's own", which a
// default filled in by Ajv would hide.
const viewportDimension = (name: 'width' | 'height') =>
  boundedInteger(name, {
    min: RenderLimits.minDimension,
    max: RenderLimits.maxDimension,
    description: `Viewport ${name} in CSS pixels; overrides the device's (desktop 1280×800, mobile 390×844, tablet 1024×1366)`,
  });

const flag = (name: string, def: boolean, description: string) =>
  withMessages(Type.Boolean({ default: def, description }), { type: `${name} must be true or false` });

const selectorField = (name: string, description: string) =>
  withMessages(Type.String({ minLength: 1, maxLength: ScreenshotLimits.maxSelectorLength, description }), {
    type: `${name} must be a CSS selector`,
    minLength: `${name} must not be empty`,
    maxLength: `${name} must be at most ${ScreenshotLimits.maxSelectorLength} characters`,
  });

export const ScreenshotConvertBody = Type.Object(
  {
    url: withMessages(
      Type.String({ minLength: 1, maxLength: ScreenshotLimits.maxUrlLength, description: 'http(s) URL of the page to capture' }),
      {
        required: 'Please enter a URL',
        minLength: 'Please enter a URL',
        type: 'Please enter a URL',
        maxLength: 'Please enter a valid URL (including http:// or https://)',
      },
    ),
    format: withMessages(
      StringEnum(PageOutputFormats, {
        default: 'png',
        description:
          'An image, or the page printed as a PDF document (pdf: the page options below apply; selector is refused, fullPage, quality, scale and transparent do not apply)',
      }),
      {
        enum: 'format must be one of: png, jpeg, webp, pdf',
        type: 'format must be one of: png, jpeg, webp, pdf',
      },
    ),
    deviceType: withMessages(
      StringEnum(DeviceTypes, {
        default: 'desktop',
        description:
          'desktop: 1280×800 at scale 1. mobile: iPhone 12 Pro (390×844, scale 3, mobile user agent, touch). ' +
          'tablet: iPad Pro (1024×1366, scale 2, iPad user agent, touch).',
      }),
      {
        enum: 'deviceType must be one of: desktop, mobile, tablet',
        type: 'deviceType must be one of: desktop, mobile, tablet',
      },
    ),
    width: Type.Optional(viewportDimension('width')),
    height: Type.Optional(viewportDimension('height')),
    fullPage: flag(
      'fullPage',
      false,
      'Capture the whole scrollable page at the viewport width instead of the viewport. A page taller than ' +
        `${ScreenshotLimits.maxCaptureDevicePixels} device pixels or ${ScreenshotLimits.maxPixels / 1_000_000} megapixels ` +
        '(width × height × scale²) is cut at that height, e.g. 12,500 px at 1280 wide and scale 1. Lazy-loaded content ' +
        'below the first screen appears only if the page loads it without scrolling.',
    ),
    quality: quality(ScreenshotDefaults.quality),
    outputType: outputMode('outputType'),
    language: withMessages(
      StringEnum(ScreenshotLanguages, {
        default: ScreenshotDefaults.language,
        description: 'Sent as Accept-Language and reported by navigator.language(s) and Intl',
      }),
      {
        enum: `language must be one of: ${ScreenshotLanguages.join(', ')}`,
        type: `language must be one of: ${ScreenshotLanguages.join(', ')}`,
      },
    ),
    delay: withMessages(
      Type.Integer({
        minimum: 0,
        maximum: ScreenshotDefaults.maxDelay,
        default: ScreenshotDefaults.delay,
        description: 'Extra wait after the page has loaded, in ms; shortened if it would not fit in the render time limit',
      }),
      {
        range: `delay must be between 0 and ${ScreenshotDefaults.maxDelay} ms`,
        type: `delay must be a whole number of milliseconds between 0 and ${ScreenshotDefaults.maxDelay}`,
      },
    ),
    selector: Type.Optional(
      selectorField('selector', 'Capture only the first element matching this CSS selector (422 when nothing matches)'),
    ),
    waitForSelector: Type.Optional(
      selectorField('waitForSelector', 'Wait until an element matching this CSS selector exists (422 when none appears in time)'),
    ),
    hideCookieBanners: flag(
      'hideCookieBanners',
      true,
      'Hide or reject cookie/consent popups using the DuckDuckGo autoconsent rule set (known consent platforms only)',
    ),
    hideScrollbars: flag('hideScrollbars', true, 'Hide scrollbars (the headless renderer draws none either way)'),
    darkMode: flag('darkMode', false, 'Emulate prefers-color-scheme: dark'),
    transparent: flag('transparent', false, 'Transparent default background (PNG and WebP only; the page’s own backgrounds stay)'),
    scale: Type.Optional(
      withMessages(
        Type.Number({
          minimum: RenderLimits.minScale,
          maximum: RenderLimits.maxScale,
          description: "Device scale factor; overrides the device's (desktop 1, mobile 3, tablet 2)",
        }),
        {
          type: `scale must be a number between ${RenderLimits.minScale} and ${RenderLimits.maxScale}`,
          range: `scale must be between ${RenderLimits.minScale} and ${RenderLimits.maxScale}`,
        },
      ),
    ),
    ...pdfBodyFields(),
  },
  { $id: 'ScreenshotConvertBody', additionalProperties: true },
);
export type ScreenshotConvertBody = Static<typeof ScreenshotConvertBody>;

export const ScreenshotRenderPayload = Type.Composite(
  [
    Type.Omit(ScreenshotConvertBody, ['outputType', ...PdfFieldNames]),
    // Only for format pdf: the page options, resolved by the gateway.
    Type.Object({ pdf: Type.Optional(PdfJobOptions) }),
  ],
  { additionalProperties: false },
);
export type ScreenshotRenderPayload = Static<typeof ScreenshotRenderPayload>;

export const ScreenshotUrlMessages = {
  required: 'Please enter a URL',
  invalid: 'Please enter a valid URL (including http:// or https://)',
} as const;

/**
 * The page address a screenshot loads: http or https with a host, WHATWG-normalised (the parser Chromium
 * uses). Answers the normalised URL or the spec's message; the gateway refuses with it and the web form
 * shows it before sending.
 */
export function parseScreenshotUrl(raw: string): { url: string } | { problem: string } {
  const text = raw.trim();
  if (!text) return { problem: ScreenshotUrlMessages.required };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problem: ScreenshotUrlMessages.invalid };
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) return { problem: ScreenshotUrlMessages.invalid };
  return { url: url.href };
}
