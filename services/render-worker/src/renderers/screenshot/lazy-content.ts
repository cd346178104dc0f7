import type { CDPSession, HTTPRequest, Page } from 'puppeteer-core';
import { evaluateIsolated } from './utility-world.ts';

/** Most time the scroll-through may take; what has not appeared by then is captured as it is. */
export const LAZY_SCROLL_MAX_MS = 5_000;

/**
 * Most steps down a page: a tall page at a small viewport is scrolled in longer steps (still each at most what
 * lazy loaders look ahead: Chromium's loading="lazy" 1,250–3,000 px, script loaders a few hundred) rather than
 * spending the whole budget on its top part.
 */
const MAX_STEPS = 40;

/**
 * In the page: from `from`, down a step at a time to the end of the page as it is (at most `maxHeight`), two
 * frames at each step: the first lays the new position out, and the intersection observers (loading="lazy",
 * script loaders) run before the second. Answers where it stopped and the page's height. Plain text rather
 * than a function's source: the production bundle would wrap an inner function's name in a helper the page
 * does not have.
 */
const SCROLL_DOWN = `(async (from, maxHeight, maxSteps, budgetMs) => {
  const started = performance.now();
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  const height = () => Math.min(maxHeight, Math.max(document.documentElement.scrollHeight, document.body ? document.body.scrollHeight : 0));
  const step = Math.max(200, window.innerHeight, Math.ceil(height() / maxSteps));
  let y = from;
  while (y + window.innerHeight < height() && performance.now() - started < budgetMs) {
    y += step;
    window.scrollTo({ top: y, left: 0, behavior: 'instant' });
    await frame();
    await frame();
  }
  return { reached: y, height: height(), viewport: window.innerHeight };
})`;

/** In the page: the images whose loading has started and not ended (a lazy image not yet in range has no currentSrc). */
const IMAGES_LOADING = `((budgetMs) => {
  const loading = Array.from(document.images).filter((img) => !img.complete && img.currentSrc);
  if (!loading.length) return 0;
  return Promise.race([
    Promise.all(loading.map((img) => new Promise((resolve) => {
      img.addEventListener('load', resolve, { once: true });
      img.addEventListener('error', resolve, { once: true });
    }))),
    new Promise((resolve) => setTimeout(resolve, budgetMs)),
  ]).then(() => loading.length);
})`;

const TO_TOP =
  "window.scrollTo({ top: 0, left: 0, behavior: 'instant' }); new Promise((resolve) => requestAnimationFrame(() => resolve()))";

/** Resource types that may stay open for good (a video's range requests, a socket): never waited for. */
const ENDLESS = new Set(['media', 'websocket', 'eventsource']);

/** The page's requests started since `start()` that have not ended, and a wait for none to be left. */
class NewRequests {
  private readonly inFlight = new Set<HTTPRequest>();
  private idle: (() => void) | undefined;

  constructor(private readonly page: Page) {
    page.on('request', this.onRequest);
    page.on('requestfinished', this.onDone);
    page.on('requestfailed', this.onDone);
  }

  dispose(): void {
    this.page.off('request', this.onRequest);
    this.page.off('requestfinished', this.onDone);
    this.page.off('requestfailed', this.onDone);
  }

  /** Resolves once nothing started since the scroll began is loading, or after `timeoutMs`. */
  settled(timeoutMs: number): Promise<void> {
    if (!this.inFlight.size || timeoutMs <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(finish, timeoutMs);
      function finish() {
        clearTimeout(timer);
        resolve();
      }
      this.idle = finish;
    });
  }

  private readonly onRequest = (request: HTTPRequest) => {
    if (!ENDLESS.has(request.resourceType())) this.inFlight.add(request);
  };

  private readonly onDone = (request: HTTPRequest) => {
    if (this.inFlight.delete(request) && !this.inFlight.size) this.idle?.();
  };
}

const evaluate = evaluateIsolated;

/**
 * Makes a page's scroll-triggered content appear before a full-page capture. Lazy images (loading="lazy",
 * IntersectionObserver loaders) and reveal-on-scroll effects only act near the viewport, and a full-page
 * capture draws the page below the viewport without scrolling it: such a page would come out with blank
 * areas. Scrolls down to the end, then waits for what that started (the requests it set off, the images
 * loading); if the page grew meanwhile, on down the new part; stops as soon as nothing new loads, then goes
 * back to the top. Runs over DevTools in an isolated world (the page's own scrollTo or requestAnimationFrame,
 * whatever it did to them, are not used); a page that breaks it anyway (frames that never come) only loses
 * the effect, never more than `budgetMs` of the render.
 */
export async function revealLazyContent(page: Page, session: CDPSession, opts: { maxHeight: number; budgetMs: number }): Promise<void> {
  const budgetMs = Math.min(LAZY_SCROLL_MAX_MS, opts.budgetMs);
  if (budgetMs <= 0) return;
  const until = Date.now() + budgetMs;
  const left = () => until - Date.now();
  const requests = new NewRequests(page);
  let timer: NodeJS.Timeout | undefined;
  const scrolled = (async () => {
    let from = 0;
    while (left() > 0) {
      const down = await evaluate<{ reached: number; height: number; viewport: number }>(
        session,
        `${SCROLL_DOWN}(${from}, ${opts.maxHeight}, ${MAX_STEPS}, ${left()})`,
      );
      if (!down || down.reached === from) return; // nothing below the viewport (or the page broke the scroll)
      await requests.settled(left());
      await evaluate(session, `${IMAGES_LOADING}(${Math.max(0, left())})`);
      const height = await evaluate<number>(
        session,
        'Math.max(document.documentElement.scrollHeight, document.body ? document.body.scrollHeight : 0)',
      );
      // Nothing new below what was scrolled through: done.
      if (height === undefined || height <= down.reached + down.viewport || down.reached + down.viewport >= opts.maxHeight) return;
      from = down.reached;
    }
  })();
  try {
    // A little over the budget: the page's frames may come late on a busy machine.
    await Promise.race([
      scrolled,
      new Promise((resolve) => {
        timer = setTimeout(resolve, budgetMs + 1_000);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    requests.dispose();
  }
  // Back at the top whatever happened (a page whose frames never came is left scrolled down): fixed headers
  // and the first screen are drawn where the page puts them.
  await Promise.race([evaluate(session, TO_TOP), new Promise((resolve) => setTimeout(resolve, 1_000))]);
}
