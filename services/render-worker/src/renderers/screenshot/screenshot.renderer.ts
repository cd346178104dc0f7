import {
  isPageContentFormat,
  isVideoFormat,
  MimeTypes,
  maxCaptureHeight,
  ScreenshotLimits,
  type ScreenshotRenderPayload,
  videoExtraMs,
  videoSettings,
} from '@render/contracts';
import type { BoundingBox, Browser, CDPSession, Dialog, Page } from 'puppeteer-core';
import { ProtocolError, TimeoutError } from 'puppeteer-core';
import { checkPageFonts, pageEvaluator, RenderDiagnostics, withDiagnostics } from '../page/diagnostics.ts';
import { finishRendered, type ImageEncoding, planEncoding } from '../page/image-encoder.ts';
import { screenshot, withDeadline } from '../page/page-ops.ts';
import { printPdf } from '../page/pdf-print.ts';
import { RenderError } from '../page/render-error.ts';
import type { RenderedImage, Renderer } from '../page/renderer.ts';
import { defaultScreenshotFilters, type ScreenshotFilters } from './block-lists.ts';
import { CONSENT_MAX_WAIT_MS, ConsentBlocker, consentRuleSelectors, consentTriggers } from './consent-blocker.ts';
import { needsConsentRules, rulesForPage } from './consent-triggers.ts';
import { applyNoticeHiding, type CollectedPage, collectPage, untokenedSelectors } from './cosmetic-hiding.ts';
import { acceptLanguage, type DeviceSettings, desktopUserAgent, deviceSettings } from './device-profiles.ts';
import { DefaultFullPageLimits, type FullPageLimits, fullPageCapture, jobFullPageLimits } from './full-page-capture.ts';
import { imageSize } from './image-size.ts';
import { revealLazyContent } from './lazy-content.ts';
import { selectorNotFound, withoutMissingSelector } from './optional-selectors.ts';
import { readPageContent, readPageMetadata } from './page-content.ts';
import { PageInteractions } from './page-interactions.ts';
import { failure, MainDocument } from './page-navigation.ts';
import { type PreparedPage, takePrepared } from './prepared-page.ts';
import { type BlockCategory, RequestBlocker } from './request-blocker.ts';
import { DefaultVideoSettings, recordPage } from './screen-recording.ts';
import type { ScreenshotContext } from './screenshot-settings.ts';
import { StepTimes } from './step-times.ts';
import { utilityWorld } from './utility-world.ts';

/** Part of the render budget kept for the capture itself (a 16-megapixel PNG takes a while to encode). */
const CAPTURE_RESERVE_MAX_MS = 4_000;
const MIN_STEP_MS = 500;

/**
 * Screenshots a live web page. Every job runs on a page in its own incognito context (the `screenshot`
 * pool): a new one, or the one its caller's last job left, wiped (no cookie, storage, cache entry or page
 * state of that job is left; see context-reset.ts). A context never serves two callers. All of the page's
 * traffic goes through the worker's egress proxy.
 */
export const renderScreenshot: Renderer<ScreenshotRenderPayload, ScreenshotContext> = async (payload, ctx) => {
  const { timeoutMs } = ctx;
  const times = new StepTimes();
  try {
    const video = videoSettings(payload);
    // No image to encode for a PDF, a video or the page's content (page-content.ts).
    const plan =
      payload.format === 'pdf' || isVideoFormat(payload.format) || isPageContentFormat(payload.format)
        ? undefined
        : planEncoding(payload.format, payload);
    // A video is recorded once the page is ready: the page is held for its duration and the encoding too.
    const record: Recorder | undefined = video
      ? (session, device) => recordPage(session, video, device.viewport, ctx.video ?? DefaultVideoSettings)
      : undefined;
    const pool = await ctx.pool('screenshot');
    const limits = jobFullPageLimits(ctx.fullPage ?? DefaultFullPageLimits, payload.maxCapturePixels);
    const filters = ctx.filters ?? defaultScreenshotFilters();
    const image = await pool.run(
      ({ page, slot }) => {
        times.mark('page');
        return withDeadline(slot, timeoutMs + videoExtraMs(payload), () =>
          capture(page, payload, timeoutMs, plan, limits, filters, times, record),
        );
      },
      ctx.caller ? { caller: ctx.caller } : {},
    );
    const finished = await finishRendered(image, plan);
    times.mark('encode');
    if (ctx.logger?.isLevelEnabled('debug')) ctx.logger.debug({ steps: times.steps, ...times.notes }, 'screenshot steps');
    return finished;
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

async function capture(
  page: Page,
  p: ScreenshotRenderPayload,
  timeoutMs: number,
  plan: ImageEncoding | undefined,
  limits: FullPageLimits,
  filters: ScreenshotFilters,
  times: StepTimes,
  record?: Recorder,
): Promise<RenderedImage> {
  const reserve = Math.min(CAPTURE_RESERVE_MAX_MS, Math.floor(timeoutMs / 4));
  const deadline = Date.now() + timeoutMs - reserve;
  /** Time page work may take before the capture must start. */
  const left = () => Math.max(0, deadline - Date.now());

  const device = deviceSettings(p.deviceType, p);
  // The pool's pages come with their session and consent blocker (prepared-page.ts); made here otherwise.
  const prepared = takePrepared(page);
  const session = prepared?.session ?? (await page.createCDPSession());
  const document = new MainDocument(page);
  // alert()/confirm() would stop the page's script (and its load event) until someone answers.
  const dismiss = (dialog: Dialog) => void dialog.dismiss().catch(() => undefined);
  page.on('dialog', dismiss);
  // A crashed tab is caught by withDeadline (shared by every renderer) and reported as a screenshot failure.
  const tools: JobTools = {};
  const diagnostics = new RenderDiagnostics();
  const optional = p.errorOnSelectorNotFound === false;
  const steps = async () => {
    await setUp(page, session, p, device, prepared, filters, tools);
    times.mark('setup');
    // Nothing to do between the load and the consent look: the look waits for the web fonts itself (one
    // DevTools call for both).
    const fontsInLook =
      !!tools.consent && p.waitUntil === 'load' && !p.waitForSelector && !p.css && !p.js && !tools.interactions && !(plan && p.fullPage);
    await document.load(session, p.url, Math.max(MIN_STEP_MS, left()), p.waitUntil, () => tools.consent?.isolatedWorld, !fontsInLook);
    // failOnHttpStatus: before anything waits on an error page.
    tools.interactions?.assertStatus(document.status);
    if (p.waitForSelector)
      await waitForSelector(page, p.waitForSelector, Math.max(MIN_STEP_MS, left()), optional ? diagnostics : undefined);
    if (p.css) await injectCss(page, p.css);
    if (p.js) await runJs(session, p.js, Math.max(MIN_STEP_MS, left()));
    // hideSelectors, click, scrollTo (page-interactions.ts); before the delay, which lets what they started settle.
    await tools.interactions?.interact(session, document.status);
    times.mark('load');
    // Before the delay, so that it also lets what the scroll started settle.
    if (plan && p.fullPage && !p.selector && !p.clip && p.fullPageScroll !== false)
      await revealLazyContent(page, session, { maxHeight: limits.maxHeight, budgetMs: left() });
    times.mark('scroll');
    const known = () => untokenedSelectors(filters.cosmetic, page.url(), consentRuleSelectors);
    const notices = tools.consent
      ? await handleConsent(session, tools.consent, { delay: p.delay, left, fonts: fontsInLook, known })
      : undefined;
    if (tools.consent) times.notes.consent = tools.consent.active ? 'ran' : 'not needed';
    if (!notices && p.delay > 0) await sleep(Math.min(p.delay, left()));
    times.mark('settle');
    if (notices?.page) {
      await applyNoticeHiding(session, filters.cosmetic, notices.page, { contextId: notices.world, extraSelectors: consentRuleSelectors });
    }
    times.mark('hide');
    // A page script may have sent the top frame somewhere else in the meantime.
    await document.assertAllowed();
    await tools.interactions?.beforeCapture(session, document.status);
    const target = plan ? await withoutMissingSelector(page, p, diagnostics) : p;
    // The fonts and glyphs of the page as captured, asked alongside the capture rather than after it: the
    // document is the same, and the job no longer waits for the two one after the other (~5 ms).
    const fonts = checkPageFonts(pageEvaluator(page), diagnostics).catch(() => undefined);
    const image = await (record
      ? record(session, device)
      : plan
        ? shoot(page, session, target, device, plan, limits)
        : isPageContentFormat(p.format)
          ? readPageContent(session, p.format)
          : printPage(page, p));
    if (p.metadata) image.metadata = await readPageMetadata(session, { finalUrl: page.url(), httpStatus: document.status });
    await fonts;
    times.mark('capture');
    return image;
  };
  try {
    // Console and failed sub-resources while the steps run (see diagnostics.ts); fonts and glyphs above.
    return await withDiagnostics(page, undefined, steps, diagnostics);
  } finally {
    tools.consent?.dispose();
    tools.blocker?.dispose();
    await tools.interactions?.dispose();
    document.dispose();
    page.off('dialog', dismiss);
    session.detach().catch(() => undefined);
  }
}

/**
 * hideCookieBanners, once the page is loaded: the consent rule set runs only on a page that shows signs of
 * a platform (consent-triggers.ts), and the capture then waits for it only while it works on a popup
 * (consent-blocker.ts `nextConsentStep`), alongside the delay. A page that showed none when loaded is asked
 * again after the delay. Answers the page as it is now, for the cookie-notice hiding. The first look also
 * asks for the selectors hidden whatever the page's ids and classes (so that a page where none matches is not
 * asked again to hide them) and,
 * with `fonts`, waits for the web fonts first (the load left that wait to it).
 */
async function handleConsent(
  session: CDPSession,
  consent: ConsentBlocker,
  job: { delay: number; left: () => number; fonts: boolean; known: () => readonly string[] },
): Promise<{ page?: CollectedPage; world?: number }> {
  const { delay, left } = job;
  const triggers = consentTriggers();
  const world = await utilityWorld(session);
  const look = async (first: boolean) => {
    const page = await collectPage(
      session,
      world,
      triggers.selectors,
      first ? { known: job.known(), ...(job.fonts ? { fontsWithinMs: left() } : {}) } : {},
    );
    if (page && needsConsentRules(triggers, page, consent.consentRequested))
      await consent.activate(rulesForPage(triggers, page, consent.consentRequested));
    return page;
  };
  let page = await look(true);
  await Promise.all([
    delay > 0 ? sleep(Math.min(delay, left())) : undefined,
    consent.active ? consent.settle(Math.min(CONSENT_MAX_WAIT_MS, left())) : undefined,
  ]);
  if (delay > 0 && !consent.active) {
    page = await look(false);
    if (consent.active) await consent.settle(Math.min(CONSENT_MAX_WAIT_MS, left()));
  }
  // The rules clicked or hid things: the page is asked again, in the script's own world.
  if (consent.active) return { page: await collectPage(session, consent.isolatedWorld ?? world), world: consent.isolatedWorld ?? world };
  return { page, world };
}
/** Records the prepared page as a video (screen-recording.ts), in place of the capture. */
type Recorder = (session: CDPSession, device: DeviceSettings) => Promise<RenderedImage>;

/** What a job installs on its page; disposed when it ends, even when it failed half-way through setting up. */
interface JobTools {
  consent?: ConsentBlocker;
  blocker?: RequestBlocker;
  interactions?: PageInteractions;
}

/** The job's settings before the navigation: independent, so sent together (the job waits for DevTools once). */
async function setUp(
  page: Page,
  session: CDPSession,
  p: ScreenshotRenderPayload,
  device: DeviceSettings,
  prepared: PreparedPage | undefined,
  filters: ScreenshotFilters,
  tools: JobTools,
): Promise<void> {
  const categories: BlockCategory[] = [...(p.blockAds ? ['ads' as const] : []), ...(p.blockTrackers ? ['trackers' as const] : [])];
  // Kept in `tools` before its set-up ends, so that the job's end undoes it even when something else failed first.
  tools.interactions = PageInteractions.start(page, p);
  await Promise.all([
    tools.interactions?.ready,
    emulate(page, p, device),
    p.hideCookieBanners
      ? (prepared ? Promise.resolve(prepared.consent) : ConsentBlocker.install(session, page)).then((installed) => {
          tools.consent = installed;
        })
      : prepared?.consent.uninstall(),
    categories.length
      ? RequestBlocker.install(session, categories, p.url, filters.network).then((installed) => {
          tools.blocker = installed;
        })
      : undefined,
    requestOptions(page, p),
  ]);
}

/** Each browser's own user agent, asked once (a DevTools round trip per job otherwise). */
const browserAgents = new WeakMap<Browser, Promise<string>>();

function browserAgent(page: Page): Promise<string> {
  const browser = page.browser();
  let agent = browserAgents.get(browser);
  if (!agent) {
    agent = browser.userAgent();
    agent.catch(() => browserAgents.delete(browser));
    browserAgents.set(browser, agent);
  }
  return agent;
}

/**
 * The emulation each page was last given, keyed by its settings. It is sent over puppeteer's own session of
 * the page, which lives as long as the page: a context kept for its caller (page-pool-concurrency.ts) keeps
 * it between jobs, and a next job with the same settings, the usual case for a caller's repeated calls, sends
 * none of it again (five DevTools calls before its navigation). A context only ever serves one caller, and
 * every job applies all of these settings whenever any of them differs.
 */
const emulated = new WeakMap<Page, string>();

/** Puppeteer's own session of the page (emulation set over it outlives a job's session; see `emulated`). */
const mainSession = (page: Page) => (page as unknown as { _client(): CDPSession })._client();

async function emulate(page: Page, p: ScreenshotRenderPayload, device: DeviceSettings): Promise<void> {
  const userAgent = p.userAgent ?? device.userAgent ?? desktopUserAgent(await browserAgent(page));
  const settings = {
    userAgent,
    language: p.language,
    platform: device.platform,
    viewport: device.viewport,
    hideScrollbars: p.hideScrollbars,
  };
  const key = JSON.stringify(settings);
  const unchanged = emulated.get(page) === key;
  // Until the new settings are all in: a job that fails half-way leaves nothing assumed for the next.
  emulated.delete(page);
  const session = mainSession(page);
  // acceptLanguage sets the header and navigator.language(s); the locale override makes Intl agree.
  await Promise.all([
    unchanged
      ? undefined
      : session.send('Emulation.setUserAgentOverride', {
          userAgent,
          acceptLanguage: acceptLanguage(p.language),
          platform: device.platform,
        }),
    unchanged ? undefined : session.send('Emulation.setLocaleOverride', { locale: p.language }),
    unchanged ? undefined : applyViewport(page, device.viewport),
    unchanged ? undefined : session.send('Emulation.setScrollbarsHidden', { hidden: p.hideScrollbars }),
    // Media features are reset with the rest of the context's state between jobs (context-reset.ts).
    p.darkMode ? page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]) : undefined,
  ]);
  emulated.set(page, key);
}

/**
 * The job's viewport. `page.setViewport` *reloads* the page's current document when isMobile or hasTouch
 * differ from the last it set (so that this document picks them up): for a mobile or tablet job that is the
 * prepared about:blank, consent script included, ~100–120 ms on 2 loaded cores, for a document the job's own
 * navigation replaces right after. So then the same two calls puppeteer makes are sent over its own session
 * of the page (emulation is per session, and the captures go through that one), without the reload.
 * Puppeteer's record of the viewport stays the last one it set; nothing on this path reads it (the captures
 * use `device`, and `screenshot` never lets puppeteer resize the page). Otherwise `setViewport` as before.
 */
async function applyViewport(page: Page, viewport: DeviceSettings['viewport']): Promise<void> {
  const mobile = viewport.isMobile ?? false;
  const touch = viewport.hasTouch ?? false;
  const last = page.viewport();
  if ((last?.isMobile ?? false) === mobile && (last?.hasTouch ?? false) === touch) return page.setViewport(viewport);
  const session = mainSession(page);
  await Promise.all([
    session.send('Emulation.setDeviceMetricsOverride', {
      mobile,
      width: viewport.width,
      height: viewport.height,
      deviceScaleFactor: viewport.deviceScaleFactor,
      screenOrientation: viewport.isLandscape ? { angle: 90, type: 'landscapePrimary' } : { angle: 0, type: 'portraitPrimary' },
    }),
    session.send('Emulation.setTouchEmulationEnabled', { enabled: touch }),
  ]);
}

/** Extra headers and cookies, set before the page loads (cookies only for the page's own site: the gateway checked). */
async function requestOptions(page: Page, p: ScreenshotRenderPayload): Promise<void> {
  if (p.headers && Object.keys(p.headers).length) await page.setExtraHTTPHeaders(p.headers);
  if (p.cookies?.length) {
    const host = new URL(p.url).hostname;
    const set = page.setCookie(
      ...p.cookies.map((cookie) =>
        !cookie.domain || cookie.domain === host
          ? { name: cookie.name, value: cookie.value, url: new URL(cookie.path ?? '/', p.url).href, path: cookie.path ?? '/' }
          : { name: cookie.name, value: cookie.value, domain: cookie.domain, path: cookie.path ?? '/' },
      ),
    );
    // Chromium refuses e.g. a cookie for a public suffix (co.uk): a clear failure, not a crash.
    await set.catch((err: unknown) => {
      throw failure('the cookies could not be set (is the domain a public suffix?)', false, err);
    });
  }
}

async function injectCss(page: Page, css: string): Promise<void> {
  try {
    await page.addStyleTag({ content: css });
  } catch (err) {
    if (err instanceof RenderError) throw err;
    throw failure('the css could not be added to the page');
  }
}

/**
 * The caller's script, run in the page's own world like one of its scripts (same egress proxy, same
 * deadline: the evaluation is cut at the time left, and the shared deadline still holds).
 */
async function runJs(session: CDPSession, js: string, timeoutMs: number): Promise<void> {
  const started = Date.now();
  const answer = await session
    .send('Runtime.evaluate', { expression: js, awaitPromise: true, returnByValue: false, timeout: timeoutMs })
    .catch((err: unknown) => {
      // Chromium ends a script that outlives `timeout` by terminating it, and answers a bare "Internal error":
      // that is the content's endless loop, not the machinery failing, so it must not be retried.
      if (err instanceof ProtocolError && Date.now() - started >= timeoutMs)
        throw failure(`the js did not finish within ${Math.round(timeoutMs / 100) / 10} s (an endless loop?)`, false, err);
      throw err;
    });
  if (answer.exceptionDetails) {
    const details = answer.exceptionDetails;
    const text = (details.exception?.description ?? details.text ?? 'error').split('\n')[0]?.slice(0, 300);
    throw failure(`the js failed: ${text}`);
  }
}

async function waitForSelector(page: Page, selector: string, timeoutMs: number, optional?: RenderDiagnostics): Promise<void> {
  try {
    await page.waitForSelector(selector, { timeout: timeoutMs });
  } catch (err) {
    if (err instanceof TimeoutError) {
      const waited = `${Math.round(timeoutMs / 100) / 10} s`;
      if (optional) return selectorNotFound(optional, 'waitForSelector', selector, `nothing appeared within ${waited}; captured as it was`);
      throw failure(`no element matching selector ${JSON.stringify(selector)} appeared within ${waited}`);
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

/** The capture in the format Chromium encodes (see `planEncoding`); `finishRendered` makes the one asked for. */
async function shoot(
  page: Page,
  session: CDPSession,
  p: ScreenshotRenderPayload,
  device: DeviceSettings,
  plan: ImageEncoding,
  limits: FullPageLimits,
): Promise<RenderedImage> {
  const { width: viewportWidth, height: viewportHeight, deviceScaleFactor: scale } = device.viewport;
  let clip: BoundingBox | undefined;
  let cut: Pick<RenderedImage, 'warnings'> = {};
  if (p.selector) {
    clip = await elementClip(page, session, p.selector, scale, limits.jobPixelCap ? limits.maxPixels : undefined);
  } else if (p.clip) {
    clip = await pageClip(session, p.clip, viewportWidth, viewportHeight);
  } else if (p.fullPage) {
    const full = await fullPageCapture(page, session, {
      viewport: { width: viewportWidth, height: viewportHeight, scale },
      format: plan.format,
      capture: plan.capture,
      quality: plan.captureQuality,
      transparent: p.transparent,
      limits,
    });
    const warnings = full.warning ? { warnings: [full.warning] } : {};
    if (full.image) {
      const { bytes, width, height } = full.image;
      return { bytes, format: plan.format, mimeType: plan.mimeType, width, height, ...warnings };
    }
    clip = full.clip;
    cut = warnings;
  }
  const bytes = await screenshot(page, {
    type: plan.capture,
    quality: plan.captureQuality,
    omitBackground: p.transparent && plan.capture !== 'jpeg',
    ...(clip ? { clip, captureBeyondViewport: true } : {}),
  });
  const size = imageSize(bytes) ?? {
    width: Math.round((clip?.width ?? viewportWidth) * scale),
    height: Math.round((clip?.height ?? viewportHeight) * scale),
  };
  return { bytes, format: plan.format, mimeType: plan.mimeType, ...size, ...cut };
}

/** The requested rectangle cut to the page (its scrollable size, at least the viewport). */
async function pageClip(
  session: CDPSession,
  wanted: NonNullable<ScreenshotRenderPayload['clip']>,
  viewportWidth: number,
  viewportHeight: number,
): Promise<BoundingBox> {
  const { cssContentSize } = await session.send('Page.getLayoutMetrics');
  const pageWidth = Math.max(viewportWidth, Math.floor(cssContentSize.width));
  const pageHeight = Math.max(viewportHeight, Math.floor(cssContentSize.height));
  if (wanted.x >= pageWidth || wanted.y >= pageHeight) {
    throw failure(`clip starts outside the page (the page is ${pageWidth}×${pageHeight})`);
  }
  return {
    x: wanted.x,
    y: wanted.y,
    width: Math.min(wanted.width, pageWidth - wanted.x),
    height: Math.min(wanted.height, pageHeight - wanted.y),
  };
}

/**
 * The element's box in page coordinates, from the DevTools protocol rather than page script (which could
 * lie about its geometry), cut to the same limits as a full page (and to the job's own pixel budget, if any).
 */
async function elementClip(page: Page, session: CDPSession, selector: string, scale: number, jobMaxPixels?: number): Promise<BoundingBox> {
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
      height: Math.min(
        box.height,
        maxCaptureHeight(width, scale),
        jobMaxPixels ? Math.max(1, Math.floor(jobMaxPixels / (width * scale * scale))) : Infinity,
      ),
    };
  } finally {
    await element.dispose().catch(() => undefined);
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));
