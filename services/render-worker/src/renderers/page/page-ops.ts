import type { CDPSession, Page, ScreenshotOptions } from 'puppeteer-core';
import type { PageSlot } from '../../browser/page-pool-concurrency.ts';
import { classifyRenderFailure, RenderError, timedOut } from './render-error.ts';

/**
 * Markup that needs page scripts (or can act after the job ends, like a meta refresh). Anything else is
 * rendered with scripting off, which is faster and leaves nothing behind on the warm page; if this test
 * misses some exotic script vector, that script simply does not run.
 */
const SCRIPT_HINT = /<script\b|<[^>]*\son[a-z]+\s*=|javascript:|<iframe\b|<frame\b|<object\b|<embed\b|<meta[^>]+http-equiv/i;

export const needsScript = (markup: string) => SCRIPT_HINT.test(markup);

export async function applyPageSettings(
  page: Page,
  slot: PageSlot,
  settings: { scriptEnabled: boolean; width: number; height: number; scale: number },
): Promise<void> {
  if (settings.scriptEnabled) slot.tainted = true; // before running anything: even a failed job must reset
  if (slot.applied.scriptEnabled !== settings.scriptEnabled) {
    await page.setJavaScriptEnabled(settings.scriptEnabled);
    slot.applied.scriptEnabled = settings.scriptEnabled;
  }
  const viewport = `${settings.width}x${settings.height}@${settings.scale}`;
  if (slot.applied.viewport !== viewport) {
    await page.setViewport({ width: settings.width, height: settings.height, deviceScaleFactor: settings.scale });
    slot.applied.viewport = viewport;
  }
}

/**
 * Self-contained markup: nothing to fetch (no src/href/url()/@import/srcset…) and nothing to run. Such a
 * page is complete as soon as it is parsed, so it can skip load tracking entirely (see `renderStatic`).
 * `<meta charset>` and named metas (viewport, color-scheme…) fetch nothing, and most real pages carry one;
 * a meta that acts (`http-equiv`: refresh, CSP, cookies) is already `needsScript`'s.
 */
const SUBRESOURCE_HINT = /\b(src|href|srcset|poster|data|background|action|formaction)\s*=|url\s*\(|@import|<link\b|<base\b/i;

export const isSelfContained = (markup: string) => !needsScript(markup) && !SUBRESOURCE_HINT.test(markup);

/** Our own DevTools session on the page and its main frame id, opened once per page. */
async function directSession(page: Page, slot: PageSlot): Promise<{ cdp: CDPSession; frameId: string }> {
  if (slot.session) return slot.session;
  const cdp = await page.createCDPSession();
  const { frameTree } = await cdp.send('Page.getFrameTree');
  slot.session = { cdp, frameId: frameTree.frame.id };
  return slot.session;
}

/**
 * Evaluates `expression` in the page's main world over our own session and answers its value, awaiting a
 * promise. Around the larger answers of chart and code jobs this takes 1–1.5 ms less per call than
 * puppeteer's evaluate (which also flags every call as a user gesture and post-processes the answer).
 * DevTools evaluation runs even with page scripts off.
 */
export async function evaluateInPage<T>(page: Page, slot: PageSlot, expression: string): Promise<T> {
  const { cdp } = await directSession(page, slot);
  const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
  if (exceptionDetails) throw new Error(`page evaluation failed: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
  return result.value as T;
}

/**
 * Argument text for `pageCall`. Objects go through JSON.parse in the page, as puppeteer's arguments would:
 * in an object literal a `__proto__` key would set the prototype instead of making a property.
 */
const pageArgument = (arg: unknown) =>
  typeof arg === 'string' ? JSON.stringify(arg) : `JSON.parse(${JSON.stringify(JSON.stringify(arg))})`;

/**
 * An expression that calls a page function with JSON arguments: a global's name, or a self-contained
 * function, which reaches the page as text.
 */
export const pageCall = (fn: string | ((...args: never[]) => unknown), ...args: unknown[]) =>
  `(${fn.toString()})(${args.map(pageArgument).join(',')})`;

/** The bytes of a base64 `data:` URL, as a page's canvas.toDataURL answers them. */
export const dataUrlBytes = (url: string) => Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');

/**
 * The fast path for self-contained, script-free markup: the browser replaces the document in one DevTools
 * call. puppeteer's setContent (document.write from an isolated world, then a lifecycle watcher for
 * "load") costs as much again in browser and Node CPU, and waits for nothing such a page has. The page's
 * scripts are off, so, as with setContent, nothing survives into the next job. The capture itself stays
 * with puppeteer: device-metric overrides belong to its session, so only its captures see the scale.
 */
export async function renderStatic(page: Page, slot: PageSlot, markup: string, options: ScreenshotOptions): Promise<Buffer> {
  await setStaticDocument(page, slot, markup);
  return screenshot(page, options);
}

/** The document replaced by self-contained, script-free markup in one DevTools call (see `renderStatic`). */
export async function setStaticDocument(page: Page, slot: PageSlot, markup: string): Promise<void> {
  const { cdp, frameId } = await directSession(page, slot);
  await cdp.send('Page.setDocumentContent', { frameId, html: markup });
}

/**
 * The viewport as an image. puppeteer's page.screenshot takes a mutex per *browser*, so the warm pages of a
 * worker would capture one at a time; a viewport capture needs none of what it guards (no clip to
 * intersect, no viewport to resize), so it goes straight to Page.captureScreenshot on puppeteer's own
 * session of the page, whose device-metric override (the scale) applies to it. Clips and full pages keep
 * puppeteer's path.
 */
export async function screenshot(page: Page, options: ScreenshotOptions): Promise<Buffer> {
  if (options.clip || options.fullPage || options.captureBeyondViewport) {
    const bytes = await page.screenshot({ optimizeForSpeed: true, captureBeyondViewport: false, ...options });
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  const session = (page as unknown as { _client(): CDPSession })._client();
  const transparent = options.omitBackground && options.type !== 'jpeg';
  if (transparent) await session.send('Emulation.setDefaultBackgroundColorOverride', { color: { r: 0, g: 0, b: 0, a: 0 } });
  try {
    const { data } = await session.send('Page.captureScreenshot', {
      format: options.type ?? 'png',
      optimizeForSpeed: true,
      captureBeyondViewport: false,
      ...(options.quality !== undefined ? { quality: Math.round(options.quality) } : {}),
    });
    return Buffer.from(data, 'base64');
  } finally {
    if (transparent) await session.send('Emulation.setDefaultBackgroundColorOverride').catch(() => undefined);
  }
}

/**
 * Runs one render within its deadline. On timeout the page is marked broken (it may be stuck in a script)
 * so it is replaced before the next job; any other failure also retires the page. Failures of the browser
 * machinery are worth a retry, failures of the content are not (see `classifyRenderFailure`).
 */
export async function withDeadline<T>(slot: PageSlot, timeoutMs: number, fn: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timedOut(timeoutMs)), timeoutMs);
  });
  // puppeteer's setContent/goto never settle when the tab crashes, so listen for the crash itself.
  const page = slot.page;
  let onCrash: (() => void) | undefined;
  const crashed = new Promise<never>((_, reject) => {
    // Retried once on a fresh page: a tab can also crash for reasons that are not its job's (its renderer
    // process ended under it, e.g. shared with a closed window's opener). A memory bomb crashes again and
    // is then answered, after a second of CPU more.
    onCrash = () => reject(new RenderError('Failed to generate image: the page crashed (it may have used too much memory)', true));
    page?.once('error', onCrash);
  });
  try {
    return await Promise.race([fn(), deadline, crashed]);
  } catch (err) {
    slot.broken = true;
    throw classifyRenderFailure(err, timeoutMs);
  } finally {
    clearTimeout(timer);
    if (onCrash) page?.off('error', onCrash);
  }
}
