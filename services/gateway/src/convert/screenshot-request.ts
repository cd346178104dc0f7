import {
  AppError,
  checkScreenshotCookies,
  checkScreenshotHeaders,
  isPageContentFormat,
  maxCaptureHeight,
  outputModeOf,
  PageContentMessages,
  parseScreenshotUrl,
  resolvePdfOptions,
  type ScreenshotConvertBody,
  ScreenshotDevices,
  type ScreenshotRenderPayload,
} from '@render/contracts';
import { assertPixelBudget } from '../images/image-reply.ts';
import { interactionOptions } from './screenshot-interactions.ts';
import { videoPayload } from './screenshot-video-request.ts';

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
  const url = screenshotUrl(body.url);
  const payload: ScreenshotRenderPayload = {
    url,
    format: body.format,
    deviceType: body.deviceType,
    fullPage: body.fullPage,
    quality: body.quality,
    language: body.language,
    delay: body.delay,
    hideCookieBanners: body.hideCookieBanners,
    hideScrollbars: body.hideScrollbars,
    darkMode: body.darkMode,
    transparent: body.transparent || body.omitBackground === true,
    waitUntil: body.waitUntil ?? 'load',
    blockAds: body.blockAds === true,
    blockTrackers: body.blockTrackers === true,
  };
  if (body.width !== undefined) payload.width = body.width;
  if (body.height !== undefined) payload.height = body.height;
  if (body.scale !== undefined) payload.scale = body.scale;
  if (body.optimize) payload.optimize = true;
  if (body.fullPage && body.fullPageScroll === false) payload.fullPageScroll = false;
  const element = selector(body.selector, 'selector');
  if (element && body.format === 'pdf')
    throw new AppError('VALIDATION_ERROR', 'selector captures an element as an image: it cannot be used with format pdf');
  if (element) payload.selector = element;
  if (body.format === 'pdf') payload.pdf = resolvePdfOptions(body);
  const waitFor = selector(body.waitForSelector, 'waitForSelector');
  if (waitFor) payload.waitForSelector = waitFor;
  if (body.errorOnSelectorNotFound === false) payload.errorOnSelectorNotFound = false;
  pageOptions(body, payload, url);
  videoPayload(body, payload);
  interactionOptions(body, payload, url);
  contentOptions(body, payload);
  return payload;
}

/**
 * Pages for agents (contracts' page-content.ts): the text formats read the whole page, so selector and clip
 * are refused with them; metadata only has a place in a JSON answer, so a binary one with it is refused
 * rather than silently dropping what was asked for.
 */
function contentOptions(body: ScreenshotConvertBody, payload: ScreenshotRenderPayload): void {
  if (isPageContentFormat(body.format) && (body.selector !== undefined || body.clip !== undefined))
    throw new AppError('VALIDATION_ERROR', PageContentMessages.contentNoSelector);
  if (body.metadata !== true) return;
  if (outputModeOf(body) !== 'json') throw new AppError('VALIDATION_ERROR', PageContentMessages.metadataNeedsJson);
  payload.metadata = true;
}

/** headers, cookies, userAgent, clip, css and js: checked here so every bad value is a 400 before queueing. */
function pageOptions(body: ScreenshotConvertBody, payload: ScreenshotRenderPayload, url: string): void {
  if (body.headers !== undefined && Object.keys(body.headers).length > 0) {
    const checked = checkScreenshotHeaders(body.headers);
    if ('problem' in checked) throw new AppError('VALIDATION_ERROR', checked.problem);
    payload.headers = checked.headers;
  }
  if (body.cookies !== undefined && body.cookies.length > 0) {
    const checked = checkScreenshotCookies(body.cookies, url);
    if ('problem' in checked) throw new AppError('VALIDATION_ERROR', checked.problem);
    payload.cookies = checked.cookies;
  }
  if (body.userAgent !== undefined) {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point.
    if (!body.userAgent.trim() || /[\x00-\x1f\x7f]/.test(body.userAgent))
      throw new AppError('VALIDATION_ERROR', 'userAgent must be text on one line');
    payload.userAgent = body.userAgent;
  }
  if (body.clip !== undefined) {
    if (body.format === 'pdf')
      throw new AppError('VALIDATION_ERROR', 'clip captures part of the page as an image: it cannot be used with format pdf');
    if (payload.selector) throw new AppError('VALIDATION_ERROR', 'clip and selector cannot be used together');
    const device = ScreenshotDevices[body.deviceType];
    const scale = body.scale ?? device.deviceScaleFactor;
    if (body.clip.height > maxCaptureHeight(body.clip.width, scale))
      throw new AppError(
        'VALIDATION_ERROR',
        `clip is too large: at ${body.clip.width} px wide it may be at most ${maxCaptureHeight(body.clip.width, scale)} px high`,
      );
    payload.clip = body.clip;
  }
  if (body.css) payload.css = body.css;
  if (body.js?.trim()) payload.js = body.js;
}
