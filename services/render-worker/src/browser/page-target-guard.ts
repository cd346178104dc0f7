import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '@render/logger';
import type { Browser, BrowserContext, CDPSession, Page, Protocol } from 'puppeteer-core';

/**
 * Closes every page target the pools did not open themselves, as soon as Chromium reports it.
 *
 * A render's scripts can open windows (window.open of about:blank or blob: documents, `<a target=_blank>`,
 * a form sent to `_blank`, any of them from an iframe too). Such a window is a top-level page of its own:
 * resetting or recycling the page that opened it does not reach it, so it would keep running the caller's
 * timers and requests in the worker's browser until the browser restarts. Overriding `window.open` in the
 * page cannot cover every route, so the rule is kept at the browser: a page is ours only if a pool asked
 * for it. (Headless shell already refuses such windows, see chromium-args.ts; this holds where it does not.)
 *
 * Chromium reports a new target before the call that created it returns, so an opener-less page seen while
 * one of ours is being opened is judged once the openings then in flight have finished. A window opened by
 * a page always names its opener (even with `noopener`) and is closed at once.
 */
export interface PageTargetGuard {
  /** Opens a page in `owner` that the guard leaves alone. */
  newPage(owner: Browser | BrowserContext): Promise<Page>;
  /**
   * True once `page` has opened a window. Such a page is not handed to anyone else: until the window was
   * closed it could navigate the page (`opener.location`), even after a reset.
   */
  openedWindow(page: Page): boolean;
}

const CLOSE_ATTEMPTS = 10;
const CLOSE_CHECK_MS = 50;

/** The id of the page's target, over puppeteer's own session of it (no extra session per page). */
async function targetIdOf(page: Page): Promise<string> {
  const session = (page as unknown as { _client(): CDPSession })._client();
  const { targetInfo } = await session.send('Target.getTargetInfo');
  return targetInfo.targetId;
}

export async function guardPageTargets(browser: Browser, logger: Logger): Promise<PageTargetGuard> {
  const session = await browser.target().createCDPSession();
  const ours = new Map<string, Page | undefined>();
  const openers = new WeakSet<Page>();
  /** Page targets not destroyed yet: a close is repeated until its target has left this set. */
  const live = new Set<string>();
  const openings = new Set<Promise<unknown>>();

  /**
   * A new window waits for puppeteer's debugger to let it start, and closing it in that state leaves the
   * renderer it shares with its opener paused for good (the opener's render then times out): so it is
   * let run first. Chromium also drops a close that arrives while the window's first navigation is being
   * set up (seen with blob: windows), hence the repeats until the target is gone.
   */
  async function close(target: Protocol.Target.TargetInfo): Promise<void> {
    const { targetId } = target;
    logger.debug({ url: target.url.slice(0, 200), opened: target.openerId !== undefined }, 'closing a window the pools did not open');
    try {
      const { sessionId } = await session.send('Target.attachToTarget', { targetId, flatten: true });
      await session.connection()?.session(sessionId)?.send('Runtime.runIfWaitingForDebugger');
    } catch {
      // Gone already, or never paused: closing is all that is left to do either way.
    }
    for (let attempt = 1; attempt <= CLOSE_ATTEMPTS && live.has(targetId); attempt++) {
      await session.send('Target.closeTarget', { targetId }).catch(() => undefined);
      await sleep(CLOSE_CHECK_MS * attempt);
    }
    if (live.has(targetId)) logger.warn({ url: target.url.slice(0, 200) }, 'a window the pools did not open could not be closed');
  }

  function judge(target: Protocol.Target.TargetInfo): void {
    if (target.type !== 'page' || ours.has(target.targetId)) return;
    live.add(target.targetId);
    const opener = target.openerId ? ours.get(target.openerId) : undefined;
    if (opener) openers.add(opener);
    if (target.openerId || target.openerFrameId || openings.size === 0) {
      void close(target);
      return;
    }
    void Promise.allSettled([...openings]).then(() => (ours.has(target.targetId) ? undefined : close(target)));
  }

  session.on('Target.targetCreated', ({ targetInfo }) => judge(targetInfo));
  session.on('Target.targetDestroyed', ({ targetId }) => {
    ours.delete(targetId);
    live.delete(targetId);
  });
  // Pages that exist already (Chromium's first tab) ran no job; discovery reports them again as created.
  const { targetInfos } = await session.send('Target.getTargets');
  for (const target of targetInfos) if (target.type === 'page') ours.set(target.targetId, undefined);
  await session.send('Target.setDiscoverTargets', { discover: true });

  return {
    newPage: (owner) => {
      const opening = (async () => {
        const page = await owner.newPage();
        try {
          ours.set(await targetIdOf(page), page);
        } catch (err) {
          await page.close().catch(() => undefined);
          throw err;
        }
        return page;
      })();
      openings.add(opening);
      const done = () => openings.delete(opening);
      opening.then(done, done);
      return opening;
    },
    openedWindow: (page) => openers.has(page),
  };
}
