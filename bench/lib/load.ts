import { performance } from 'node:perf_hooks';
import { ErrorTally, type Summary, summarize } from './stats.ts';

/** One finished operation; the optional fields carry the server's own timing headers. */
export interface Sample {
  renderMs?: number;
  queueMs?: number;
}

export interface LoadResult {
  latency: Summary;
  rendersPerSec: number;
  elapsedMs: number;
  renderMs?: Summary;
  queueMs?: Summary;
  errors: ErrorTally;
}

function collect(latencies: number[], samples: Sample[], elapsedMs: number, completed: number, errors: ErrorTally): LoadResult {
  const render = samples.flatMap((s) => (s.renderMs === undefined ? [] : [s.renderMs]));
  const queue = samples.flatMap((s) => (s.queueMs === undefined ? [] : [s.queueMs]));
  return {
    latency: summarize(latencies),
    rendersPerSec: completed / (elapsedMs / 1000),
    elapsedMs,
    renderMs: render.length ? summarize(render) : undefined,
    queueMs: queue.length ? summarize(queue) : undefined,
    errors,
  };
}

/** Back-to-back operations, one at a time: the latency a lone caller sees. */
export async function runSequential(op: () => Promise<Sample>, opts: { warmup: number; count: number }): Promise<LoadResult> {
  const errors = new ErrorTally();
  for (let i = 0; i < opts.warmup; i++) {
    await op().catch((err) => errors.add(err));
  }
  const latencies: number[] = [];
  const samples: Sample[] = [];
  const started = performance.now();
  for (let i = 0; i < opts.count; i++) {
    const t = performance.now();
    try {
      samples.push(await op());
      latencies.push(performance.now() - t);
    } catch (err) {
      errors.add(err);
    }
  }
  return collect(latencies, samples, performance.now() - started, samples.length, errors);
}

/**
 * Two operations one at a time, in alternating batches: `op` and the `baseline` it is judged against see
 * the same moments of a shared machine, so a ratio of their p50s is not skewed by the machine slowing down
 * or speeding up between two phases (on a small VM that drift alone moves a ratio by 10–35 %).
 */
export async function runPaired(
  op: () => Promise<Sample>,
  baseline: () => Promise<Sample>,
  opts: { warmup: number; count: number; batch: number },
): Promise<{ result: LoadResult; baseline: LoadResult }> {
  const sides = [op, baseline].map((run) => ({
    run,
    errors: new ErrorTally(),
    latencies: [] as number[],
    samples: [] as Sample[],
    elapsed: 0,
  }));
  for (const side of sides) for (let i = 0; i < opts.warmup; i++) await side.run().catch((err) => side.errors.add(err));
  for (let done = 0; done < opts.count; done += opts.batch) {
    for (const side of sides) {
      const started = performance.now();
      for (let i = done; i < Math.min(opts.count, done + opts.batch); i++) {
        const t = performance.now();
        try {
          side.samples.push(await side.run());
          side.latencies.push(performance.now() - t);
        } catch (err) {
          side.errors.add(err);
        }
      }
      side.elapsed += performance.now() - started;
    }
  }
  const [result, base] = sides.map((s) => collect(s.latencies, s.samples, s.elapsed, s.samples.length, s.errors)) as [
    LoadResult,
    LoadResult,
  ];
  return { result, baseline: base };
}

/**
 * `concurrency` closed loops for warm-up + duration; `op` gets its loop's index (e.g. to own one page).
 * Only operations that finish inside the measured window count, so throughput is not inflated by work
 * begun during warm-up nor cut by requests still in flight.
 */
export async function runForDuration(
  op: (loop: number) => Promise<Sample>,
  opts: { concurrency: number; warmupMs: number; durationMs: number },
): Promise<LoadResult> {
  const errors = new ErrorTally();
  const latencies: number[] = [];
  const samples: Sample[] = [];
  const windowStart = performance.now() + opts.warmupMs;
  const windowEnd = windowStart + opts.durationMs;

  const loop = async (_: unknown, index: number) => {
    while (performance.now() < windowEnd) {
      const t = performance.now();
      try {
        const sample = await op(index);
        const done = performance.now();
        if (done >= windowStart && done <= windowEnd) {
          latencies.push(done - t);
          samples.push(sample);
        }
      } catch (err) {
        errors.add(err);
      }
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, loop));
  return collect(latencies, samples, opts.durationMs, samples.length, errors);
}
