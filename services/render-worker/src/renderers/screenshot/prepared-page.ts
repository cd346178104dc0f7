import type { CDPSession, Page } from 'puppeteer-core';
import { ConsentBlocker } from './consent-blocker.ts';
import { trackUtilityWorld } from './utility-world.ts';

/**
 * What a screenshot job needs on its page before the navigation that depends on nothing in the job: a
 * DevTools session of its own, the consent blocker standing by (its binding added, the page's frames and
 * consent requests watched; its script runs only on a page that needs it, consent-triggers.ts) and the
 * renderer's utility world noted in each new document (utility-world.ts `trackUtilityWorld`). Made when
 * the screenshot pool prepares a spare page (pools.ts; the spare is opened once the last job has ended), so
 * a job no longer spends ~10 ms of DevTools calls on it before its navigation. A job that keeps its cookie
 * banners takes the binding off again (`ConsentBlocker.uninstall`: one call, before navigating).
 */
export interface PreparedPage {
  session: CDPSession;
  consent: ConsentBlocker;
}

const prepared = new WeakMap<Page, PreparedPage>();

export async function prepareScreenshotPage(page: Page): Promise<void> {
  const session = await page.createCDPSession();
  try {
    // Before the blocker enables Runtime on the session: the tracking listens to the worlds it reports.
    trackUtilityWorld(session, topFrameId(page));
    const consent = await ConsentBlocker.install(session, page);
    prepared.set(page, { session, consent });
  } catch (err) {
    await session.detach().catch(() => undefined);
    throw err;
  }
}

/** The top frame's DevTools id, which puppeteer already knows (a Page.getFrameTree round trip otherwise). */
const topFrameId = (page: Page) => (page.mainFrame() as unknown as { _id: string })._id;

/** The page's prepared session and blocker, handed out once; undefined for a page that was not prepared. */
export function takePrepared(page: Page): PreparedPage | undefined {
  const found = prepared.get(page);
  prepared.delete(page);
  return found;
}
