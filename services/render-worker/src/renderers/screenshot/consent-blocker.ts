import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type Config, type ConsentState, decodeRules, filterCompactRules, type IndexedCMPRuleset } from '@duckduckgo/autoconsent';
import type { CDPSession, Page, Protocol } from 'puppeteer-core';
import { ConsentRequests } from './consent-scripts.ts';
import { buildConsentTriggers, type ConsentTriggers } from './consent-triggers.ts';

/**
 * Hides cookie/consent popups with DuckDuckGo's autoconsent: its maintained rule set (≈800 consent
 * platforms and site rules, the one DuckDuckGo's browsers ship) detects a popup, clicks "reject" where the
 * platform offers it, hides it with the rule's CSS otherwise, and pre-hides known popup containers while
 * it works.
 *
 * The content script runs in an isolated world (as in a browser extension): page scripts cannot see or
 * tamper with it or with the binding it reports through. Its "eval" rule steps, which must read page
 * globals, run in the frame's main world with the page's own privileges and a time limit.
 *
 * It stands by until the loaded page shows a sign of a consent platform (consent-triggers.ts: an element a
 * platform's detection looks for, a rule for the site, a request to a platform): most pages have none, and
 * the script in every document cost them ~40 ms a capture. Then `activate` runs it in the page as it is,
 * its rules handed over with it, and the capture waits only while it detects and clicks through a popup
 * (`nextConsentStep`). Popups it does not know, or that appear later, are hidden by the cookie-notice list
 * just before the capture (cosmetic-hiding.ts), so nothing waits on a timer.
 */

const WORLD = '__render_consent';
/** Where `activate` leaves the top document's rules for its script (in the script's world only). */
const PRE_INIT = '__renderConsentInit';
const BINDING = '__renderConsentSend';
const MAX_EVALS = 100;
const EVAL_TIMEOUT_MS = 1_000;
/** Longest wait for a detected popup to be dealt with; the caller bounds it further by its deadline. */
export const CONSENT_MAX_WAIT_MS = 4_000;
/** How long an activated script has to send its first report (it sends it within milliseconds of starting). */
const FIRST_REPORT_MS = 500;

// Prehide is kept for longer than any render (it is removed when the popup is handled or when nothing
// was found), so popups a platform injects late are still hidden when the capture happens.
const CONFIG: Config = {
  enabled: true,
  autoAction: 'optOut',
  disabledCmps: [],
  enablePrehide: true,
  enableCosmeticRules: true,
  enableGeneratedRules: true,
  // A detection retry comes every 500 ms of autoconsent's clock: 200 of them at CONSENT_CLOCK_SPEED are the
  // second of real time that 20 were at a hundredth of the speed.
  detectRetries: 200,
  isMainWorld: false,
  prehideTimeout: 60_000,
  // Heuristics would click "accept" on unknown popups; only the rule set decides here.
  enableHeuristicDetection: false,
  heuristicMode: 'off',
  enablePopupMutationObserver: false,
  visualTest: false,
  logs: { lifecycle: false, rulesteps: false, detectionsteps: false, evals: false, errors: false, messages: false, waits: false },
  // On so that each detection pass marks its end (the prelude turns the marks into messages, below).
  performanceLoggingEnabled: true,
  heuristicPopupSearchTimeout: 100,
};

/**
 * autoconsent's clock in its world runs this much faster. Its rules wait by the clock between steps, sized
 * for a person's browser still loading the site (OneTrust's waits 500 ms before clicking "Reject All", a
 * detection retry comes every 500 ms, a platform without a popup is looked at for 5 s); here the page has
 * loaded before the capture asks, and its conditions are polled, not guessed. The timeouts shrink alike, and
 * everything stays bounded by CONSENT_MAX_WAIT_MS. At 10×, OneTrust's pause alone was 50 ms of every
 * capture of a page with its banner (the bench's banner case); at 20× 25 ms; at 40× 12.5 ms (the banner
 * case's settle 46 → 33 ms, measured); at 100× 5 ms. A step that times out leaves the popup to the cosmetic
 * hiding applied before the capture, which hides the platform's containers whatever the rule did.
 */
const CONSENT_CLOCK_SPEED = 100;
/**
 * The shortest delay in the script's world (ms): its polls (every 100 ms of its clock, e.g. for a popup to
 * show) come every 2 ms, not in a tight loop. At 10 ms, a poll waited four times what the clock asked.
 */
const CONSENT_MIN_DELAY_MS = 2;

/**
 * Runs in the script's isolated world before it. The script calls window.autoconsentSendMessage(object); a
 * CDP binding takes one string, and it tells Node which frame is the top one. Some of the world's globals are
 * replaced for the script alone (the page's own are untouched):
 * - setTimeout: delays divided by CONSENT_CLOCK_SPEED (at least CONSENT_MIN_DELAY_MS).
 * - requestIdleCallback: the script starts detecting "when idle", which on a busy page is up to 500 ms
 *   after DOMContentLoaded; without it, at once.
 * - performance.mark/measure: a detection pass marks the end of each stage; the last one
 *   ("findCmpStageEnd_heuristic", run even when empty) is reported as `passEnded`, so Node knows that the
 *   document as it was has been looked at and nothing found. Nothing reaches the page's performance timeline.
 */
const PRELUDE = `(() => {
  const send = globalThis.${BINDING};
  const top = window.top === window;
  const post = (message) => { try { send(JSON.stringify({ top, message })); } catch {} };
  globalThis.autoconsentSendMessage = (message) => {
    const ready = globalThis.${PRE_INIT};
    if (top && ready && message && message.type === 'init' && message.url === ready.url) {
      globalThis.${PRE_INIT} = undefined;
      post({ type: 'init', url: message.url, answered: true });
      Promise.resolve().then(() => globalThis.autoconsentReceiveMessage(ready.answer));
    } else post(message);
    return Promise.resolve();
  };
  globalThis.requestIdleCallback = undefined;
  const realSetTimeout = globalThis.setTimeout.bind(globalThis);
  globalThis.setTimeout = (fn, ms, ...args) => realSetTimeout(fn, ms > 0 ? Math.max(${CONSENT_MIN_DELAY_MS}, ms / ${CONSENT_CLOCK_SPEED}) : ms, ...args);
  try {
    performance.mark = (name) => { if (name === 'findCmpStageEnd_heuristic') post({ type: 'passEnded' }); };
    performance.measure = () => undefined;
  } catch {}
})();
`;

let assets: { source: string; rules: IndexedCMPRuleset } | undefined;

/** Read once per process: the content script (~140 kB) and the compact rule set (~250 kB). */
function consentAssets(): { source: string; rules: IndexedCMPRuleset } {
  if (!assets) {
    const require = createRequire(import.meta.url);
    const dist = dirname(require.resolve('@duckduckgo/autoconsent'));
    const script = readFileSync(join(dist, 'autoconsent.playwright.js'), 'utf8');
    const rules = JSON.parse(
      readFileSync(require.resolve('@duckduckgo/autoconsent/rules/compact-rules.json'), 'utf8'),
    ) as IndexedCMPRuleset;
    assets = { source: PRELUDE + script, rules };
  }
  return assets;
}

/** Containers autoconsent pre-hides whatever the platform (its prehideElements adds Didomi's to every rule's). */
const ALWAYS_PREHIDDEN = [
  '#didomi-popup',
  '.didomi-popup-container',
  '.didomi-popup-notice',
  '.didomi-consent-popup-preferences',
  '#didomi-notice',
  '.didomi-popup-backdrop',
  '.didomi-screen-medium',
];

let decoded: ReturnType<typeof decodeRules> | undefined;
const decodedRules = () => {
  decoded ??= decodeRules(consentAssets().rules);
  return decoded;
};

let triggers: ConsentTriggers | undefined;

/** What makes a page need the rule set (consent-triggers.ts), built once per process. */
export function consentTriggers(): ConsentTriggers {
  triggers ??= buildConsentTriggers(decodedRules());
  return triggers;
}

let prehide: { generic: string[]; bySite: { pattern: RegExp; selectors: string[] }[] } | undefined;

/**
 * The rule set's own popup containers for a top document at `url` (the rules without a URL pattern, and
 * those whose pattern matches): hidden with the cookie-notice list just before the capture, as autoconsent
 * pre-hides them while it works.
 */
export function consentRuleSelectors(url: string): string[] {
  if (!prehide) {
    prehide = { generic: [...ALWAYS_PREHIDDEN], bySite: [] };
    for (const rule of decodedRules()) {
      const selectors = rule.prehideSelectors ?? [];
      if (!selectors.length || rule.runContext?.main === false) continue;
      const pattern = rule.runContext?.urlPattern;
      if (!pattern) prehide.generic.push(...selectors);
      else {
        try {
          prehide.bySite.push({ pattern: new RegExp(pattern), selectors });
        } catch {
          // A pattern this engine cannot compile: the rule still runs in the page.
        }
      }
    }
  }
  return [...prehide.generic, ...prehide.bySite.filter((site) => site.pattern.test(url)).flatMap((site) => site.selectors)];
}

/** The rules for a frame's URL, for the last few URLs (the same pages are often captured again). */
const rulesByUrl = new Map<string, ReturnType<typeof filterCompactRules>>();
const RULES_CACHE_SIZE = 64;

function rulesFor(url: string, mainFrame: boolean, keep?: (rule: string) => boolean): ReturnType<typeof filterCompactRules> {
  const key = `${mainFrame ? 'top' : 'frame'} ${url}`;
  let rules = rulesByUrl.get(key);
  if (!rules) {
    rules = filterCompactRules(consentAssets().rules, { url, mainFrame });
    if (rulesByUrl.size >= RULES_CACHE_SIZE) rulesByUrl.delete(rulesByUrl.keys().next().value as string);
    rulesByUrl.set(key, rules);
  }
  if (!keep) return rules;
  // Decoded only for their names, in the same order (~0.1 ms for a top document's ~200).
  const names = decodeRules(rules).map((rule) => rule.name);
  return { ...rules, r: rules.r.filter((_, i) => keep(names[i]!)) };
}

export type ConsentOutcome =
  /** No consent platform found on the page (its known containers stay pre-hidden). */
  | { status: 'none' }
  /** A popup was rejected or hidden. */
  | { status: 'handled'; cmp?: string }
  /** A popup was found but the rule could not close it. */
  | { status: 'failed'; cmp?: string }
  /** Still working when the wait ended. */
  | { status: 'pending'; cmp?: string };

interface Envelope {
  top?: boolean;
  message?: { type?: string; [key: string]: unknown };
}

const DONE_STATES = new Set(['done', 'optOutSucceeded', 'optInSucceeded']);
/** A platform was found and its popup is being looked for or handled. */
const HANDLING_STATES = new Set(['cmpDetected', 'openPopupDetected', 'runningOptOut', 'runningOptIn']);
/** Before detection starts (the script waits for its rules, then for DOMContentLoaded). */
const NOT_STARTED_STATES = new Set(['loading', 'waitingForInitResponse', 'initialized']);

/** Verdict on the top frame's latest report; undefined while it is still deciding. */
export function consentVerdict(state: ConsentState | undefined): { outcome: ConsentOutcome; clicked: boolean } | undefined {
  if (!state) return undefined;
  const cmp = state.detectedPopups[0] ?? state.detectedCmps[0];
  if (DONE_STATES.has(state.lifecycle)) return { outcome: { status: 'handled', cmp }, clicked: state.clicks > 0 };
  if (state.lifecycle === 'optOutFailed' || state.lifecycle === 'optInFailed')
    return { outcome: { status: 'failed', cmp }, clicked: false };
  if (state.lifecycle === 'nothingDetected') return { outcome: { status: 'none' }, clicked: false };
  // A platform is present but shows no popup (prehide is only lifted once that is decided).
  if (state.lifecycle === 'cmpDetected' && !state.prehideOn && state.detectedPopups.length === 0) {
    return { outcome: { status: 'none' }, clicked: false };
  }
  return undefined;
}

/** What is known of the top document when the capture is otherwise ready. */
export interface ConsentFacts {
  /** The script's latest report; undefined: it is not running on this document (an image, a PDF…). */
  state: ConsentState | undefined;
  /** Detection passes over this document that ended without finding a platform. */
  passesEnded: number;
  /** Passes that must have ended: the first one, or one that started after a consent request finished. */
  passesNeeded: number;
  /** A consent platform's request (its script, its banner's data) is in flight. */
  consentLoading: boolean;
  /** DOMContentLoaded has not fired: detection cannot start before it (the capture does not wait for it). */
  documentLoading?: boolean;
  /** The script was just started on the page (`activate`) and has not reported yet. */
  starting?: boolean;
}

export type ConsentStep = { done: ConsentOutcome } | { wait: 'handling' | 'loading' | 'detecting' };

/**
 * Whether the capture waits for the consent blocker: only while a platform it found is being dealt with,
 * while a platform's request is still loading, or while its pass over the document as it is now has not
 * ended (a pass takes milliseconds). Element hiding needs no wait: it is applied just before the capture.
 */
export function nextConsentStep(facts: ConsentFacts): ConsentStep {
  const { state } = facts;
  if (!state) return facts.starting ? { wait: 'detecting' } : { done: { status: 'none' } };
  const verdict = consentVerdict(state);
  if (verdict) return { done: verdict.outcome };
  if (state.detectedCmps.length > 0 || HANDLING_STATES.has(state.lifecycle)) return { wait: 'handling' };
  if (facts.consentLoading) return { wait: 'loading' };
  if (NOT_STARTED_STATES.has(state.lifecycle) && facts.documentLoading) return { done: { status: 'none' } };
  if (facts.passesEnded < facts.passesNeeded) return { wait: 'detecting' };
  return { done: { status: 'none' } };
}

export class ConsentBlocker {
  private topState: ConsentState | undefined;
  private passesEnded = 0;
  private passesNeeded = 1;
  /** The top document's isolated world, where cosmetic-hiding.ts runs too. */
  private topContext: number | undefined;
  private wake: (() => void) | undefined;
  private evals = 0;
  /** Execution context → frame, and each frame's main-world context, for eval steps. */
  private readonly frameOfContext = new Map<number, string>();
  private readonly mainWorldOfFrame = new Map<string, number>();

  private constructor(
    private readonly session: CDPSession,
    private readonly page: Page,
    private readonly requests: ConsentRequests,
  ) {}

  /** The script's registration on the session, once active (`activate`; `uninstall` drops it). */
  private scriptId: string | undefined;
  private activatedAt: number | undefined;

  /**
   * Must run before the navigation, so that the blocker knows the page's frames and consent requests from
   * the start. It stands by: the script runs only once `activate` is called (consent-triggers.ts).
   */
  static async install(session: CDPSession, page: Page): Promise<ConsentBlocker> {
    const blocker = new ConsentBlocker(session, page, new ConsentRequests(page));
    session.on('Runtime.executionContextCreated', blocker.onContextCreated);
    session.on('Runtime.executionContextDestroyed', blocker.onContextDestroyed);
    session.on('Runtime.executionContextsCleared', blocker.onContextsCleared);
    session.on('Runtime.bindingCalled', blocker.onBinding);
    // Sent together: DevTools handles them in order, and the job does not wait a round trip for each.
    await Promise.all([
      session.send('Runtime.enable'),
      // Exposed to every world of that name made from now on, those `activate` makes included.
      session.send('Runtime.addBinding', { name: BINDING, executionContextName: WORLD }),
      session.send('Page.enable'),
    ]);
    return blocker;
  }

  /** Whether the page asked for a consent platform's script or data since the blocker was installed. */
  get consentRequested(): boolean {
    return this.requests.seen;
  }

  get active(): boolean {
    return this.scriptId !== undefined;
  }

  /**
   * Runs the script in every frame the page has now (its own isolated world in each, the page as it is:
   * autoconsent starts at once on a loaded document) and in every document from now on. `keep`: which of its
   * rules the top document as it is now is sent (consent-triggers.ts `rulesForPage`); any other document is
   * sent all of its own, as it asks.
   */
  async activate(keep?: (rule: string) => boolean): Promise<void> {
    if (this.active) return;
    const { source } = consentAssets();
    // The top document's rules go in first, so that its script starts without asking Node for them (a round
    // trip and ~66 kB while the capture waits); any other document asks as before.
    const url = this.page.url();
    const answer = { type: 'initResp', config: CONFIG, rules: { autoconsent: [], compact: rulesFor(url, true, keep) } };
    const [, script] = await Promise.all([
      this.session.send('Page.addScriptToEvaluateOnNewDocument', {
        source: `globalThis.${PRE_INIT} = ${JSON.stringify({ url, answer })};`,
        worldName: WORLD,
        runImmediately: true,
      }),
      // runImmediately: also in every frame the page has now, the script compiled as for a new document.
      this.session.send('Page.addScriptToEvaluateOnNewDocument', { source, worldName: WORLD, runImmediately: true }),
    ]);
    this.scriptId = script.identifier;
    this.activatedAt = Date.now();
  }

  /** For a job that keeps its cookie banners, on a page prepared with the blocker: nothing runs it. */
  async uninstall(): Promise<void> {
    this.dispose();
    await Promise.all([
      this.scriptId ? this.session.send('Page.removeScriptToEvaluateOnNewDocument', { identifier: this.scriptId }) : undefined,
      this.session.send('Runtime.removeBinding', { name: BINDING }),
    ]);
  }

  /** The top document's isolated world (execution context id), once its script has reported. */
  get isolatedWorld(): number | undefined {
    return this.topContext;
  }

  /**
   * Waits, at most `maxWaitMs`, only as long as `nextConsentStep` says; a consent request that finishes
   * meanwhile calls for one more detection pass. Never throws: a banner that could not be removed is not
   * a reason to fail the screenshot.
   */
  async settle(maxWaitMs: number): Promise<ConsentOutcome> {
    const until = Date.now() + Math.max(0, maxWaitMs);
    this.requests.onSettled = () => {
      this.passesNeeded = Math.max(this.passesNeeded, (this.topState?.findCmpAttempts ?? 0) + 1);
      this.wake?.();
    };
    try {
      for (;;) {
        const starting = !this.topState && this.activatedAt !== undefined && Date.now() - this.activatedAt < FIRST_REPORT_MS;
        const facts: ConsentFacts = {
          state: this.topState,
          passesEnded: this.passesEnded,
          passesNeeded: this.passesNeeded,
          consentLoading: this.requests.loading,
          starting,
        };
        if (facts.state && NOT_STARTED_STATES.has(facts.state.lifecycle)) facts.documentLoading = await this.documentLoading();
        const step = nextConsentStep(facts);
        if ('done' in step) return step.done;
        let left = until - Date.now();
        if (left <= 0) return { status: 'pending', cmp: this.topState?.detectedPopups[0] ?? this.topState?.detectedCmps[0] };
        // Looked at again when the first report is overdue (a document the script cannot run in).
        if (starting) left = Math.min(left, this.activatedAt! + FIRST_REPORT_MS - Date.now() + 1);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = undefined;
      }
    } finally {
      this.requests.onSettled = undefined;
    }
  }

  /** Whether the top document is still being parsed (asked of the script's own world, which the page cannot touch). */
  private async documentLoading(): Promise<boolean> {
    if (this.topContext === undefined) return true;
    const answer = await this.session
      .send('Runtime.evaluate', { expression: 'document.readyState', contextId: this.topContext, returnByValue: true })
      .catch(() => undefined);
    return answer?.result.value === 'loading';
  }

  dispose(): void {
    this.requests.dispose();
    this.session.off('Runtime.executionContextCreated', this.onContextCreated);
    this.session.off('Runtime.executionContextDestroyed', this.onContextDestroyed);
    this.session.off('Runtime.executionContextsCleared', this.onContextsCleared);
    this.session.off('Runtime.bindingCalled', this.onBinding);
    this.wake?.();
  }

  private readonly onContextCreated = ({ context }: Protocol.Runtime.ExecutionContextCreatedEvent) => {
    const aux = context.auxData as { frameId?: string; isDefault?: boolean } | undefined;
    if (!aux?.frameId) return;
    this.frameOfContext.set(context.id, aux.frameId);
    if (aux.isDefault) this.mainWorldOfFrame.set(aux.frameId, context.id);
  };

  private readonly onContextDestroyed = ({ executionContextId }: Protocol.Runtime.ExecutionContextDestroyedEvent) => {
    this.frameOfContext.delete(executionContextId);
  };

  private readonly onContextsCleared = () => {
    this.frameOfContext.clear();
    this.mainWorldOfFrame.clear();
  };

  private readonly onBinding = (event: Protocol.Runtime.BindingCalledEvent) => {
    if (event.name !== BINDING) return;
    let envelope: Envelope;
    try {
      envelope = JSON.parse(event.payload) as Envelope;
    } catch {
      return;
    }
    const message = envelope.message;
    const contextId = event.executionContextId;
    switch (message?.type) {
      case 'init': {
        if (envelope.top) {
          // A new top document: what was known of the last one no longer holds.
          this.topState = undefined;
          this.topContext = contextId;
          this.passesEnded = 0;
          this.passesNeeded = 1;
        }
        if (message.answered === true) break;
        const compact = rulesFor(String(message.url ?? ''), envelope.top === true);
        this.reply(contextId, { type: 'initResp', config: CONFIG, rules: { autoconsent: [], compact } });
        break;
      }
      case 'eval':
        void this.evaluate(contextId, String(message.id), String(message.code ?? ''));
        break;
      case 'report':
        if (envelope.top && message.mainFrame === true && message.state) {
          this.topState = message.state as ConsentState;
          this.wake?.();
        }
        break;
      case 'passEnded':
        if (envelope.top && contextId === this.topContext) {
          this.passesEnded += 1;
          this.wake?.();
        }
        break;
    }
  };

  private async evaluate(contextId: number, id: string, code: string): Promise<void> {
    const frameId = this.frameOfContext.get(contextId);
    const mainWorld = frameId ? this.mainWorldOfFrame.get(frameId) : undefined;
    let result: unknown = false;
    if (mainWorld !== undefined && this.evals < MAX_EVALS) {
      this.evals += 1;
      try {
        const answer = await this.session.send('Runtime.evaluate', {
          expression: code,
          contextId: mainWorld,
          returnByValue: true,
          awaitPromise: true,
          timeout: EVAL_TIMEOUT_MS,
        });
        result = answer.exceptionDetails ? false : answer.result.value;
      } catch {
        result = false;
      }
    }
    this.reply(contextId, { type: 'evalResp', id, result });
  }

  private reply(contextId: number, message: object): void {
    this.session
      .send('Runtime.callFunctionOn', {
        functionDeclaration: 'function (m) { return globalThis.autoconsentReceiveMessage && globalThis.autoconsentReceiveMessage(m); }',
        executionContextId: contextId,
        arguments: [{ value: message }],
      })
      .catch(() => undefined); // the document may be gone already
  }
}
