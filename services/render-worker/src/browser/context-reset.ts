import type { CDPSession, Frame, HTTPRequest, Page } from 'puppeteer-core';

/**
 * Every web origin a job's page touched: each request (sub-resources and frames, cross-process frames
 * included) and each frame's document. A page can only store data for the origins of its documents and
 * workers, all of which it requested, so these are the origins whose storage a reused context must clear.
 */
export class OriginTracker {
  readonly origins = new Set<string>();

  constructor(private readonly page: Page) {
    page.on('request', this.onRequest);
    page.on('framenavigated', this.onFrame);
  }

  /** Stops listening; the frames still there are counted too (a frame's URL can change without a request). */
  stop(): Set<string> {
    this.page.off('request', this.onRequest);
    this.page.off('framenavigated', this.onFrame);
    if (!this.page.isClosed()) for (const frame of this.page.frames()) this.add(frame.url());
    return this.origins;
  }

  private add(url: string): void {
    if (!url.startsWith('http:') && !url.startsWith('https:')) return;
    try {
      this.origins.add(new URL(url).origin);
    } catch {
      // not a URL a document could store anything for
    }
  }

  private readonly onRequest = (request: HTTPRequest) => this.add(request.url());
  private readonly onFrame = (frame: Frame) => this.add(frame.url());
}

/**
 * Wipes what a job left in its incognito context and on its page, so the context can serve the next job of
 * the same caller (page-pool-concurrency.ts, context affinity):
 * - the page: a new about:blank document (no script, timer or worker of the job's page runs on), an empty
 *   history (nothing in the back/forward cache), an empty `window.name` (it outlives navigations);
 * - the context: every cookie, the HTTP cache, and for every origin the job touched all its storage
 *   (`Storage.clearDataForOrigin` 'all': local and session storage, IndexedDB, Cache API, service worker
 *   registrations, file systems…), permission overrides;
 * - the puppeteer-level emulation the screenshot job may set (extra headers, media features/type). What a
 *   job sets over its own DevTools session (request interception, timezone, scripts for new documents)
 *   ends with that session, which the job detaches.
 * The viewport, user agent, locale and scrollbars are the job's settings, which every job applies (unless
 * they are those already applied: screenshot.renderer.ts `emulated`), so they are left as they are. CPU per wipe
 * on 2 cores (browser / renderer / GPU process): the about:blank navigation ~14 / 9 / 16 ms (without
 * RenderDocument, chromium-args.ts; ~23 / 15 / 17 with it), the clearing ~10 / 1 / 0 ms, against ~60 ms for
 * a new context's renderer process.
 */
export async function clearContextState(page: Page, origins: Iterable<string>, alongside?: () => Promise<void>): Promise<void> {
  await page.goto('about:blank');
  // Puppeteer's own session of the page: a session of the wipe's own would cost an attach and a detach (and
  // a DevTools session set up in the renderer) on every wipe, which runs beside the caller's next job.
  const cdp = (page as unknown as { _client(): CDPSession })._client();
  await Promise.all([
    // e.g. the page prepared for its next job (~7 ms): independent of the clearing, so not after it.
    alongside?.(),
    cdp.send('Page.resetNavigationHistory'),
    cdp.send('Runtime.evaluate', { expression: 'window.name = ""' }),
    cdp.send('Network.clearBrowserCookies'),
    cdp.send('Network.clearBrowserCache'),
    ...[...origins].map((origin) => cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' })),
    page.setExtraHTTPHeaders({}),
    page.emulateMediaFeatures(),
    page.emulateMediaType(),
    page.browserContext().clearPermissionOverrides(),
  ]);
}
