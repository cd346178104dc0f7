/**
 * The one place the worker reaches past puppeteer-cluster's public API (written against 0.25; `^0.25.0`
 * takes no 0.26). Its public options cannot do either of these, and both matter to a render service
 * (decision 0033):
 * - dispatch: `work()` spaces dispatches at least 10 ms apart (a module constant, built for crawling); a job
 *   queued behind another waits for nothing but that timer. Here a dispatch runs on the next tick instead,
 *   several `work()` calls in one tick still making one `doWork()`.
 * - pick: idle workers (pages) are handed out first-in first-out; a pool whose pages run our own page code
 *   can ask for the most recently used one instead (`workersAvail` then gives up its last entry).
 * `adaptCluster` checks the members are still there and fails the pool's start, naming this file, if an
 * upgrade renamed them: better than a silent return to 10 ms spacing.
 */
interface ClusterInternals {
  work(): Promise<void>;
  doWork(): Promise<void>;
  workersAvail: unknown[];
}

export type ClusterPick = 'least-recent' | 'most-recent';

export function clusterInternals(cluster: object): ClusterInternals {
  const internals = cluster as Partial<ClusterInternals>;
  if (typeof internals.work !== 'function' || typeof internals.doWork !== 'function' || !Array.isArray(internals.workersAvail))
    throw new Error('puppeteer-cluster no longer has work/doWork/workersAvail: update browser/cluster-adapter.ts (decision 0033)');
  return internals as ClusterInternals;
}

/** Next-tick dispatch, and with `pick: 'most-recent'` the most recently freed page first. */
export function adaptCluster(cluster: object, pick: ClusterPick = 'least-recent'): void {
  const internals = clusterInternals(cluster);
  let scheduled = false;
  internals.work = async () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      void internals.doWork();
    });
  };
  if (pick === 'most-recent') {
    const idle = internals.workersAvail;
    idle.shift = () => idle.pop();
  }
}
