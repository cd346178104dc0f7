// puppeteer-cluster itself (no Chromium): a concurrency implementation whose "pages" are plain objects,
// so what is tested is the library's dispatch as cluster-adapter.ts changes it.
import { EventEmitter } from 'node:events';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Cluster } from 'puppeteer-cluster';
import puppeteer from 'puppeteer-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { adaptCluster, type ClusterPick, clusterInternals } from '../src/browser/cluster-adapter.ts';

/** The library listens for a page's 'error' events; nothing else of a page is used here. */
class FakePage extends EventEmitter {
  constructor(readonly id: number) {
    super();
  }
}

class FakePages {
  static opened = 0;
  async init(): Promise<void> {}
  async close(): Promise<void> {}
  async workerInstance() {
    const page = new FakePage(FakePages.opened++);
    return {
      jobInstance: async () => ({ resources: { page }, close: async () => undefined }),
      close: async () => undefined,
      repair: async () => undefined,
    };
  }
}

const open: Cluster<undefined, unknown>[] = [];

async function launch(pages: number, adapt: false | ClusterPick): Promise<Cluster<undefined, unknown>> {
  const cluster: Cluster<undefined, unknown> = await Cluster.launch({
    concurrency: FakePages as never,
    maxConcurrency: pages,
    puppeteer,
    retryLimit: 0,
    workerCreationDelay: 0,
  });
  open.push(cluster);
  if (adapt) adaptCluster(cluster, adapt);
  return cluster;
}

const pageOf = (cluster: Cluster<undefined, unknown>, hold?: Promise<void>) =>
  cluster.execute(undefined, async ({ page }) => {
    await hold;
    return (page as unknown as FakePage).id;
  }) as Promise<number>;

/** Settles with the promise's value, or 'pending' if it has not settled within `turns` turns of the event loop. */
async function within<T>(promise: Promise<T>, turns: number): Promise<T | 'pending'> {
  let settled = false;
  const watched = promise.finally(() => (settled = true));
  for (let i = 0; i < turns && !settled; i++) await nextTurn();
  return settled ? watched : 'pending';
}

afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(open.splice(0).map((c) => c.close()));
});

describe('cluster adapter', () => {
  it('dispatches on the next turn of the event loop, with no timer (the library waits on a 10 ms one)', async () => {
    const adapted = await launch(2, 'least-recent');
    const plain = await launch(2, false);
    // With timers frozen, only a dispatch that needs none can run the job.
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval'] });
    expect(await within(pageOf(adapted), 50)).toEqual(expect.any(Number));
    // The control: the library's own dispatch waits for its timer (the job stays queued; close drops it).
    expect(await within(pageOf(plain), 50)).toBe('pending');
  });

  it('runs every job of a burst (work calls in one turn make one dispatch, which starts the next)', async () => {
    const cluster = await launch(3, 'least-recent');
    const ids = await Promise.all(Array.from({ length: 20 }, () => pageOf(cluster)));
    expect(ids).toHaveLength(20);
    expect(new Set(ids).size).toBeLessThanOrEqual(3);
  });

  it('least-recent rotates over idle pages; most-recent gives a quiet cluster its last page again', async () => {
    for (const [pick, expectRotation] of [
      ['least-recent', true],
      ['most-recent', false],
    ] as const) {
      const cluster = await launch(2, pick);
      let release!: () => void;
      const hold = new Promise<void>((resolve) => (release = resolve));
      const both = Promise.all([pageOf(cluster, hold), pageOf(cluster, hold)]);
      for (let i = 0; i < 20; i++) await nextTurn();
      release();
      const pages = await both;
      expect(new Set(pages).size).toBe(2);
      const next = [await pageOf(cluster), await pageOf(cluster), await pageOf(cluster)];
      if (expectRotation) expect(new Set(next).size).toBe(2);
      else expect(new Set(next).size).toBe(1);
    }
  });

  it('fails loudly, naming the adapter, when the library no longer has the members it replaces', () => {
    expect(() => clusterInternals({ work: async () => undefined })).toThrow(/cluster-adapter\.ts/);
    expect(() => adaptCluster({})).toThrow(/work\/doWork\/workersAvail/);
  });
});
