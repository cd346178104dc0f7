import type { Logger } from '@render/logger';
import type { Browser, LaunchOptions, Page } from 'puppeteer-core';

/**
 * One warm page per cluster worker. puppeteer-cluster's built-in modes open a new page or context per task
 * (50–120 ms each); keeping pages open makes a render cost only setContent + screenshot.
 *
 * Isolation between users is kept by the slot flags the render task sets:
 * - `tainted`: the job ran page scripts, so globals and timers may survive `document.open()`. The page is
 *   navigated to a fresh about:blank document before anyone else uses it.
 * - `broken`: the job failed or timed out (e.g. an endless script); the page is closed and replaced.
 * Both happen after the job has answered, in the background, so they add no latency to the job itself.
 */
export interface PageSlot {
  page: Page | null;
  jobs: number;
  tainted: boolean;
  broken: boolean;
  /** Settled when the background reset/replacement of this slot's page is finished. */
  ready: Promise<void>;
  /** Last values applied to the page, so unchanged settings cost no CDP round trip. */
  applied: { scriptEnabled?: boolean; viewport?: string };
  browserGeneration: number;
  /** True while a task runs; still true at release means the cluster timed the task out. */
  busy: boolean;
}

/** puppeteer-cluster hands tasks only the page; this finds the slot that owns it. */
export const slotOfPage = new WeakMap<Page, PageSlot>();

export interface WarmPageSettings {
  recycleAfter: number;
  logger: Logger;
  /** Runs on every new page (e.g. default timeouts). */
  preparePage?: (page: Page) => Promise<void>;
}

interface JobInstance {
  resources: { page: Page; slot: PageSlot };
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

/** Returns a class with the constructor shape puppeteer-cluster instantiates (`new C(launchOptions, puppeteer)`). */
export function warmPageConcurrency(settings: WarmPageSettings) {
  const { logger } = settings;

  return class WarmPageConcurrency {
    private browser: Browser | null = null;
    private launching: Promise<Browser> | null = null;
    private generation = 0;
    private closed = false;

    constructor(
      private readonly launchOptions: LaunchOptions,
      private readonly puppeteer: { launch(o: LaunchOptions): Promise<Browser> },
    ) {}

    async init(): Promise<void> {
      await this.ensureBrowser();
    }

    async close(): Promise<void> {
      this.closed = true;
      const browser = this.browser;
      this.browser = null;
      if (browser) await withTimeout(browser.close(), 10_000).catch(() => browser.process()?.kill('SIGKILL'));
    }

    /** Single-flight (re)launch: after a crash every slot waits for the same new browser. */
    private ensureBrowser(): Promise<Browser> {
      if (this.browser?.connected) return Promise.resolve(this.browser);
      if (this.closed) return Promise.reject(new Error('render browser is closed'));
      this.launching ??= (async () => {
        try {
          const old = this.browser;
          this.browser = null;
          if (old) old.process()?.kill('SIGKILL');
          const browser = await this.puppeteer.launch(this.launchOptions);
          this.generation += 1;
          const generation = this.generation;
          browser.on('disconnected', () => {
            if (!this.closed && this.generation === generation)
              logger.error({ generation }, 'chromium disconnected; it will be relaunched on the next job');
          });
          this.browser = browser;
          logger.info({ generation, version: await browser.version() }, 'chromium started');
          return browser;
        } finally {
          this.launching = null;
        }
      })();
      return this.launching;
    }

    private async openPage(slot: PageSlot): Promise<Page> {
      const browser = await this.ensureBrowser();
      const page = await browser.newPage();
      slot.applied = {};
      slot.jobs = 0;
      slot.tainted = false;
      slot.broken = false;
      slot.browserGeneration = this.generation;
      slotOfPage.set(page, slot);
      await settings.preparePage?.(page);
      return page;
    }

    private async discardPage(slot: PageSlot): Promise<void> {
      const page = slot.page;
      slot.page = null;
      if (page && !page.isClosed()) await withTimeout(page.close(), RESET_TIMEOUT_MS).catch(() => undefined);
    }

    private async resetPage(slot: PageSlot): Promise<void> {
      try {
        // A new document gets a new Window: no globals, timers or listeners survive from the last job.
        await withTimeout(slot.page!.goto('about:blank'), RESET_TIMEOUT_MS);
        slot.tainted = false;
      } catch (err) {
        logger.warn({ err: (err as Error).message }, 'page reset failed; replacing the page');
        await this.discardPage(slot);
      }
    }

    async workerInstance(): Promise<WorkerInstance> {
      const slot: PageSlot = {
        page: null,
        jobs: 0,
        tainted: false,
        broken: false,
        busy: false,
        ready: Promise.resolve(),
        applied: {},
        browserGeneration: 0,
      };
      slot.page = await this.openPage(slot);

      return {
        jobInstance: async () => {
          await slot.ready;
          const stale = !slot.page || slot.page.isClosed() || slot.browserGeneration !== this.generation || !this.browser?.connected;
          if (stale) {
            await this.discardPage(slot);
            slot.page = await this.openPage(slot);
          }
          const page = slot.page!;
          return {
            resources: { page, slot },
            close: async () => {
              // puppeteer-cluster adds a page 'error' listener per job; on a warm page they would pile up.
              page.removeAllListeners('error');
              if (slot.busy) slot.broken = true; // the task is still running on this page
              slot.jobs += 1;
              if (slot.broken || slot.jobs >= settings.recycleAfter) {
                slot.ready = this.discardPage(slot);
              } else if (slot.tainted) {
                slot.ready = this.resetPage(slot);
              }
            },
          };
        },
        close: async () => {
          await this.discardPage(slot);
        },
        repair: async () => {
          await this.discardPage(slot);
        },
      };
    }
  };
}
