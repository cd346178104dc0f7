import type { Logger } from '@render/logger';
import type { BrowserContext, CDPSession, Page } from 'puppeteer-core';
import type { BrowserManager } from './browser-manager.ts';
import { clearContextState, OriginTracker } from './context-reset.ts';

/**
 * Page pools for puppeteer-cluster, over the shared browser.
 *
 * `warm`: one page per cluster worker, kept open between jobs. puppeteer-cluster's built-in modes open a
 * new page or context per task (50–120 ms each); a warm page costs only the render. Isolation between
 * users comes from the slot flags a render task sets:
 * - `tainted`: the job ran page scripts, so globals and timers may survive `document.open()`; the page is
 *   navigated to a fresh document (new Window) and prepared again before anyone else uses it.
 * - `broken`: the job failed or timed out (e.g. an endless script), or opened a window; the page is closed
 *   and replaced.
 * Both happen after the job has answered, in the background, so they add no latency to it.
 *
 * `fresh-context`: every job gets a new incognito context (own cookies, storage, cache) that is thrown away
 * afterwards — for live web pages, where state from one site must never reach the next job. Opening one
 * costs 30–150 ms (most of it a new renderer process starting), so each slot keeps a spare (an unused
 * context holds nothing). The spare is opened once the slot's job has ended, not when it starts: opened
 * alongside the job, the renderer starting competed with the job's own page for the CPU (measured on 2
 * cores: ~40 ms more per screenshot). A job waits for it only when jobs come faster than that.
 *
 * Context affinity (fresh-context, `affinity` set): the new renderer process of a fresh context is most of a
 * screenshot's cost (~50–80 ms of CPU on 2 cores). So a job that names its caller (an opaque id of the API
 * key's account or the anonymous caller's address) leaves its context, once wiped (context-reset.ts), to
 * the next job of the *same* caller; that job runs on the same page, whose renderer is already up. A job of
 * another caller, or of none, never gets it: it takes the slot's fresh context as before. A kept context is
 * closed instead of kept after a failed or timed-out job (or one that opened a window), after `maxJobs` jobs
 * or `maxAgeMs`, when idle for `idleMs`, when the wipe fails, or when more than `maxKept` callers have one.
 *
 * Double-buffered (`contextsPerCaller` 2): the wipe takes ~30–40 ms on 2 loaded cores, longer than the gap
 * between a caller's back-to-back jobs (gateway, queue, the client's round trip: ~15–25 ms), so with one
 * context the next job waited for it. A job whose caller's contexts are all still being wiped runs on the
 * slot's fresh context instead (its renderer is already up), which is then kept for that caller as well; from
 * then on the caller's jobs alternate between its two contexts, each wiped while the other serves. Only when
 * the caller already has `contextsPerCaller` contexts, all being wiped (its jobs come faster than a wipe),
 * does a job wait, for the one kept longest. A context still only ever serves one caller, wiped between jobs.
 */
export interface PageSlot {
  page: Page | null;
  context: BrowserContext | null;
  jobs: number;
  tainted: boolean;
  broken: boolean;
  /** True while a task runs; still true at release means the cluster timed the task out. */
  busy: boolean;
  /** Settled when the background reset/replacement of this slot's page is finished. */
  ready: Promise<void>;
  /** Last values applied to the page, so unchanged settings cost no CDP round trip. */
  applied: { scriptEnabled?: boolean; viewport?: string; [key: string]: unknown };
  /** A DevTools session of our own on this page, opened on first use (see page-ops `directSession`). */
  session?: { cdp: CDPSession; frameId: string };
  browserGeneration: number;
  /** fresh-context: the next job's context, being opened (null: opening it failed; the job opens its own). */
  spare?: Promise<FreshPage | null>;
  /** fresh-context with affinity: the caller of the job running, whose context may be kept for its next job. */
  caller?: string;
  /** The origins the running job touched (affinity only): their storage is cleared before the context is reused. */
  origins?: OriginTracker;
  /** When the slot's current context was opened (affinity: a context is kept at most `maxAgeMs`). */
  contextSince?: number;
}

/** See "Context affinity" above. */
export interface AffinitySettings {
  /** A context serves at most this many jobs of its caller, then it is closed. */
  maxJobs: number;
  /** …and it is not kept once this old. */
  maxAgeMs: number;
  /** A kept context nobody claims for this long is closed (its renderer holds memory). */
  idleMs: number;
  /** At most this many callers have a kept context (least recently kept is closed first). */
  maxKept: number;
  /** Contexts a caller keeps (2: one serves while the other is wiped); its oldest beyond this is closed. */
  contextsPerCaller: number;
}

/** A wiped context waiting for its caller's next job. */
interface KeptContext extends FreshPage {
  jobs: number;
  since: number;
  /** Settles once the wipe is done: true if the context may be used, false if it failed (then closed). */
  ready: Promise<boolean>;
  /** Set when `ready` settles: whether a job can take the context without waiting. */
  wiped?: boolean;
  idle?: NodeJS.Timeout;
}

interface FreshPage {
  page: Page;
  context: BrowserContext;
  generation: number;
}

/** puppeteer-cluster hands tasks only the page; this finds the slot that owns it. */
export const slotOfPage = new WeakMap<Page, PageSlot>();

export interface PagePoolSettings {
  mode: 'warm' | 'fresh-context';
  manager: BrowserManager;
  logger: Logger;
  /** Warm pages are replaced after this many jobs, bounding any slow leak inside Chromium. */
  recycleAfter: number;
  /** Runs on every new page and after every reset (e.g. load a chart host with its libraries). */
  preparePage?: (page: Page) => Promise<void>;
  /** Called when a warm page is closed to be replaced (not for fresh-context pages, thrown away by design). */
  onPageRecycled?: (reason: PageRecycleReason) => void;
  /** fresh-context: keep a job's context for the next job of the same caller (see above). */
  affinity?: AffinitySettings;
}

/** Why a warm page was replaced: its job count, a failed job, a dead browser or closed page, a failed reset. */
export type PageRecycleReason = 'recycle_after' | 'broken' | 'stale' | 'reset_failed';

interface JobInstance {
  resources: { page: Page };
  close(): Promise<void>;
}

interface WorkerInstance {
  jobInstance(): Promise<JobInstance>;
  close(): Promise<void>;
  repair(): Promise<void>;
}

const RESET_TIMEOUT_MS = 5_000;

const withTimeout = <T>(promise: Promise<T>, ms: number): Promise<T> =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms).unref())]);

const newSlot = (): PageSlot => ({
  page: null,
  context: null,
  jobs: 0,
  tainted: false,
  broken: false,
  busy: false,
  ready: Promise.resolve(),
  applied: {},
  browserGeneration: 0,
});

/** The contexts kept for their callers (affinity): how one is kept, wiped and dropped. */
function keptContexts(settings: PagePoolSettings) {
  const { manager, logger } = settings;
  /** Caller → its kept contexts, oldest first; a Map keeps insertion order, so the first caller is the least recently kept. */
  const kept = new Map<string, KeptContext[]>();

  const closeContext = (context: BrowserContext) => withTimeout(context.close(), RESET_TIMEOUT_MS).catch(() => undefined);
  const usable = (fresh: FreshPage) => !fresh.page.isClosed() && manager.isCurrent(fresh.generation) && !manager.openedWindow(fresh.page);

  /** Closes a kept context once its wipe has ended (closing it under a running wipe would only log errors). */
  const dropKept = (entry: KeptContext): Promise<void> => {
    clearTimeout(entry.idle);
    return entry.ready.then(() => closeContext(entry.context));
  };

  /** Takes `entry` off its caller's list (a job claims it, or it is being closed). */
  const unlist = (caller: string, entry: KeptContext): boolean => {
    const entries = kept.get(caller);
    const at = entries?.indexOf(entry) ?? -1;
    if (!entries || at < 0) return false;
    entries.splice(at, 1);
    if (!entries.length) kept.delete(caller);
    clearTimeout(entry.idle);
    return true;
  };

  const forget = (caller: string, entry: KeptContext): void => {
    if (unlist(caller, entry)) void dropKept(entry);
  };

  /** The wipe (context-reset.ts), the page prepared again (as a spare is) alongside. */
  const wipe = async (page: Page, origins: Set<string>): Promise<boolean> => {
    try {
      const { preparePage } = settings;
      await withTimeout(clearContextState(page, origins, preparePage && (() => preparePage(page))), RESET_TIMEOUT_MS);
      return true;
    } catch (err) {
      logger.warn({ err: (err as Error).message }, 'could not wipe a context kept for its caller; closing it');
      return false;
    }
  };

  /** The slot's context, once wiped, waits for a next job of `caller`; the slot gives it up. */
  const keep = (slot: PageSlot, limits: AffinitySettings, caller: string, origins: Set<string>): void => {
    const page = slot.page!;
    const entry: KeptContext = {
      page,
      context: slot.context!,
      generation: slot.browserGeneration,
      jobs: slot.jobs,
      since: slot.contextSince ?? Date.now(),
      ready: wipe(page, origins),
    };
    slot.page = null;
    slot.context = null;
    const entries = kept.get(caller) ?? [];
    kept.delete(caller); // set again below: the caller becomes the most recently kept
    entries.push(entry);
    kept.set(caller, entries);
    while (entries.length > limits.contextsPerCaller) forget(caller, entries[0]!);
    for (const [other, theirs] of kept) {
      if (kept.size <= limits.maxKept) break;
      for (const oldest of [...theirs]) forget(other, oldest);
    }
    entry.idle = setTimeout(() => forget(caller, entry), limits.idleMs).unref();
    void entry.ready.then((ok) => {
      entry.wiped = ok;
      if (!ok) forget(caller, entry);
    });
  };
  /**
   * The kept context a job of `caller` runs on: one already wiped (the longest kept first); none while all
   * are being wiped and the caller may still have another (the job takes the slot's fresh context, see
   * "Double-buffered"); otherwise the one kept longest, once wiped. Undefined when it cannot be used.
   */
  const claimKept = async (caller: string, limits: AffinitySettings): Promise<KeptContext | undefined> => {
    const entries = kept.get(caller);
    if (!entries?.length) return undefined;
    const entry =
      entries.find((candidate) => candidate.wiped === true) ?? (entries.length >= limits.contextsPerCaller ? entries[0] : undefined);
    if (!entry) return undefined;
    unlist(caller, entry);
    if ((await entry.ready) && usable(entry)) return entry;
    void dropKept(entry);
    return undefined;
  };

  return { kept, usable, dropKept, keep, claimKept };
}

/** What one pool's class works with: its settings and the contexts kept for its callers. */
type PoolScope = ReturnType<typeof keptContexts> & {
  settings: PagePoolSettings;
  manager: BrowserManager;
  logger: Logger;
  affinity: AffinitySettings | undefined;
};

/** One pool's pages, as puppeteer-cluster drives them (a concurrency implementation); see the top of this file. */
class PagePool {
  constructor(protected readonly scope: PoolScope) {}

  /**
   * Affinity, before a job runs on `slot`: the caller's kept context (`claimKept`), if there is one and it
   * is usable, replaces the slot's fresh one, which goes back to being the slot's spare (still untouched).
   * Otherwise the job runs on the fresh context, kept for the caller afterwards. Without a caller nothing
   * changes: the job runs on the fresh context and it is closed afterwards.
   */
  static async claimIn(scope: PoolScope, slot: PageSlot, caller: string | undefined): Promise<void> {
    const { affinity, claimKept, dropKept } = scope;
    if (!affinity || !caller || !slot.page || !slot.context) return;
    slot.caller = caller;
    const entry = await claimKept(caller, affinity);
    if (entry) {
      if (slot.spare === undefined) {
        slot.spare = Promise.resolve({ page: slot.page, context: slot.context, generation: slot.browserGeneration });
        Object.assign(slot, {
          page: entry.page,
          context: entry.context,
          browserGeneration: entry.generation,
          jobs: entry.jobs,
          contextSince: entry.since,
          applied: {},
          session: undefined,
        });
        slotOfPage.set(entry.page, slot);
      } else void dropKept(entry);
    }
    slot.origins = new OriginTracker(slot.page);
  }

  async init(): Promise<void> {
    const { manager } = this.scope;
    await manager.get();
  }

  // The browser belongs to the manager, which outlives any one pool; the contexts kept for callers do not.
  async close(): Promise<void> {
    const { kept, dropKept } = this.scope;
    const entries = [...kept.values()].flat();
    kept.clear();
    await Promise.all(entries.map(dropKept));
  }

  /** Whether the slot's context may serve its caller's next job (see "Context affinity"). */
  private keepable(slot: PageSlot, limits: AffinitySettings): boolean {
    const { manager } = this.scope;
    const page = slot.page;
    return (
      !!page &&
      !!slot.context &&
      !slot.busy &&
      !slot.broken &&
      !page.isClosed() &&
      manager.isCurrent(slot.browserGeneration) &&
      !manager.openedWindow(page) &&
      slot.jobs < limits.maxJobs &&
      Date.now() - (slot.contextSince ?? 0) < limits.maxAgeMs
    );
  }

  private async openPage(slot: PageSlot): Promise<Page> {
    const { manager, settings } = this.scope;
    const browser = await manager.get();
    slot.context = settings.mode === 'fresh-context' ? await browser.createBrowserContext() : null;
    const page = await manager.newPage(slot.context ?? browser);
    Object.assign(slot, {
      applied: {},
      session: undefined,
      jobs: 0,
      tainted: false,
      broken: false,
      browserGeneration: manager.generation,
    });
    slotOfPage.set(page, slot);
    await settings.preparePage?.(page);
    return page;
  }

  /** A new incognito context and its page, prepared, not yet the slot's. */
  private async openFresh(slot: PageSlot): Promise<FreshPage> {
    const { manager, settings } = this.scope;
    const browser = await manager.get();
    const generation = manager.generation;
    const context = await browser.createBrowserContext();
    try {
      const page = await manager.newPage(context);
      slotOfPage.set(page, slot);
      await settings.preparePage?.(page);
      return { page, context, generation };
    } catch (err) {
      await withTimeout(context.close(), RESET_TIMEOUT_MS).catch(() => undefined);
      throw err;
    }
  }

  private openSpare(slot: PageSlot): void {
    const { logger } = this.scope;
    slot.spare = this.openFresh(slot).catch((err) => {
      logger.debug({ err: (err as Error).message }, 'could not open a spare fresh context');
      return null;
    });
  }

  /** fresh-context: the spare (or a new context when it is missing or stale) becomes the slot's page. */
  private async takeFresh(slot: PageSlot): Promise<void> {
    const { manager } = this.scope;
    let fresh = (await slot.spare) ?? null;
    slot.spare = undefined;
    if (fresh && (fresh.page.isClosed() || !manager.isCurrent(fresh.generation) || manager.openedWindow(fresh.page))) {
      await withTimeout(fresh.context.close(), RESET_TIMEOUT_MS).catch(() => undefined);
      fresh = null;
    }
    fresh ??= await this.openFresh(slot);
    Object.assign(slot, {
      page: fresh.page,
      context: fresh.context,
      applied: {},
      session: undefined,
      jobs: 0,
      tainted: false,
      broken: false,
      browserGeneration: fresh.generation,
      contextSince: Date.now(),
    });
  }

  private async closeSpare(slot: PageSlot): Promise<void> {
    const spare = await slot.spare;
    slot.spare = undefined;
    if (spare) await withTimeout(spare.context.close(), RESET_TIMEOUT_MS).catch(() => undefined);
  }

  private async discardPage(slot: PageSlot): Promise<void> {
    const { page, context } = slot;
    slot.page = null;
    slot.context = null;
    if (context) await withTimeout(context.close(), RESET_TIMEOUT_MS).catch(() => undefined);
    else if (page && !page.isClosed()) await withTimeout(page.close(), RESET_TIMEOUT_MS).catch(() => undefined);
  }

  private async resetPage(slot: PageSlot): Promise<void> {
    const { logger, settings } = this.scope;
    try {
      // A new document gets a new Window: no globals, timers or listeners survive from the last job.
      await withTimeout(slot.page!.goto('about:blank'), RESET_TIMEOUT_MS);
      slot.tainted = false;
      if (settings.preparePage) await withTimeout(settings.preparePage(slot.page!), RESET_TIMEOUT_MS);
    } catch (err) {
      logger.warn({ err: (err as Error).message }, 'page reset failed; replacing the page');
      settings.onPageRecycled?.('reset_failed');
      await this.discardPage(slot);
    }
  }

  async workerInstance(): Promise<WorkerInstance> {
    const { manager, settings, affinity, keep } = this.scope;
    const slot = newSlot();
    if (settings.mode === 'warm') slot.page = await this.openPage(slot);
    else {
      this.openSpare(slot);
      await slot.spare;
    }

    return {
      jobInstance: async () => {
        if (settings.mode === 'fresh-context') {
          // The last job's context is closed in the background (discardPage took it off the slot).
          await this.takeFresh(slot);
          const page = slot.page!;
          return {
            resources: { page },
            close: async () => {
              // `page` is the page handed out, which `claim` may have put back as the spare.
              page.removeAllListeners('error');
              slot.jobs += 1;
              const { caller, origins } = slot;
              slot.caller = undefined;
              slot.origins = undefined;
              const touched = origins?.stop();
              if (affinity && caller && touched && this.keepable(slot, affinity)) keep(slot, affinity, caller, touched);
              else slot.ready = this.discardPage(slot);
              // After the job (see above); the spare and the closing context do not depend on each other.
              if (!slot.spare) this.openSpare(slot);
            },
          };
        }
        await slot.ready;
        const stale = !slot.page || slot.page.isClosed() || !manager.isCurrent(slot.browserGeneration) || manager.openedWindow(slot.page);
        if (stale) {
          if (slot.page && settings.mode === 'warm') settings.onPageRecycled?.('stale');
          await this.discardPage(slot);
          slot.page = await this.openPage(slot);
        }
        const page = slot.page!;
        return {
          resources: { page },
          close: async () => {
            // puppeteer-cluster adds a page 'error' listener per job; on a warm page they would pile up.
            page.removeAllListeners('error');
            if (slot.busy) slot.broken = true; // the task is still running on this page
            // A window it opened could still navigate it (see PageTargetGuard.openedWindow).
            if (manager.openedWindow(page)) slot.broken = true;
            slot.jobs += 1;
            if (slot.broken || slot.jobs >= settings.recycleAfter) {
              settings.onPageRecycled?.(slot.broken ? 'broken' : 'recycle_after');
              slot.ready = this.discardPage(slot);
            } else if (slot.tainted) {
              slot.ready = this.resetPage(slot);
            }
          },
        };
      },
      close: () => Promise.all([slot.ready, this.closeSpare(slot), this.discardPage(slot)]).then(() => undefined),
      repair: () => this.discardPage(slot),
    };
  }
}

/** Returns a class with the constructor shape puppeteer-cluster instantiates (`new C(launchOptions, puppeteer)`). */
export function pagePoolConcurrency(settings: PagePoolSettings) {
  const { manager, logger } = settings;
  const affinity = settings.mode === 'fresh-context' ? settings.affinity : undefined;
  const scope: PoolScope = { ...keptContexts(settings), settings, manager, logger, affinity };
  return class PagePoolConcurrency extends PagePool {
    /** See `PagePool.claimIn`. */
    static claim(slot: PageSlot, caller: string | undefined): Promise<void> {
      return PagePool.claimIn(scope, slot, caller);
    }

    constructor() {
      super(scope);
    }
  };
}
