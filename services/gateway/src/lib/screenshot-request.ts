import { AppError, type ScreenshotConvertBody, ScreenshotDevices, type ScreenshotRenderPayload } from '@render/contracts';
import { assertPixelBudget } from './image-reply.ts';

const INVALID_URL = 'Please enter a valid URL (including http:// or https://)';

/**
 * The page address as the worker will load it: http or https with a host, in WHATWG-normalised form (the
 * same parser Chromium uses, so what is checked here is what gets loaded). Whether the host may be reached
 * is the worker's egress proxy's decision: only it knows the allow-list and resolves names.
 */
export function screenshotUrl(raw: string): string {
  const text = raw.trim();
  if (!text) throw new AppError('VALIDATION_ERROR', 'Please enter a URL');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new AppError('VALIDATION_ERROR', INVALID_URL);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) {
    throw new AppError('VALIDATION_ERROR', INVALID_URL);
  }
  return url.href;
}

function selector(value: string | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (!trimmed) throw new AppError('VALIDATION_ERROR', `${field} must not be empty`);
  return trimmed;
}

/** Checks what the schema cannot and picks exactly the fields the worker's job schema allows. */
export function screenshotPayload(body: ScreenshotConvertBody): ScreenshotRenderPayload {
  const device = ScreenshotDevices[body.deviceType];
  assertPixelBudget(body.width ?? device.width, body.height ?? device.height, body.scale ?? device.deviceScaleFactor);
  const payload: ScreenshotRenderPayload = {
    url: screenshotUrl(body.url),
    format: body.format,
    deviceType: body.deviceType,
    fullPage: body.fullPage,
    quality: body.quality,
    language: body.language,
    delay: body.delay,
    hideCookieBanners: body.hideCookieBanners,
    hideScrollbars: body.hideScrollbars,
    darkMode: body.darkMode,
    transparent: body.transparent,
  };
  if (body.width !== undefined) payload.width = body.width;
  if (body.height !== undefined) payload.height = body.height;
  if (body.scale !== undefined) payload.scale = body.scale;
  const element = selector(body.selector, 'selector');
  if (element) payload.selector = element;
  const waitFor = selector(body.waitForSelector, 'waitForSelector');
  if (waitFor) payload.waitForSelector = waitFor;
  return payload;
}
