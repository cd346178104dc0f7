import type { CDPSession } from 'puppeteer-core';
import type { PageFacts } from './consent-triggers.ts';
import { type CosmeticFilters, mayMatch, selectorsFor } from './cosmetic-filters.ts';

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
 * In the page: its host, its URL, the tokens ("#id", ".class", lower case) its elements carry, whether one of
 * `probe` (consent-triggers.ts: selectors that have no token) matches an element, and whether one of `known`
 * (`untokenedSelectors`: what would be hidden whatever the page's ids and classes) does (null when the list
 * does not parse). With
 * `fonts`, once the page's web fonts are ready: the fonts wait after the load event and this look are then
 * one DevTools call (page-navigation.ts).
 */
const COLLECT = `async function (probe, known, fonts) {
  if (fonts && document.fonts) await document.fonts.ready;
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
  const knownMatched = known.length ? (test(known.join(',')) ?? null) : false;
  return { host: location.hostname, url: location.href, tokens: [...tokens], probeMatched, knownMatched };
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
          awaitPromise: true,
        })
      : await session
          .send('Runtime.callFunctionOn', {
            functionDeclaration: fn,
            executionContextId: contextId,
            arguments: args.map((value) => ({ value })),
            returnByValue: true,
            awaitPromise: true,
          })
          .catch(() => undefined);
  if (!answer) return call(session, undefined, fn, args);
  return answer.exceptionDetails ? undefined : (answer.result.value as T);
}

/** What the page shows now, for the hiding and for the consent decision (consent-triggers.ts). */
export interface CollectedPage extends PageFacts {
  host: string;
  /** Whether one of the `known` selectors matched (null: the list did not parse); see `applyNoticeHiding`. */
  knownMatched?: boolean | null;
  /** The selectors `knownMatched` answers for. */
  known?: ReadonlySet<string>;
}

export interface CollectOptions {
  /** Selectors looked for as well, so that `applyNoticeHiding` need not ask the page when none is there. */
  known?: readonly string[];
  /** Looks once the page's web fonts are ready, waiting at most this long for them (then looks at once). */
  fontsWithinMs?: number;
}

/** The page's tokens (and whether one of `probe` matches); undefined when it cannot be asked (an image, a document gone). */
export async function collectPage(
  session: CDPSession,
  contextId: number | undefined,
  probe: readonly string[] = [],
  options: CollectOptions = {},
): Promise<CollectedPage | undefined> {
  const known = options.known ?? [];
  const ask = (fonts: boolean) => call<CollectedPage>(session, contextId, COLLECT, [probe, known, fonts]);
  try {
    const page = await (options.fontsWithinMs === undefined ? ask(false) : withinOr(ask(true), options.fontsWithinMs, () => ask(false)));
    return page && { ...page, known: new Set(known) };
  } catch {
    return undefined;
  }
}

/**
 * The selectors `applyNoticeHiding` would try on a page at `url` whatever its ids and classes: the list's rules
 * without a token, its rules for the host, and `extra` (the consent rule set's containers). Asked for in the
 * page's first look, so that a page where none matches (most pages) needs no second call.
 */
export function untokenedSelectors(filters: CosmeticFilters, url: string, extra: (url: string) => readonly string[]): string[] {
  let host = '';
  try {
    host = new URL(url).hostname;
  } catch {
    // not a URL: only the rules for every host
  }
  return [...new Set([...selectorsFor(filters, host, []), ...extra(url)])];
}

/** `work`'s answer, or `instead`'s when `work` takes longer than `ms` (a font that never arrives). */
async function withinOr<T>(work: Promise<T>, ms: number, instead: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = Symbol('late');
  const first = await Promise.race([
    work,
    new Promise<typeof late>((resolve) => (timer = setTimeout(() => resolve(late), Math.max(0, ms)))),
  ]);
  clearTimeout(timer);
  return first === late ? instead() : first;
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
    const present = new Set(page.tokens);
    const all = new Set(selectorsFor(filters, page.host, page.tokens));
    for (const selector of options.extraSelectors?.(page.url) ?? []) all.add(selector);
    // What cannot match (it names a class or id no element has) is left out; and what the look asked for
    // already (`known`), when nothing of it matched: most pages then need no second call.
    const selectors = [...all].filter((selector) => mayMatch(selector, present));
    if (page.knownMatched === false && page.known && selectors.every((selector) => page.known?.has(selector))) return 0;
    if (!selectors.length) return 0;
    const added = await call<boolean>(session, options.contextId, APPLY, [selectors]);
    return added ? selectors.length : 0;
  } catch {
    return 0;
  }
}
