import type { CDPSession } from 'puppeteer-core';
import type { PageFacts } from './consent-triggers.ts';
import { type CosmeticFilters, selectorsFor } from './cosmetic-filters.ts';

/**
 * hideCookieBanners' element hiding, applied to the top document just before the capture: whatever the page
 * shows by then (a banner that came late included) is hidden, and nothing waits for it. Two DevTools calls:
 * the page's ids and classes (which select the generic rules that could match, cosmetic-filters.ts), then
 * the rules, the page's domain rules and the consent rule set's own container selectors, adopted as one
 * stylesheet only when one of them matches an element. Runs in an isolated world (the consent script's, or
 * the renderer's own), so page scripts cannot tamper with the calls. The first call also tells whether the
 * page needs the consent rule set (consent-triggers.ts), so a page without a platform costs no extra call.
 */

/**
 * In the page: its host, its URL, the tokens ("#id", ".class", lower case) its elements carry, and whether
 * one of `probe` (consent-triggers.ts: selectors that have no token) matches an element.
 */
const COLLECT = `function (probe) {
  const tokens = new Set();
  for (const element of document.querySelectorAll('[id],[class]')) {
    const id = element.getAttribute('id');
    if (id) tokens.add('#' + id.toLowerCase());
    const classes = element.getAttribute('class');
    if (classes) for (const name of classes.split(/\\s+/)) if (name) tokens.add('.' + name.toLowerCase());
  }
  // One query for the whole list; one per selector only when the list does not parse (one bad selector).
  const test = (selector) => { try { return document.querySelector(selector) !== null; } catch { return undefined; } };
  const all = probe.length ? test(probe.join(',')) : false;
  const probeMatched = all === undefined ? probe.some((selector) => test(selector) === true) : all;
  return { host: location.hostname, url: location.href, tokens: [...tokens], probeMatched };
}`;

/**
 * In the page: the rules as one more stylesheet (a <style> element where constructed sheets are missing),
 * when one of the selectors matches an element; answers whether it was added. Any new stylesheet, even one
 * whose rules match nothing, makes Chromium restyle and repaint the whole page for the capture's frame
 * (~10 ms of a small page's capture, measured), so a page with nothing to hide (most pages) gets none. The
 * list is asked in one query; a selector Chromium does not parse spoils a list, so then in chunks, and one
 * by one within a chunk that does not parse. One rule per selector in the sheet: an invalid selector then
 * drops only its own rule, as a browser's parser does.
 */
const APPLY = `function (selectors) {
  const matches = (list) => { try { return document.querySelector(list) !== null; } catch { return undefined; } };
  let any = matches(selectors.join(','));
  for (let i = 0; any === undefined && i < selectors.length; i += 50) {
    const chunk = selectors.slice(i, i + 50);
    const found = matches(chunk.join(',')) ?? chunk.some((selector) => matches(selector) === true);
    if (found) any = true;
    else if (i + 50 >= selectors.length) any = false;
  }
  if (!any) return false;
  const css = selectors.map((selector) => selector + '{display:none!important}').join('\\n');
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  } catch {
    const style = document.createElement('style');
    style.textContent = css;
    (document.head || document.documentElement).append(style);
  }
  return true;
}`;

async function call<T>(session: CDPSession, contextId: number | undefined, fn: string, args: unknown[] = []): Promise<T | undefined> {
  // The world may be gone (a page script sent the top frame elsewhere): the new document's main world then.
  const answer =
    contextId === undefined
      ? await session.send('Runtime.evaluate', {
          expression: `(${fn})(${args.map((a) => JSON.stringify(a)).join(',')})`,
          returnByValue: true,
        })
      : await session
          .send('Runtime.callFunctionOn', {
            functionDeclaration: fn,
            executionContextId: contextId,
            arguments: args.map((value) => ({ value })),
            returnByValue: true,
          })
          .catch(() => undefined);
  if (!answer) return call(session, undefined, fn, args);
  return answer.exceptionDetails ? undefined : (answer.result.value as T);
}

/** What the page shows now, for the hiding and for the consent decision (consent-triggers.ts). */
export interface CollectedPage extends PageFacts {
  host: string;
}

/** The page's tokens (and whether one of `probe` matches); undefined when it cannot be asked (an image, a document gone). */
export async function collectPage(
  session: CDPSession,
  contextId: number | undefined,
  probe: readonly string[] = [],
): Promise<CollectedPage | undefined> {
  try {
    return await call<CollectedPage>(session, contextId, COLLECT, [probe]);
  } catch {
    return undefined;
  }
}

/**
 * Hides the cookie notices of a page collected just before; answers how many rules were applied (0 when none
 * of them matches an element: no stylesheet then). Never throws: a page that cannot be styled is captured as
 * it is.
 */
export async function applyNoticeHiding(
  session: CDPSession,
  filters: CosmeticFilters,
  page: CollectedPage,
  options: { contextId?: number; extraSelectors?: (url: string) => readonly string[] },
): Promise<number> {
  try {
    const selectors = new Set(selectorsFor(filters, page.host, page.tokens));
    for (const selector of options.extraSelectors?.(page.url) ?? []) selectors.add(selector);
    if (!selectors.size) return 0;
    const added = await call<boolean>(session, options.contextId, APPLY, [[...selectors]]);
    return added ? selectors.size : 0;
  } catch {
    return 0;
  }
}
