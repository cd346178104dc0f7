import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '@render/logger';
import { Cluster } from 'puppeteer-cluster';
import puppeteer, { type Page } from 'puppeteer-core';
import type { BrowserManager } from './browser-manager.ts';
import { adaptCluster, type ClusterPick } from './cluster-adapter.ts';
import { type PagePoolSettings, type PageSlot, pagePoolConcurrency, slotOfPage } from './page-pool-concurrency.ts';

const WARM_UP_BACKSTOP_MS = 60_000;

export interface RenderTaskContext {
  page: Page;
  slot: PageSlot;
}

export type RenderTask<T> = (ctx: RenderTaskContext) => Promise<T>;

export interface RunOptions {
  /**
   * An opaque id of whoever the job is for. A pool with context affinity runs the job in the context this
   * caller's last job left (wiped), and keeps the job's context for the caller's next job; see
   * page-pool-concurrency.ts. Absent: a fresh context, closed after the job.
   */
  caller?: string;
}

export interface RenderCluster {
  run<T>(task: RenderTask<T>, options?: RunOptions): Promise<T>;
  close(): Promise<void>;
}

export interface RenderClusterOptions {
  pages: number;
  manager: BrowserManager;
  mode: PagePoolSettings['mode'];
  preparePage?: PagePoolSettings['preparePage'];
  onPageRecycled?: PagePoolSettings['onPageRecycled'];
  affinity?: PagePoolSettings['affinity'];
  /** Which idle page takes the next job; see `createRenderCluster`. */
  pick?: ClusterPick;
  recycleAfter: number;
  /** Backstop only: render tasks enforce their own, shorter deadline and mark the page broken. */
  taskTimeoutMs: number;
  logger: Logger;
}

/**
 * How one pool's pages are made. The renderers define them (`renderers/pools.ts`: which libraries a warm
 * page holds is a renderer's concern) and the composition root passes them in, so browser/ never depends
 * on renderers/.
 */
export type PoolDefinition = Pick<RenderClusterOptions, 'mode' | 'preparePage' | 'pick' | 'affinity'>;

export async function createRenderCluster(opts: RenderClusterOptions): Promise<RenderCluster> {
  const concurrency = pagePoolConcurrency({
    mode: opts.mode,
    manager: opts.manager,
    logger: opts.logger,
    recycleAfter: opts.recycleAfter,
    preparePage: opts.preparePage,
    onPageRecycled: opts.onPageRecycled,
    affinity: opts.affinity,
  });
  const cluster: Cluster<undefined, unknown> = await Cluster.launch({
    concurrency: concurrency as never,
    maxConcurrency: opts.pages,
    puppeteer, // unused: the pool gets its browser from the manager
    timeout: opts.taskTimeoutMs,
    retryLimit: 0, // retries belong to BullMQ, which can move the job to another worker process
    workerCreationDelay: 0,
  });

  // puppeteer-cluster spaces dispatches at least 10 ms apart (it was built for crawling): pure added
  // latency for a render service. And it hands out idle pages first-in first-out: the page idle longest,
  // whose renderer has long finished tidying up after its last job (~6% more throughput under load than
  // taking the page just freed). But then at low load every job lands on a page that has sat out the
  // others' jobs, and pages whose jobs run our own page code (charts, code) lose its JIT-compiled warmth in
  // turn: there, taking the most recently used page keeps one hot page serving a quiet worker (Highcharts
  // −10 ms), while a busy worker still uses them all. Neither is in its public API: cluster-adapter.ts.
  adaptCluster(cluster, opts.pick);

  // Open every warm page now, so the first jobs do not pay for page creation. puppeteer-cluster opens a
  // page only when none is free, so each opening task holds its page until all of them have one (or the
  // backstop passes: a page that cannot open is then left to open on demand).
  if (opts.mode === 'warm') {
    let opened = 0;
    let allOpen!: () => void;
    const barrier = Promise.race([new Promise<void>((resolve) => (allOpen = resolve)), sleep(WARM_UP_BACKSTOP_MS)]);
    await Promise.all(
      Array.from({ length: opts.pages }, () =>
        cluster.execute(undefined, async () => {
          if (++opened === opts.pages) allOpen();
          await barrier;
        }),
      ),
    );
  }

  return {
    run: <T>(task: RenderTask<T>, options: RunOptions = {}) =>
      cluster.execute(undefined, async ({ page }) => {
        const slot = slotOfPage.get(page);
        if (!slot) throw new Error('render page has no slot');
        slot.busy = true;
        try {
          await concurrency.claim(slot, options.caller);
          return await task({ page: slot.page ?? page, slot });
        } catch (err) {
          // A fresh-context page is never reused after a failure, even for its own caller (affinity).
          if (opts.mode === 'fresh-context') slot.broken = true;
          throw err;
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
