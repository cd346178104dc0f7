import { ScreenshotInteractionLimits, type ScreenshotRenderPayload } from '@render/contracts';
import type { CDPSession, ConsoleMessage, Page } from 'puppeteer-core';
import { ProtocolError } from 'puppeteer-core';
import { cut } from '../page/diagnostics.ts';
import { isInfrastructureError } from '../page/render-error.ts';
import { failure } from './page-navigation.ts';
import { evaluateIsolated } from './utility-world.ts';

type Options = Pick<
  ScreenshotRenderPayload,
  'url' | 'hideSelectors' | 'click' | 'scrollTo' | 'timezone' | 'geolocation' | 'failOnHttpStatus' | 'failOnConsoleError' | 'blockRequests'
>;

/** Longest wait for the frame after a click or a scroll: a page whose main thread is stuck never draws one. */
const FRAME_WAIT_MS = 1_000;

const hasAny = (p: Options) =>
  Boolean(
    p.hideSelectors?.length ||
      p.click?.length ||
      p.scrollTo !== undefined ||
      p.timezone ||
      p.geolocation ||
      p.failOnHttpStatus?.length ||
      p.failOnConsoleError ||
      p.blockRequests?.length,
  );

/**
 * Chromium's Fetch patterns take `*` and `?` as wildcards and `\` as escape; blockRequests has only `*`, so a
 * `?` (a query string) is matched as itself, as contracts' `urlPatternMatches` does.
 */
const fetchPattern = (pattern: string) => pattern.replace(/[\\?]/g, '\\$&');

/**
 * The options that act on a screenshot's page (contracts' screenshot-interactions.ts): what the page sees
 * (time zone, position) and which of its requests are refused, set before it loads; then hiding, clicks and
 * a scroll once it has loaded; and the checks that fail the render instead of capturing (its status, its
 * console errors). Made only for a job that asks for one of them.
 *
 * Nothing outlives the job: the time zone, the position and the request interception are set over a
 * DevTools session of this object's own, reset and detached by `dispose`; the geolocation permission (the
 * page's own origin only) is an override of the job's incognito context, cleared by `dispose` and again by
 * the context's wipe before a reuse (browser/context-reset.ts).
 */
export class PageInteractions {
  private session: CDPSession | undefined;
  private firstConsoleError: string | undefined;
  private granted = false;
  /** The set-up, started by `start`; awaited by `dispose` so that nothing is set after the job ended. */
  readonly ready: Promise<void>;
  blocked = 0;

  private constructor(
    private readonly page: Page,
    private readonly p: Options,
  ) {
    if (p.failOnConsoleError) {
      page.on('console', this.onConsole);
      page.on('pageerror', this.onPageError);
    }
    this.ready = this.setUp();
  }

  /** Starts the set-up for a job that asks for any of these options (undefined otherwise). Await `ready` before navigating. */
  static start(page: Page, p: Options): PageInteractions | undefined {
    return hasAny(p) ? new PageInteractions(page, p) : undefined;
  }

  private async setUp(): Promise<void> {
    const { timezone, geolocation, blockRequests } = this.p;
    if (!timezone && !geolocation && !blockRequests?.length) return;
    const session = await this.page.createCDPSession();
    this.session = session;
    await Promise.all([
      timezone
        ? session.send('Emulation.setTimezoneOverride', { timezoneId: timezone }).catch((err: unknown) => {
            // Chromium's ICU may lack a name the gateway's knows: the content's problem, not the machinery's.
            if (err instanceof ProtocolError && /timezone/i.test(err.message))
              throw failure(`timezone ${JSON.stringify(timezone)} is not known to the browser`, false, err);
            throw err;
          })
        : undefined,
      geolocation ? this.grantPosition(session, geolocation) : undefined,
      blockRequests?.length ? this.block(session, blockRequests) : undefined,
    ]);
  }

  private async grantPosition(session: CDPSession, position: NonNullable<Options['geolocation']>): Promise<void> {
    this.granted = true;
    await Promise.all([
      session.send('Emulation.setGeolocationOverride', {
        latitude: position.latitude,
        longitude: position.longitude,
        accuracy: position.accuracy ?? ScreenshotInteractionLimits.defaultAccuracyMetres,
      }),
      this.page.browserContext().overridePermissions(new URL(this.p.url).origin, ['geolocation']),
    ]);
  }

  /** Pauses only the requests the patterns match (Chromium matches them) and fails each before it leaves the browser. */
  private async block(session: CDPSession, patterns: string[]): Promise<void> {
    session.on('Fetch.requestPaused', this.onPaused);
    await session.send('Fetch.enable', {
      patterns: patterns.map((pattern) => ({ urlPattern: fetchPattern(pattern), requestStage: 'Request' as const })),
    });
  }

  private readonly onPaused = (event: { requestId: string }) => {
    this.blocked++;
    this.session?.send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'BlockedByClient' }).catch(() => undefined);
  };

  private readonly onConsole = (message: ConsoleMessage) => {
    if (this.firstConsoleError !== undefined || message.type() !== 'error') return;
    const text = message.text();
    // Chromium logs every failed load as well (blocked requests included): those are not the page's errors.
    if (/^Failed to load resource\b/.test(text)) return;
    this.firstConsoleError = `console.error: ${text}`;
  };

  private readonly onPageError = (error: unknown) => {
    if (this.firstConsoleError !== undefined) return;
    const text = error instanceof Error ? (error.message.split('\n')[0] ?? error.name) : String(error);
    this.firstConsoleError = `Uncaught error: ${text}`;
  };

  /** failOnHttpStatus: fails when the page's own answer has one of the listed statuses. */
  assertStatus(status: number | null): void {
    if (status !== null && this.p.failOnHttpStatus?.includes(status))
      throw failure(`the page answered HTTP ${status}, which failOnHttpStatus lists`);
  }

  /** failOnConsoleError: fails with the page's first error, quoted (cut: the page writes it). */
  assertNoConsoleError(): void {
    if (this.p.failOnConsoleError && this.firstConsoleError !== undefined)
      throw failure(
        `the page logged an error (failOnConsoleError): ${cut(this.firstConsoleError, ScreenshotInteractionLimits.maxConsoleErrorQuote)}`,
      );
  }

  /** After the page has loaded (and css, js): hide, click in order, scroll. `session` is the job's own. */
  async interact(session: CDPSession, status: number | null): Promise<void> {
    this.assertStatus(status);
    this.assertNoConsoleError();
    if (this.p.hideSelectors?.length) await this.hide(session);
    if (this.p.click?.length) await this.clickAll(session, this.p.click);
    if (this.p.scrollTo !== undefined) await this.scroll(session, this.p.scrollTo);
  }

  /** Just before the capture: the checks again (a page script may have navigated, or failed late), the hiding again for a new document. */
  async beforeCapture(session: CDPSession, status: number | null): Promise<void> {
    this.assertStatus(status);
    this.assertNoConsoleError();
    if (this.p.hideSelectors?.length) await this.hide(session);
  }

  /**
   * A style sheet of the document's own (adopted, so it is in no element a page script would find or a
   * style-src policy would refuse), one rule per selector: an invalid selector is named, not silently
   * dropped with the others. Evaluated in an isolated world, so the page's globals cannot interfere.
   */
  private async hide(session: CDPSession): Promise<void> {
    const selectors = this.p.hideSelectors ?? [];
    const bad = await evaluateIsolated<number>(
      session,
      `((selectors) => {
        const sheet = new CSSStyleSheet();
        for (let i = 0; i < selectors.length; i++) {
          try {
            document.createDocumentFragment().querySelector(selectors[i]);
            sheet.insertRule(selectors[i] + ' { display: none !important; }', sheet.cssRules.length);
          } catch (e) { return i; }
        }
        document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
        return -1;
      })(${JSON.stringify(selectors)})`,
    );
    if (bad !== undefined && bad >= 0) throw failure(`hideSelectors: ${JSON.stringify(selectors[bad])} is not a valid CSS selector`);
  }

  /** Each selector's first match clicked as a person would (scrolled into view, the mouse at its centre), then the page scrolled back. */
  private async clickAll(session: CDPSession, selectors: string[]): Promise<void> {
    const scrolled = await evaluateIsolated<[number, number]>(session, '[scrollX, scrollY]');
    for (const selector of selectors) {
      const quoted = JSON.stringify(selector);
      const element = await this.page.$(selector).catch((err: unknown) => {
        if (isInfrastructureError(err)) throw err;
        throw failure(`click: ${quoted} is not a valid CSS selector`, false, err);
      });
      if (!element) throw failure(`click: no element matches selector ${quoted}`);
      try {
        await element.click();
      } catch (err) {
        if (isInfrastructureError(err)) throw err;
        throw failure(`click: the element matching selector ${quoted} cannot be clicked (hidden, or without a size)`, false, err);
      } finally {
        await element.dispose().catch(() => undefined);
      }
      await nextFrame(session);
    }
    if (scrolled) await evaluateIsolated(session, `window.scrollTo({ left: ${scrolled[0]}, top: ${scrolled[1]}, behavior: 'instant' })`);
  }

  private async scroll(session: CDPSession, to: number | string): Promise<void> {
    const answer = await evaluateIsolated<string>(
      session,
      typeof to === 'number'
        ? `(window.scrollTo({ left: 0, top: ${to}, behavior: 'instant' }), 'ok')`
        : `((selector) => {
            let element;
            try { element = document.querySelector(selector); } catch (e) { return 'invalid'; }
            if (!element) return 'missing';
            element.scrollIntoView({ block: 'start', inline: 'nearest', behavior: 'instant' });
            return 'ok';
          })(${JSON.stringify(to)})`,
    );
    if (answer === 'invalid') throw failure(`scrollTo: ${JSON.stringify(to)} is not a valid CSS selector`);
    if (answer === 'missing') throw failure(`scrollTo: no element matches selector ${JSON.stringify(to)}`);
    await nextFrame(session);
  }

  /** Ends everything the job set: after the set-up has settled, so a late one cannot outlive the job. */
  async dispose(): Promise<void> {
    this.page.off('console', this.onConsole);
    this.page.off('pageerror', this.onPageError);
    await this.ready.catch(() => undefined);
    const session = this.session;
    this.session = undefined;
    if (this.granted)
      await this.page
        .browserContext()
        .clearPermissionOverrides()
        .catch(() => undefined);
    if (!session) return;
    session.off('Fetch.requestPaused', this.onPaused);
    // Detaching ends the session's overrides; reset first all the same, so that no later Chromium keeps them.
    await Promise.all([
      this.p.timezone ? session.send('Emulation.setTimezoneOverride', { timezoneId: '' }).catch(() => undefined) : undefined,
      this.p.geolocation ? session.send('Emulation.clearGeolocationOverride').catch(() => undefined) : undefined,
      this.p.blockRequests?.length ? session.send('Fetch.disable').catch(() => undefined) : undefined,
    ]);
    await session.detach().catch(() => undefined);
  }
}

/** Two animation frames (the change drawn), in an isolated world; cut at FRAME_WAIT_MS. */
async function nextFrame(session: CDPSession): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    evaluateIsolated(session, 'new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(true))))'),
    new Promise((resolve) => {
      timer = setTimeout(resolve, FRAME_WAIT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
}
