import type { Logger } from '@render/logger';
import type { BrowserContext, CDPSession, Page } from 'puppeteer-core';
import type { BrowserManager } from './browser-manager.ts';

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

/** Returns a class with the constructor shape puppeteer-cluster instantiates (`new C(launchOptions, puppeteer)`). */
export function pagePoolConcurrency(settings: PagePoolSettings) {
  const { manager, logger } = settings;

  return class PagePoolConcurrency {
    async init(): Promise<void> {
      await manager.get();
    }

    // The browser belongs to the manager, which outlives any one pool.
    async close(): Promise<void> {}

    private async openPage(slot: PageSlot): Promise<Page> {
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
      slot.spare = this.openFresh(slot).catch((err) => {
        logger.debug({ err: (err as Error).message }, 'could not open a spare fresh context');
        return null;
      });
    }

    /** fresh-context: the spare (or a new context when it is missing or stale) becomes the slot's page. */
    private async takeFresh(slot: PageSlot): Promise<void> {
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
                page.removeAllListeners('error');
                slot.jobs += 1;
                slot.ready = this.discardPage(slot);
                // After the job (see above); the spare and the closing context do not depend on each other.
                this.openSpare(slot);
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
  };
}
