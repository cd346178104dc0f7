import type { CDPSession } from 'puppeteer-core';

/** Most time the scroll-through may take; what has not appeared by then is captured as it is. */
export const LAZY_SCROLL_MAX_MS = 5_000;

/** Pause at each step: the page's lazy loaders (IntersectionObserver, loading="lazy") react on the next frame. */
const STEP_PAUSE_MS = 30;

/**
 * Most steps down a page: a tall page at a small viewport is scrolled in longer steps (still each at most what
 * lazy loaders look ahead: Chromium's loading="lazy" 1,250–3,000 px, script loaders a few hundred) rather than
 * spending the whole budget on its top part.
 */
const MAX_STEPS = 40;

/**
 * In the page: scrolls down a viewport at a time (longer steps past `maxSteps`) to the end (at most
 * `maxHeight`), back to the top, then waits for the images that are still loading, all within `budgetMs`.
 * Plain text rather than a function's source: the production bundle would wrap an inner function's name in
 * a helper the page does not have.
 */
const SCROLL_THROUGH = `(async (maxHeight, budgetMs, pauseMs, maxSteps) => {
  const started = performance.now();
  const left = () => budgetMs - (performance.now() - started);
  const settle = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, pauseMs)));
  const height = () => Math.min(maxHeight, Math.max(document.documentElement.scrollHeight, document.body ? document.body.scrollHeight : 0));
  if (height() <= window.innerHeight) return 0;
  const step = Math.max(200, window.innerHeight, Math.ceil(height() / maxSteps));
  let steps = 0;
  for (let y = step; y < height() && left() > 0; y += step) {
    window.scrollTo({ top: y, left: 0, behavior: 'instant' });
    steps += 1;
    await settle();
  }
  window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
  await settle();
  const loading = Array.from(document.images).filter((img) => !img.complete);
  if (loading.length && left() > 0)
    await Promise.race([
      Promise.all(loading.map((img) => new Promise((resolve) => {
        img.addEventListener('load', resolve, { once: true });
        img.addEventListener('error', resolve, { once: true });
      }))),
      new Promise((resolve) => setTimeout(resolve, left())),
    ]);
  return steps;
})`;

/**
 * Makes a page's scroll-triggered content appear before a full-page capture. Lazy images (loading="lazy",
 * IntersectionObserver loaders) and reveal-on-scroll effects only act near the viewport, and a full-page
 * capture draws the page below the viewport without scrolling it: such a page would come out with blank
 * areas. Runs over DevTools in the page's main world; a page that breaks it (an overridden scrollTo, a
 * timer that never fires) only loses the effect, never more than `budgetMs` of the render.
 */
export async function revealLazyContent(session: CDPSession, opts: { maxHeight: number; budgetMs: number }): Promise<void> {
  const budgetMs = Math.min(LAZY_SCROLL_MAX_MS, opts.budgetMs);
  if (budgetMs <= 0) return;
  let timer: NodeJS.Timeout | undefined;
  const expression = `${SCROLL_THROUGH}(${opts.maxHeight}, ${budgetMs}, ${STEP_PAUSE_MS}, ${MAX_STEPS})`;
  await Promise.race([
    session.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }).catch(() => undefined),
    // A little over the page's own budget: its timers may run late on a busy page.
    new Promise((resolve) => {
      timer = setTimeout(resolve, budgetMs + 1_000);
    }),
  ]).finally(() => clearTimeout(timer));
  // Back at the top whatever happened (a page whose timers never fired is left scrolled down): fixed headers
  // and the first screen are drawn where the page puts them.
  await session.send('Runtime.evaluate', { expression: TO_TOP }).catch(() => undefined);
}

const TO_TOP = "window.scrollTo({ top: 0, left: 0, behavior: 'instant' })";
