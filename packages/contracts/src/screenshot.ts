import { type Static, Type } from 'typebox';
import { metadataField, PageContentFormats } from './page-content.ts';
import { PdfFieldNames, PdfJobOptions, pdfBodyFields } from './pdf.ts';
import { cacheField, formatMessages, optimizeField, outputFields, PageOutputFormats, quality, RenderLimits } from './render.ts';
import { boundedInteger, StringEnum, withMessages } from './schema-helpers.ts';
import { VideoFormats, videoBodyFields } from './screen-recording.ts';
import { screenshotInteractionFields } from './screenshot-interactions.ts';
import { webhookField } from './webhook.ts';

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
  /** Tallest single capture in device pixels (clips, elements); beyond this Chromium's compositor tiles break down. */
  maxCaptureDevicePixels: 16_384,
  /**
   * Default tallest full page in CSS pixels (the worker's SCREENSHOT_MAX_HEIGHT). Full pages taller than
   * one capture are taken in tiles and stitched.
   */
  fullPageMaxHeight: 40_000,
  /** Default most device pixels of a full page, width × height × scale² (the worker's SCREENSHOT_MAX_PIXELS): 1280 × 40,000. */
  fullPageMaxPixels: 1280 * 40_000,
  /** Same budget as every other route: width × height × scale². */
  maxPixels: RenderLimits.maxPixels,
  maxSelectorLength: 512,
  maxUrlLength: 2048,
  maxHeaders: 20,
  maxHeaderNameLength: 128,
  maxHeaderValueLength: 2048,
  maxCookies: 20,
  maxCookieNameLength: 256,
  maxCookieValueLength: 4096,
  maxUserAgentLength: 512,
  maxCssLength: 100_000,
  maxJsLength: 100_000,
} as const;

/** What a screenshot answers with: an image, a PDF, a video of the page (screen-recording.ts) or its main content as text (page-content.ts). */
export const ScreenshotFormats = [...PageOutputFormats, ...VideoFormats, ...PageContentFormats] as const;
export type ScreenshotFormat = (typeof ScreenshotFormats)[number];

export const ScreenshotWaitUntil = ['load', 'domcontentloaded', 'networkidle'] as const;
export type ScreenshotWaitUntil = (typeof ScreenshotWaitUntil)[number];

/**
 * Request headers a caller may not set: hop-by-hop headers, and the ones that say where the request goes
 * or who sends it (the browser and the egress proxy decide those; cookies have their own option).
 */
export const ForbiddenScreenshotHeaders = [
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'host',
  'cookie',
  'content-length',
  'expect',
] as const;

/**
 * Tallest element or clip capture for a viewport, in CSS pixels: at most 16,384 device pixels and at most
 * `maxPixels` in total. (Full pages are tiled; the worker applies their own limits.)
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

const clipField = (name: string, min: number, max: number) => {
  const what = { x: 'Left edge', y: 'Top edge', width: 'Width', height: 'Height' }[name] ?? name;
  const field = boundedInteger(`clip.${name}`, { min, max, description: `${what} of the rectangle in CSS pixels` });
  return withMessages(field, { ...field['x-messages'], required: 'clip needs x, y, width and height' });
};

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
      StringEnum(ScreenshotFormats, {
        default: 'png',
        description:
          'An image, or the page printed as a PDF document (pdf: the page options below apply; selector is refused, fullPage, quality, scale and transparent do not apply), ' +
          'a video of the page (mp4, webm, gif: see scenario, duration and fps; the viewport at scale 1, at most 1280×720 pixels), ' +
          'or the page’s main content: markdown, html (the content as a document) or text (selector and clip are refused)',
      }),
      formatMessages(ScreenshotFormats),
    ),
    metadata: Type.Optional(metadataField()),
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
      'Capture the whole scrollable page at the viewport width instead of the viewport. Pages taller than ' +
        `${ScreenshotLimits.maxCaptureDevicePixels.toLocaleString('en-US')} device pixels are captured in tiles and stitched. ` +
        `A page is cut at ${ScreenshotLimits.fullPageMaxHeight.toLocaleString('en-US')} CSS px or ` +
        `${ScreenshotLimits.fullPageMaxPixels / 1_000_000} megapixels (width × height × scale²), whichever comes first ` +
        '(the defaults; a server may set others), and at what the format can hold: 16,383 px for webp, 16,384 px for avif, ' +
        '65,535 px for jpeg; a cut page says so in warnings (PAGE_CUT). Before the capture the page is scrolled through ' +
        'once, so lazy-loaded images and content revealed on scroll are there (see fullPageScroll).',
    ),
    fullPageScroll: Type.Optional(
      flag(
        'fullPageScroll',
        true,
        'With fullPage: scroll through the page a screen at a time (up to the height limit, for at most 5 s) and back ' +
          'to the top before the capture, then wait for the images that started loading, so lazy-loaded images and ' +
          'content revealed on scroll appear. false captures the page as it loaded.',
      ),
    ),
    quality: quality(ScreenshotDefaults.quality),
    optimize: optimizeField(),
    ...outputFields(),
    cache: cacheField(),
    webhook: webhookField(),
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
    errorOnSelectorNotFound: Type.Optional(
      flag(
        'errorOnSelectorNotFound',
        true,
        'false: a selector or waitForSelector that matches nothing does not fail the render; the page is captured as it is (the viewport instead of the element) with a SELECTOR_NOT_FOUND warning',
      ),
    ),
    hideCookieBanners: flag(
      'hideCookieBanners',
      true,
      'Hide or reject cookie/consent popups using the DuckDuckGo autoconsent rule set (known consent platforms only)',
    ),
    hideScrollbars: flag('hideScrollbars', true, 'Hide scrollbars (the headless renderer draws none either way)'),
    darkMode: flag('darkMode', false, 'Emulate prefers-color-scheme: dark'),
    transparent: flag('transparent', false, 'Transparent default background (PNG, WebP and AVIF; the page’s own backgrounds stay)'),
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
    headers: Type.Optional(
      withMessages(
        Type.Record(Type.String(), Type.String(), {
          maxProperties: ScreenshotLimits.maxHeaders,
          description:
            `Extra request headers sent with every request of the page, as { name: value } (at most ${ScreenshotLimits.maxHeaders}, ` +
            `names up to ${ScreenshotLimits.maxHeaderNameLength} and values up to ${ScreenshotLimits.maxHeaderValueLength} characters). ` +
            'Host, Cookie, Proxy-*, Sec-* and hop-by-hop headers are refused; use cookies and userAgent for those.',
        }),
        { type: 'headers must be an object of header names to string values' },
      ),
    ),
    cookies: Type.Optional(
      withMessages(
        Type.Array(
          Type.Object(
            {
              name: withMessages(Type.String({ description: 'Cookie name' }), {
                required: 'each cookie needs a name and a value',
                type: 'a cookie name must be a string',
              }),
              value: withMessages(Type.String({ description: 'Cookie value' }), {
                required: 'each cookie needs a name and a value',
                type: 'a cookie value must be a string',
              }),
              domain: Type.Optional(Type.String({ description: "The URL's host or a parent domain of it; defaults to the URL's host" })),
              path: Type.Optional(Type.String({ description: 'Starts with /; defaults to /' })),
            },
            { additionalProperties: false },
          ),
          {
            maxItems: ScreenshotLimits.maxCookies,
            description: `Cookies set for the page's own site before it loads (at most ${ScreenshotLimits.maxCookies})`,
          },
        ),
        { type: 'cookies must be a list of { name, value, domain?, path? }' },
      ),
    ),
    userAgent: Type.Optional(
      withMessages(
        Type.String({
          minLength: 1,
          maxLength: ScreenshotLimits.maxUserAgentLength,
          description: "User-Agent header and navigator.userAgent; overrides the device's",
        }),
        {
          type: 'userAgent must be a string',
          minLength: 'userAgent must not be empty',
          maxLength: `userAgent must be at most ${ScreenshotLimits.maxUserAgentLength} characters`,
        },
      ),
    ),
    waitUntil: withMessages(
      StringEnum(ScreenshotWaitUntil, {
        default: 'load',
        description:
          'When the page counts as loaded: load (the load event), domcontentloaded (the HTML is parsed), networkidle (no request for 500 ms)',
      }),
      {
        enum: `waitUntil must be one of: ${ScreenshotWaitUntil.join(', ')}`,
        type: `waitUntil must be one of: ${ScreenshotWaitUntil.join(', ')}`,
      },
    ),
    omitBackground: flag('omitBackground', false, 'Same as transparent: a transparent default background (PNG, WebP and AVIF)'),
    clip: Type.Optional(
      withMessages(
        Type.Object(
          {
            x: clipField('x', 0, ScreenshotLimits.maxCaptureDevicePixels),
            y: clipField('y', 0, ScreenshotLimits.maxCaptureDevicePixels),
            width: clipField('width', 1, RenderLimits.maxDimension),
            height: clipField('height', 1, RenderLimits.maxDimension),
          },
          {
            additionalProperties: false,
            description: 'Capture only this rectangle of the page, in CSS pixels from its top-left corner; cut to the page',
          },
        ),
        { type: 'clip must be an object { x, y, width, height }', required: 'clip needs x, y, width and height' },
      ),
    ),
    css: Type.Optional(
      withMessages(
        Type.String({
          maxLength: ScreenshotLimits.maxCssLength,
          description: 'A style sheet added to the page after it loads, before the capture',
        }),
        { type: 'css must be a string', maxLength: `css must be at most ${ScreenshotLimits.maxCssLength} characters` },
      ),
    ),
    js: Type.Optional(
      withMessages(
        Type.String({
          maxLength: ScreenshotLimits.maxJsLength,
          description:
            'A script run in the page after it loads (and after css), before the capture; a returned promise is awaited. ' +
            'It runs like the page’s own scripts: same network limits and the same render time limit.',
        }),
        { type: 'js must be a string', maxLength: `js must be at most ${ScreenshotLimits.maxJsLength} characters` },
      ),
    ),
    blockAds: flag('blockAds', false, 'Block requests to well-known ad servers'),
    blockTrackers: flag('blockTrackers', false, 'Block requests to well-known tracking and analytics hosts'),
    ...screenshotInteractionFields(),
    ...pdfBodyFields(),
    ...videoBodyFields(),
  },
  { $id: 'ScreenshotConvertBody', additionalProperties: true },
);
export type ScreenshotConvertBody = Static<typeof ScreenshotConvertBody>;

export const ScreenshotRenderPayload = Type.Interface(
  [
    Type.Omit(ScreenshotConvertBody, ['output', 'outputType', 'omitBackground', 'cache', 'webhook', 'optimize', ...PdfFieldNames]),
    // Only for format pdf: the page options, resolved by the gateway. `optimize` only when asked for.
    // `maxCapturePixels`: a lower cut for a full page or an element than the worker's own (anonymous callers' size cap).
    Type.Object({
      pdf: Type.Optional(PdfJobOptions),
      optimize: Type.Optional(Type.Boolean()),
      maxCapturePixels: Type.Optional(Type.Integer({ minimum: 1 })),
    }),
  ],
  {},
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

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Visible ASCII, space and tab, and Latin-1 (what a header value may hold): no CR, LF or NUL.
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const COOKIE_VALUE = /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*$/;

/** The extra headers, checked: answers them with lower-case names, or the problem with the first bad one. */
export function checkScreenshotHeaders(headers: Record<string, string>): { headers: Record<string, string> } | { problem: string } {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!TOKEN.test(name) || name.length > ScreenshotLimits.maxHeaderNameLength) {
      return { problem: `headers: ${JSON.stringify(name.slice(0, 64))} is not a valid header name` };
    }
    const lower = name.toLowerCase();
    if ((ForbiddenScreenshotHeaders as readonly string[]).includes(lower) || lower.startsWith('proxy-') || lower.startsWith('sec-')) {
      return { problem: `headers: ${name} cannot be set${lower === 'cookie' ? ' (use cookies)' : ''}` };
    }
    if (lower === 'user-agent') return { problem: 'headers: User-Agent cannot be set here (use userAgent)' };
    if (typeof value !== 'string' || !HEADER_VALUE.test(value))
      return { problem: `headers: the value of ${name} must be text on one line` };
    if (value.length > ScreenshotLimits.maxHeaderValueLength) {
      return { problem: `headers: the value of ${name} must be at most ${ScreenshotLimits.maxHeaderValueLength} characters` };
    }
    if (lower in out) return { problem: `headers: ${name} is given twice` };
    out[lower] = value;
  }
  return { headers: out };
}

export type ScreenshotCookie = { name: string; value: string; domain?: string; path?: string };

/**
 * The cookies, checked against the page's URL: each one is for the URL's own host or a parent domain of
 * it (never another site). Answers them with domain and path filled in, or the problem with the first bad one.
 */
export function checkScreenshotCookies(
  cookies: ScreenshotCookie[],
  pageUrl: string,
): { cookies: Required<ScreenshotCookie>[] } | { problem: string } {
  const host = new URL(pageUrl).hostname.toLowerCase();
  const out: Required<ScreenshotCookie>[] = [];
  for (const [index, cookie] of cookies.entries()) {
    const at = `cookies[${index}]`;
    if (!TOKEN.test(cookie.name) || cookie.name.length > ScreenshotLimits.maxCookieNameLength)
      return { problem: `${at}.name is not a valid cookie name` };
    if (!COOKIE_VALUE.test(cookie.value))
      return { problem: `${at}.value must not contain spaces, quotes, commas, semicolons or backslashes` };
    if (cookie.value.length > ScreenshotLimits.maxCookieValueLength) {
      return { problem: `${at}.value must be at most ${ScreenshotLimits.maxCookieValueLength} characters` };
    }
    const domain = (cookie.domain ?? host).trim().toLowerCase().replace(/^\./, '');
    if (!domain || (domain !== host && !(host.endsWith(`.${domain}`) && domain.includes('.')))) {
      return { problem: `${at}.domain must be ${host} or a parent domain of it` };
    }
    const path = cookie.path ?? '/';
    if (!path.startsWith('/') || path.length > 1024 || !COOKIE_VALUE.test(path.replace(/ /g, ''))) {
      return { problem: `${at}.path must start with /` };
    }
    out.push({ name: cookie.name, value: cookie.value, domain, path });
  }
  return { cookies: out };
}
