import type { CDPSession, HTTPRequest, HTTPResponse, Page } from 'puppeteer-core';
import { TimeoutError } from 'puppeteer-core';
import { findEgressRefusal } from '../../egress/egress-refusals.ts';
import { isInfrastructureError, RenderError } from '../page/render-error.ts';
import { evaluateIsolated } from './utility-world.ts';

export const failure = (cause: string, retryable = false, error?: unknown) =>
  new RenderError(`Failed to capture screenshot: ${cause}`, retryable, { cause: error });

/**
 * Follows what the top frame is showing: every document it loads (redirect targets, `location = …` from
 * a page script) passes the egress proxy, whose own answers are recognisable by their headers.
 */
export class MainDocument {
  private response: HTTPResponse | null = null;
  private failed: { url: string; errorText: string } | null = null;
  private readonly since = Date.now();

  constructor(private readonly page: Page) {
    page.on('response', this.onResponse);
    page.on('requestfailed', this.onRequestFailed);
  }

  /** The HTTP status of the top frame's latest document; null before one answered. */
  get status(): number | null {
    return this.response?.status() ?? null;
  }

  dispose(): void {
    this.page.off('response', this.onResponse);
    this.page.off('requestfailed', this.onRequestFailed);
  }

  private isTopDocument(request: HTTPRequest): boolean {
    return request.isNavigationRequest() && request.frame() === this.page.mainFrame();
  }

  private readonly onResponse = (response: HTTPResponse) => {
    if (this.isTopDocument(response.request())) this.response = response;
  };

  private readonly onRequestFailed = (request: HTTPRequest) => {
    if (this.isTopDocument(request)) this.failed = { url: request.url(), errorText: request.failure()?.errorText ?? '' };
  };

  /**
   * Loads `url` and waits for its load event up to `timeoutMs`, then for its web fonts; the capture draws
   * the frame that lays out what the load event left (`fontsReady`). No timer. A page that answered but keeps loading (a
   * hanging font, an endless long-poll) is captured as it is, as a browser would show it.
   */
  async load(
    session: CDPSession,
    url: string,
    timeoutMs: number,
    waitUntil: 'load' | 'domcontentloaded' | 'networkidle' = 'load',
    /** An isolated world already in the document (the consent script's), which saves making one. */
    world?: () => number | undefined,
    /** false: the caller waits for the web fonts itself, in its next call to the page (cosmetic-hiding.ts `collectPage`). */
    waitForFonts = true,
  ): Promise<void> {
    const until = Date.now() + timeoutMs;
    try {
      const event = waitUntil === 'networkidle' ? 'networkidle0' : waitUntil;
      await this.page.goto(url, { waitUntil: event, timeout: Math.max(500, timeoutMs) });
      if (waitUntil === 'load' && waitForFonts) await fontsReady(session, until - Date.now(), world?.());
    } catch (err) {
      if (err instanceof TimeoutError) {
        if (this.response) return this.assertAllowed();
        throw failure(`the page did not respond within ${Math.round(timeoutMs / 100) / 10} s`);
      }
      throw await this.explain(err as Error, url);
    }
    await this.assertAllowed();
  }

  /** Fails when the top frame shows the egress proxy's refusal instead of a page. */
  async assertAllowed(): Promise<void> {
    const response = this.response;
    if (!response) return;
    const headers = response.headers();
    if (headers['x-egress-blocked']) {
      const body = await response.text().catch(() => '');
      const reason = /Blocked by render egress policy: (.+)/.exec(body)?.[1]?.trim();
      throw failure(reason ? `the address is not allowed (${reason})` : 'the address is not allowed');
    }
    if (headers['x-egress-error'] === 'unresolved') {
      const body = await response.text().catch(() => '');
      const reason = /Bad gateway: (.+)/.exec(body)?.[1]?.trim();
      throw failure(reason ?? `${hostPort(response.url())} could not be resolved`);
    }
    if (headers['x-egress-error'] === 'unreachable') {
      const body = await response.text().catch(() => '');
      const cause = /upstream unavailable \((.+)\)/.exec(body)?.[1];
      throw failure(`${hostPort(response.url())} could not be reached${cause ? ` (${cause})` : ''}`);
    }
  }

  private async explain(err: Error, url: string): Promise<RenderError> {
    if (err instanceof RenderError) return err;
    const message = err.message ?? '';
    if (isInfrastructureError(err) || /page crashed/i.test(message)) return failure('the renderer stopped unexpectedly', true, err);
    // A refused or blocked top-frame request that still produced a proxy answer says more than the error.
    try {
      await this.assertAllowed();
    } catch (blocked) {
      if (blocked instanceof RenderError) return blocked;
    }
    const code = /net::(ERR_[A-Z0-9_]+)/.exec(message)?.[1] ?? /net::(ERR_[A-Z0-9_]+)/.exec(this.failed?.errorText ?? '')?.[1];
    if (!code) return failure('the page could not be loaded');
    if (code === 'ERR_TUNNEL_CONNECTION_FAILED' || code === 'ERR_PROXY_CONNECTION_FAILED') {
      // Chromium hides the proxy's answer to CONNECT (https); the proxy noted why it refused.
      const target = this.failed?.url ?? url;
      const refusal = refusalFor(target, this.since);
      if (refusal?.kind === 'blocked') return failure(`the address is not allowed (${refusal.reason})`);
      if (refusal?.kind === 'unresolved') return failure(refusal.reason);
      if (refusal?.kind === 'unreachable') return failure(`${hostPort(target)} could not be reached (${refusal.reason})`);
    }
    if (code === 'ERR_ABORTED') return failure('net::ERR_ABORTED (the address may serve a download rather than a page)');
    return failure(`net::${code}`);
  }
}

/**
 * The page's web fonts ready. Evaluated in an isolated world (a page that replaced `document.fonts` cannot
 * stall it); cut at `timeoutMs`, as a page whose main thread is stuck never answers. No animation frame is
 * waited for here: the capture draws one (Page.captureScreenshot asks the renderer for a new frame, which
 * runs the page's animation-frame callbacks and lays out what the load event left), so a separate wait
 * only added up to a frame (~15 ms) to every capture.
 */
const FONTS_READY = 'Promise.resolve(document.fonts && document.fonts.ready).then(() => undefined)';

async function fontsReady(session: CDPSession, timeoutMs: number, contextId?: number): Promise<void> {
  if (timeoutMs <= 0) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    evaluateIsolated(session, FONTS_READY, contextId),
    new Promise((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    }),
  ]).finally(() => clearTimeout(timer));
}

function refusalFor(url: string, since: number) {
  try {
    const parsed = new URL(url);
    const port = parsed.port ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80;
    return findEgressRefusal(parsed.hostname, port, since);
  } catch {
    return undefined;
  }
}

function hostPort(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the server';
  }
}
