import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type Config, type ConsentState, filterCompactRules, type IndexedCMPRuleset } from '@duckduckgo/autoconsent';
import type { CDPSession, Protocol } from 'puppeteer-core';

/**
 * Hides cookie/consent popups with DuckDuckGo's autoconsent: its maintained rule set (≈800 consent
 * platforms and site rules, the one DuckDuckGo's browsers ship) detects a popup, clicks "reject" where the
 * platform offers it, hides it with the rule's CSS otherwise, and pre-hides known popup containers while
 * it works.
 *
 * The content script runs in an isolated world (as in a browser extension): page scripts cannot see or
 * tamper with it or with the binding it reports through. Its "eval" rule steps, which must read page
 * globals, run in the frame's main world with the page's own privileges and a time limit.
 */

const WORLD = '__render_consent';
const BINDING = '__renderConsentSend';
const MAX_EVALS = 100;
const EVAL_TIMEOUT_MS = 1_000;
/** Longest wait for a detected popup to be dealt with; the caller bounds it further by its deadline. */
export const CONSENT_MAX_WAIT_MS = 4_000;
/** Without any report from the script by then, it is not running on this document (e.g. an image URL). */
const SILENT_GRACE_MS = 750;
/** A click usually starts an exit animation or a re-layout; give it a moment before the capture. */
const AFTER_CLICK_MS = 300;

// Prehide is kept for longer than any render (it is removed when the popup is handled or when nothing
// was found), so popups a platform injects late are still hidden when the capture happens.
const CONFIG: Config = {
  enabled: true,
  autoAction: 'optOut',
  disabledCmps: [],
  enablePrehide: true,
  enableCosmeticRules: true,
  enableGeneratedRules: true,
  detectRetries: 20,
  isMainWorld: false,
  prehideTimeout: 60_000,
  // Heuristics would click "accept" on unknown popups; only the rule set decides here.
  enableHeuristicDetection: false,
  heuristicMode: 'off',
  enablePopupMutationObserver: false,
  visualTest: false,
  logs: { lifecycle: false, rulesteps: false, detectionsteps: false, evals: false, errors: false, messages: false, waits: false },
  performanceLoggingEnabled: false,
  heuristicPopupSearchTimeout: 100,
};

// The script calls window.autoconsentSendMessage(object); a CDP binding takes one string, and it tells
// Node which frame is the top one.
const PRELUDE = `(() => {
  const send = globalThis.${BINDING};
  const top = window.top === window;
  globalThis.autoconsentSendMessage = (message) => {
    try { send(JSON.stringify({ top, message })); } catch {}
    return Promise.resolve();
  };
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

/** Verdict on the top frame's latest report; undefined while it is still deciding. */
export function consentVerdict(state: ConsentState | undefined): { outcome: ConsentOutcome; clicked: boolean } | undefined {
  if (!state) return undefined;
  const cmp = state.detectedPopups[0] ?? state.detectedCmps[0];
  if (DONE_STATES.has(state.lifecycle)) return { outcome: { status: 'handled', cmp }, clicked: state.clicks > 0 };
  if (state.lifecycle === 'optOutFailed' || state.lifecycle === 'optInFailed')
    return { outcome: { status: 'failed', cmp }, clicked: false };
  if (state.lifecycle === 'nothingDetected') return { outcome: { status: 'none' }, clicked: false };
  // The first pass over all rules found nothing: a popup that shows up later is still pre-hidden.
  if (state.lifecycle === 'started' && state.findCmpAttempts >= 2 && state.detectedCmps.length === 0) {
    return { outcome: { status: 'none' }, clicked: false };
  }
  // A platform is present but shows no popup (prehide is only lifted once that is decided).
  if (state.lifecycle === 'cmpDetected' && !state.prehideOn && state.detectedPopups.length === 0) {
    return { outcome: { status: 'none' }, clicked: false };
  }
  return undefined;
}

export class ConsentBlocker {
  private topState: ConsentState | undefined;
  private wake: (() => void) | undefined;
  private evals = 0;
  /** Execution context → frame, and each frame's main-world context, for eval steps. */
  private readonly frameOfContext = new Map<number, string>();
  private readonly mainWorldOfFrame = new Map<string, number>();

  private constructor(private readonly session: CDPSession) {}

  /** Must run before the navigation: the script has to be in place when the first document starts. */
  static async install(session: CDPSession): Promise<ConsentBlocker> {
    const { source } = consentAssets();
    const blocker = new ConsentBlocker(session);
    session.on('Runtime.executionContextCreated', blocker.onContextCreated);
    session.on('Runtime.executionContextDestroyed', blocker.onContextDestroyed);
    session.on('Runtime.executionContextsCleared', blocker.onContextsCleared);
    session.on('Runtime.bindingCalled', blocker.onBinding);
    await session.send('Runtime.enable');
    await session.send('Runtime.addBinding', { name: BINDING, executionContextName: WORLD });
    await session.send('Page.enable');
    await session.send('Page.addScriptToEvaluateOnNewDocument', { source, worldName: WORLD });
    return blocker;
  }

  /**
   * Waits until the top frame's popup is handled or known to be absent, at most `maxWaitMs`. Never throws:
   * a banner that could not be removed is not a reason to fail the screenshot.
   */
  async settle(maxWaitMs: number): Promise<ConsentOutcome> {
    const start = Date.now();
    const until = start + Math.max(0, maxWaitMs);
    for (;;) {
      const verdict = consentVerdict(this.topState);
      if (verdict) {
        if (verdict.clicked) await sleep(Math.min(AFTER_CLICK_MS, Math.max(0, until - Date.now())));
        return verdict.outcome;
      }
      const limit = this.topState ? until : Math.min(until, start + SILENT_GRACE_MS);
      const left = limit - Date.now();
      if (left <= 0) {
        const cmp = this.topState?.detectedPopups[0] ?? this.topState?.detectedCmps[0];
        return this.topState ? { status: 'pending', cmp } : { status: 'none' };
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  dispose(): void {
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
        const compact = filterCompactRules(consentAssets().rules, { url: String(message.url ?? ''), mainFrame: envelope.top === true });
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

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
