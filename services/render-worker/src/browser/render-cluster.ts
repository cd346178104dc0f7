import type { Logger } from '@render/logger';
import { Cluster } from 'puppeteer-cluster';
import puppeteer, { type Page } from 'puppeteer-core';
import type { BrowserManager } from './browser-manager.ts';
import { type PagePoolSettings, type PageSlot, pagePoolConcurrency, slotOfPage } from './page-pool-concurrency.ts';

export interface RenderTaskContext {
  page: Page;
  slot: PageSlot;
}

export type RenderTask<T> = (ctx: RenderTaskContext) => Promise<T>;

export interface RenderCluster {
  run<T>(task: RenderTask<T>): Promise<T>;
  close(): Promise<void>;
}

export interface RenderClusterOptions {
  pages: number;
  manager: BrowserManager;
  mode: PagePoolSettings['mode'];
  preparePage?: PagePoolSettings['preparePage'];
  recycleAfter: number;
  /** Backstop only: render tasks enforce their own, shorter deadline and mark the page broken. */
  taskTimeoutMs: number;
  logger: Logger;
}

interface ClusterInternals {
  work(): Promise<void>;
  doWork(): Promise<void>;
  workersAvail: unknown[];
}

export async function createRenderCluster(opts: RenderClusterOptions): Promise<RenderCluster> {
  const cluster: Cluster<undefined, unknown> = await Cluster.launch({
    concurrency: pagePoolConcurrency({
      mode: opts.mode,
      manager: opts.manager,
      logger: opts.logger,
      recycleAfter: opts.recycleAfter,
      preparePage: opts.preparePage,
    }) as never,
    maxConcurrency: opts.pages,
    puppeteer, // unused: the pool gets its browser from the manager
    timeout: opts.taskTimeoutMs,
    retryLimit: 0, // retries belong to BullMQ, which can move the job to another worker process
    workerCreationDelay: 0,
  });

  // puppeteer-cluster spaces dispatches at least 10 ms apart (it was built for crawling). For a render
  // service that is pure added latency, so dispatch on the next tick instead, coalescing bursts.
  const internals = cluster as unknown as ClusterInternals;
  let scheduled = false;
  internals.work = async () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      void internals.doWork();
    });
  };

  // puppeteer-cluster hands out idle pages first-in first-out, so at low load every job lands on the page
  // that has been idle longest: each page's renderer process, JIT-compiled library code and caches go cold
  // in turn. Taking the most recently used page instead keeps one hot page serving a quiet worker, while
  // a busy worker still uses them all.
  const idle = internals.workersAvail;
  idle.shift = () => idle.pop();

  // Open every warm page now, so the first jobs do not pay for page creation.
  if (opts.mode === 'warm') await Promise.all(Array.from({ length: opts.pages }, () => cluster.execute(undefined, async () => undefined)));

  return {
    run: <T>(task: RenderTask<T>) =>
      cluster.execute(undefined, async ({ page }) => {
        const slot = slotOfPage.get(page);
        if (!slot) throw new Error('render page has no slot');
        slot.busy = true;
        try {
          return await task({ page, slot });
        } finally {
          slot.busy = false;
        }
      }) as Promise<T>,
    close: async () => {
      await cluster.idle();
      await cluster.close();
    },
  };
}
