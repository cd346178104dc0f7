import {
  AppError,
  parseScreenshotUrl,
  resolvePdfOptions,
  type ScreenshotConvertBody,
  ScreenshotDevices,
  type ScreenshotRenderPayload,
} from '@render/contracts';
import { assertPixelBudget } from './image-reply.ts';

/**
 * The page address as the worker will load it (contracts' `parseScreenshotUrl`, shared with the web form).
 * Whether the host may be reached is the worker's egress proxy's decision: only it knows the allow-list
 * and resolves names.
 */
export function screenshotUrl(raw: string): string {
  const parsed = parseScreenshotUrl(raw);
  if ('problem' in parsed) throw new AppError('VALIDATION_ERROR', parsed.problem);
  return parsed.url;
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
  if (element && body.format === 'pdf')
    throw new AppError('VALIDATION_ERROR', 'selector captures an element as an image: it cannot be used with format pdf');
  if (element) payload.selector = element;
  if (body.format === 'pdf') payload.pdf = resolvePdfOptions(body);
  const waitFor = selector(body.waitForSelector, 'waitForSelector');
  if (waitFor) payload.waitForSelector = waitFor;
  return payload;
}
