import { performance } from 'node:perf_hooks';
import type { FormatWorkload, WorkloadContext } from './formats.ts';
import type { LoadResult } from './load.ts';
import { ErrorTally, summarize } from './stats.ts';

/**
 * How often a batch's status is read while it renders: the "every item done" time is known to within this
 * (plus one status read), small against a batch of ten renders.
 */
export const BATCH_POLL_MS = 10;
/** A batch that has not ended by then counts as an error (a stuck item must not hang the bench). */
const BATCH_DEADLINE_MS = 120_000;

/** One batch's two times, from the POST's start: its 202, and the first status read that says `done`. */
export interface BatchTimes {
  acceptedMs: number;
  doneMs: number;
}

/** What a batch workload's run produces: the samples of each side and the errors. */
export interface BatchRun {
  times: BatchTimes[];
  items: number;
  elapsedMs: number;
  errors: ErrorTally;
}

/**
 * The two rows a batch run makes: the time to the 202 (its "renders/s" is batches accepted per second) and
 * the time until every item has ended (its "renders/s" is items rendered per second over the run).
 */
export function batchResults(run: BatchRun): { accepted: LoadResult; done: LoadResult } {
  const seconds = run.elapsedMs / 1000;
  const result = (latencies: number[], perSecond: number, errors: ErrorTally): LoadResult => ({
    latency: summarize(latencies),
    rendersPerSec: perSecond,
    elapsedMs: run.elapsedMs,
    errors,
  });
  return {
    // A failed batch is counted once, on the row of its end.
    accepted: result(
      run.times.map((t) => t.acceptedMs),
      run.times.length / seconds,
      new ErrorTally(),
    ),
    done: result(
      run.times.map((t) => t.doneMs),
      (run.times.length * run.items) / seconds,
      run.errors,
    ),
  };
}

async function oneBatch(gatewayUrl: string, workload: FormatWorkload, context: WorkloadContext): Promise<BatchTimes & { items: number }> {
  const headers = { 'content-type': 'application/json', ...workload.headers?.(context) };
  const started = performance.now();
  const posted = await fetch(`${gatewayUrl}${workload.path}`, { method: 'POST', headers, body: JSON.stringify(workload.body(context)) });
  const acceptedMs = performance.now() - started;
  if (posted.status !== 202) throw new Error(`batch: HTTP ${posted.status}: ${(await posted.text()).slice(0, 200)}`);
  const { data } = (await posted.json()) as { data: { id: string; items: number; statusUrl: string } };
  for (;;) {
    const status = await fetch(`${gatewayUrl}${data.statusUrl}`, { headers });
    if (status.status !== 200) throw new Error(`batch status: HTTP ${status.status}`);
    const view = ((await status.json()) as { data: { status: string; done: number; failed: number } }).data;
    if (view.status === 'done') {
      if (view.failed > 0) throw new Error(`batch: ${view.failed} of ${data.items} items failed`);
      return { acceptedMs, doneMs: performance.now() - started, items: data.items };
    }
    if (performance.now() - started > BATCH_DEADLINE_MS) throw new Error(`batch not done within ${BATCH_DEADLINE_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, BATCH_POLL_MS));
  }
}

/** `workload.batch.runs` batches one after another (after one warm-up), each followed to its end. */
export async function runBatchWorkload(gatewayUrl: string, workload: FormatWorkload, context: WorkloadContext): Promise<BatchRun> {
  const errors = new ErrorTally();
  await oneBatch(gatewayUrl, workload, context).catch((err) => errors.add(err));
  const times: BatchTimes[] = [];
  let items = 0;
  const started = performance.now();
  for (let i = 0; i < (workload.batch?.runs ?? 0); i++) {
    try {
      const one = await oneBatch(gatewayUrl, workload, context);
      times.push(one);
      items = one.items;
    } catch (err) {
      errors.add(err);
    }
  }
  return { times, items, elapsedMs: performance.now() - started, errors };
}
