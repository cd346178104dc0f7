import type { decodeRules } from '@duckduckgo/autoconsent';
import { selectorToken } from './cosmetic-filters.ts';

type ConsentRule = ReturnType<typeof decodeRules>[number];

/**
 * Whether a page needs the consent rule set at all. Running autoconsent in every document (its ~140 kB
 * script compiled, its rules sent, detection passes on the page's main thread) cost ~40 ms of every capture
 * on 2 cores, for the many pages that have no consent platform. A platform's rule can only match a page
 * whose elements its `detectCmp` selectors find, so the script starts only when:
 * - the page carries the leading id or class of one of those selectors (the tokens cosmetic hiding collects
 *   anyway), or matches one of the few selectors that have none (tags, attributes: asked in the same call);
 * - a rule is written for the page's own site (its URL pattern matches);
 * - or the page asked for a consent platform's script or data (consent-scripts.ts).
 * A false positive only costs the old price; the tokens err that way (a class alone triggers a rule that
 * needs two).
 */
export interface ConsentTriggers {
  /** Leading `#id` / `.class` tokens (lower case) of every generic rule's detection selectors. */
  tokens: Set<string>;
  /** Detection selectors without such a token, checked in the page (XPath ones left out). */
  selectors: string[];
  /** Rules written for one site: any match runs the rule set. */
  sites: RegExp[];
  /** What each rule can be told by (`rulesForPage`): its site, or its detection tokens when all have one. */
  byRule: Map<string, { site?: RegExp; tokens?: readonly string[] }>;
}

/** The detection selectors of a rule's `detectCmp` steps (the first of a frame/shadow chain). */
function detectionSelectors(rule: ConsentRule): string[] {
  const found: string[] = [];
  const walk = (step: unknown): void => {
    if (!step || typeof step !== 'object') return;
    if (Array.isArray(step)) {
      step.forEach(walk);
      return;
    }
    const record = step as Record<string, unknown>;
    for (const key of ['exists', 'visible', 'waitFor', 'waitForVisible']) {
      const selector = record[key];
      const first = Array.isArray(selector) ? selector[0] : selector;
      if (typeof first === 'string') found.push(first);
    }
    for (const key of ['if', 'then', 'else', 'any']) walk(record[key]);
  };
  walk(rule.detectCmp);
  return found;
}

/** A selector list's parts (commas outside brackets, parentheses and quotes). */
export function selectorParts(selector: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i]!;
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(selector.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(selector.slice(start).trim());
  return parts.filter(Boolean);
}

/** The leading id or class of a simple selector, a tag name before it allowed (`div#cmp` → `#cmp`). */
export function triggerToken(selector: string): string | undefined {
  return selectorToken(selector.replace(/^[a-z][\w-]*(?=[#.])/i, ''));
}

/**
 * The platforms autoconsent detects in code rather than with rules (its lib/cmps/*.ts): the selectors their
 * `detectCmp` looks for, and their sites. Cookiebot and consentmanager are also found by their requests
 * (consent-scripts.ts), Sourcepoint's frames by theirs. `test/consent-triggers.test.ts` reads those files
 * and fails when a selector there is not covered here.
 */
export const BUILT_IN_TRIGGERS = {
  selectors: [
    '#onetrust-banner-sdk', // OneTrust
    '#onetrust-pc-sdk',
    '#CybotCookiebotDialog', // Cookiebot (its API is what autoconsent checks)
    '#cmpbox', // consentmanager
    '.cmp-root .cmp-receptacle', // Conversant
    '#_evidon_banner', // Evidon
    '.klaro > .cookie-modal', // Klaro
    '.klaro > .cookie-notice',
    '#truste-show-consent', // TrustArc
    '#truste-consent-track',
    '.unic .unic-box', // UniConsent
    '.unic .unic-bar',
    '.unic .unic-modal',
    'div > div[class*=Card] > div[class*=Frame] > div[class*=Pills] > button[class*=Pills__StyledPill]', // Admiral
    'tiktok-cookie-banner', // TikTok and Tumblr, also by their sites below
    '#cmp-app-container',
  ],
  sites: ['tiktok', '^https://(www\\.)?tumblr\\.com/'],
};

export function buildConsentTriggers(rules: readonly ConsentRule[]): ConsentTriggers {
  const triggers: ConsentTriggers = {
    tokens: new Set(),
    selectors: [],
    sites: BUILT_IN_TRIGGERS.sites.map((site) => new RegExp(site)),
    byRule: new Map(),
  };
  for (const selector of BUILT_IN_TRIGGERS.selectors) addSelector(triggers, selector);
  for (const rule of rules) {
    const pattern = rule.runContext?.urlPattern;
    if (pattern) {
      try {
        const site = new RegExp(pattern);
        triggers.sites.push(site);
        triggers.byRule.set(rule.name, { site });
      } catch {
        // A pattern this engine cannot compile: autoconsent's own filtering would not match it either.
      }
      continue;
    }
    const selectors = detectionSelectors(rule);
    for (const selector of selectors) addSelector(triggers, selector);
    const tokens = selectors.flatMap(selectorParts).map(triggerToken);
    if (tokens.length && tokens.every((token) => token !== undefined)) triggers.byRule.set(rule.name, { tokens: tokens as string[] });
  }
  return triggers;
}

/** A selector list by its parts' tokens when every part has one, else as a selector the page is asked about. */
function addSelector(triggers: ConsentTriggers, selector: string): void {
  const tokens = selectorParts(selector).map(triggerToken);
  if (tokens.every((token) => token !== undefined)) for (const token of tokens) triggers.tokens.add(token!);
  else if (!selector.startsWith('xpath/')) triggers.selectors.push(selector);
}

/** What the page showed when asked (cosmetic-hiding.ts `collectPage`). */
export interface PageFacts {
  url: string;
  tokens: readonly string[];
  /** One of `ConsentTriggers.selectors` matched an element. */
  probeMatched: boolean;
}

/**
 * Which of the rule set's rules are sent to a page the rule set runs on: those it shows a sign of (one of
 * their detection tokens, or their site), and every rule that cannot be told by its tokens (a selector
 * without one, or none). All of them when a platform's script or data was requested (its popup may not be in
 * the page yet). The script's start grows with the rules it is sent: with the ~200 of a top document it took
 * ~16 ms on 2 cores before it looked for anything, and its detection pass walks each of them.
 */
export function rulesForPage(
  triggers: ConsentTriggers,
  page: PageFacts,
  consentRequested: boolean,
): ((rule: string) => boolean) | undefined {
  if (consentRequested) return undefined;
  const present = new Set(page.tokens);
  return (rule) => {
    const told = triggers.byRule.get(rule);
    if (told?.site) return told.site.test(page.url);
    return !told?.tokens || told.tokens.some((token) => present.has(token));
  };
}

export function needsConsentRules(triggers: ConsentTriggers, page: PageFacts, consentRequested: boolean): boolean {
  return (
    consentRequested ||
    page.probeMatched ||
    page.tokens.some((token) => triggers.tokens.has(token)) ||
    triggers.sites.some((site) => site.test(page.url))
  );
}
