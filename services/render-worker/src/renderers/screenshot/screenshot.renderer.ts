import { MimeTypes, maxCaptureHeight, ScreenshotLimits, type ScreenshotRenderPayload } from '@render/contracts';
import type { BoundingBox, CDPSession, Dialog, Page } from 'puppeteer-core';
import { TimeoutError } from 'puppeteer-core';
import { screenshot, withDeadline } from '../page-ops.ts';
import { printPdf } from '../pdf-print.ts';
import { RenderError } from '../render-error.ts';
import type { RenderedImage, Renderer } from '../renderer.ts';
import { CONSENT_MAX_WAIT_MS, ConsentBlocker } from './consent-blocker.ts';
import { acceptLanguage, type DeviceSettings, desktopUserAgent, deviceSettings } from './device-profiles.ts';
import { imageSize } from './image-size.ts';
import { failure, MainDocument } from './page-navigation.ts';

/** Part of the render budget kept for the capture itself (a 16-megapixel PNG takes a while to encode). */
const CAPTURE_RESERVE_MAX_MS = 4_000;
const MIN_STEP_MS = 500;

/**
 * Screenshots a live web page. Every job runs on a page in its own new incognito context (the
 * `screenshot` pool), so no cookie, storage or cache entry of one job is seen by the next; all of the
 * page's traffic goes through the worker's egress proxy.
 */
export const renderScreenshot: Renderer<ScreenshotRenderPayload> = async (payload, ctx) => {
  const { timeoutMs } = ctx;
  try {
    const pool = await ctx.pool('screenshot');
    return await pool.run(({ page, slot }) => withDeadline(slot, timeoutMs, () => capture(page, payload, timeoutMs)));
  } catch (err) {
    throw asScreenshotError(err);
  }
};

/** Every screenshot failure reads "Failed to capture screenshot: …", including the shared deadline's. */
function asScreenshotError(err: unknown): RenderError {
  if (!(err instanceof RenderError)) return failure('the renderer stopped unexpectedly', true);
  if (err.message.startsWith('Failed to capture screenshot')) return err;
  const cause = err.message.replace(/^Failed to generate (?:image|PDF): /, '');
  return failure(cause.charAt(0).toLowerCase() + cause.slice(1), err.retryable);
}

async function capture(page: Page, p: ScreenshotRenderPayload, timeoutMs: number): Promise<RenderedImage> {
  const reserve = Math.min(CAPTURE_RESERVE_MAX_MS, Math.floor(timeoutMs / 4));
  const deadline = Date.now() + timeoutMs - reserve;
  /** Time page work may take before the capture must start. */
  const left = () => Math.max(0, deadline - Date.now());

  const device = deviceSettings(p.deviceType, p);
  const session = await page.createCDPSession();
  const document = new MainDocument(page);
  // alert()/confirm() would stop the page's script (and its load event) until someone answers.
  const dismiss = (dialog: Dialog) => void dialog.dismiss().catch(() => undefined);
  page.on('dialog', dismiss);
  // A crashed tab is caught by withDeadline (shared by every renderer) and reported as a screenshot failure.
  let consent: ConsentBlocker | undefined;
  const steps = async () => {
    await emulate(page, session, p, device);
    if (p.hideCookieBanners) consent = await ConsentBlocker.install(session);
    await document.load(p.url, Math.max(MIN_STEP_MS, left()));
    if (p.waitForSelector) await waitForSelector(page, p.waitForSelector, Math.max(MIN_STEP_MS, left()));
    await Promise.all([sleep(Math.min(p.delay, left())), consent?.settle(Math.min(CONSENT_MAX_WAIT_MS, left()))]);
    // A page script may have sent the top frame somewhere else in the meantime.
    await document.assertAllowed();
    return p.format === 'pdf' ? printPage(page, p) : shoot(page, session, p, device);
  };
  try {
    return await steps();
  } finally {
    consent?.dispose();
    document.dispose();
    page.off('dialog', dismiss);
    session.detach().catch(() => undefined);
  }
}

async function emulate(page: Page, session: CDPSession, p: ScreenshotRenderPayload, device: DeviceSettings): Promise<void> {
  const userAgent = device.userAgent ?? desktopUserAgent(await page.browser().userAgent());
  // acceptLanguage sets the header and navigator.language(s); the locale override makes Intl agree.
  await Promise.all([
    session.send('Emulation.setUserAgentOverride', { userAgent, acceptLanguage: acceptLanguage(p.language), platform: device.platform }),
    session.send('Emulation.setLocaleOverride', { locale: p.language }),
    page.setViewport(device.viewport),
    p.darkMode ? page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]) : undefined,
    p.hideScrollbars ? session.send('Emulation.setScrollbarsHidden', { hidden: true }) : undefined,
  ]);
}

async function waitForSelector(page: Page, selector: string, timeoutMs: number): Promise<void> {
  try {
    await page.waitForSelector(selector, { timeout: timeoutMs });
  } catch (err) {
    if (err instanceof TimeoutError) {
      throw failure(`no element matching selector ${JSON.stringify(selector)} appeared within ${Math.round(timeoutMs / 100) / 10} s`);
    }
    throw selectorError(err, selector);
  }
}

function selectorError(err: unknown, selector: string): unknown {
  const message = (err as Error).message ?? '';
  if (/not a valid selector|SyntaxError|unknown selector|invalid selector/i.test(message)) {
    return failure(`${JSON.stringify(selector)} is not a valid CSS selector`);
  }
  return err;
}

/** The loaded page printed as a PDF (the page is in its own context and closed after the job). */
async function printPage(page: Page, p: ScreenshotRenderPayload): Promise<RenderedImage> {
  if (!p.pdf) throw failure('the PDF options are missing');
  const pdf = await printPdf(page, p.pdf);
  return { bytes: pdf.bytes, format: 'pdf', mimeType: MimeTypes.pdf, width: pdf.width, height: pdf.height };
}

async function shoot(page: Page, session: CDPSession, p: ScreenshotRenderPayload, device: DeviceSettings): Promise<RenderedImage> {
  if (p.format === 'pdf') throw failure('a PDF is printed, not captured');
  const { width: viewportWidth, height: viewportHeight, deviceScaleFactor: scale } = device.viewport;
  let clip: BoundingBox | undefined;
  if (p.selector) {
    clip = await elementClip(page, session, p.selector, scale);
  } else if (p.fullPage) {
    const { cssContentSize } = await session.send('Page.getLayoutMetrics');
    const contentHeight = Math.ceil(cssContentSize.height);
    clip = {
      x: 0,
      y: 0,
      width: viewportWidth,
      height: Math.min(Math.max(viewportHeight, contentHeight), maxCaptureHeight(viewportWidth, scale)),
    };
  }
  const bytes = await screenshot(page, {
    type: p.format,
    quality: p.format === 'png' ? undefined : p.quality,
    omitBackground: p.transparent && p.format !== 'jpeg',
    ...(clip ? { clip, captureBeyondViewport: true } : {}),
  });
  const size = imageSize(bytes) ?? {
    width: Math.round((clip?.width ?? viewportWidth) * scale),
    height: Math.round((clip?.height ?? viewportHeight) * scale),
  };
  return { bytes, format: p.format, mimeType: MimeTypes[p.format], ...size };
}

/**
 * The element's box in page coordinates, from the DevTools protocol rather than page script (which could
 * lie about its geometry), cut to the same limits as a full page.
 */
async function elementClip(page: Page, session: CDPSession, selector: string, scale: number): Promise<BoundingBox> {
  let element: Awaited<ReturnType<Page['$']>>;
  try {
    element = await page.$(selector);
  } catch (err) {
    throw selectorError(err, selector);
  }
  if (!element) throw failure(`no element matches selector ${JSON.stringify(selector)}`);
  try {
    const box = await element.boundingBox();
    if (!box || box.width < 1 || box.height < 1) throw failure(`the element matching selector ${JSON.stringify(selector)} is not visible`);
    const { cssVisualViewport } = await session.send('Page.getLayoutMetrics');
    const width = Math.min(box.width, Math.floor(ScreenshotLimits.maxCaptureDevicePixels / scale));
    return {
      x: Math.max(0, box.x + cssVisualViewport.pageX),
      y: Math.max(0, box.y + cssVisualViewport.pageY),
      width,
      height: Math.min(box.height, maxCaptureHeight(width, scale)),
    };
  } finally {
    await element.dispose().catch(() => undefined);
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));
