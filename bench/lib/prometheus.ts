/** Just enough of the Prometheus text format to diff histograms between two scrapes. */

export interface MetricSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parseMetrics(text: string): MetricSample[] {
  const samples: MetricSample[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const m = LINE.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (m[2] ?? '').matchAll(LABEL)) labels[key as string] = (value as string).replace(/\\(.)/g, '$1');
    const value = m[3] === '+Inf' ? Number.POSITIVE_INFINITY : Number(m[3]);
    samples.push({ name: m[1] as string, labels, value });
  }
  return samples;
}

/** Cumulative bucket counts by upper bound (`le`), summed over every series of `name` that `match` accepts. */
export type Buckets = Map<number, number>;

export function histogramBuckets(
  samples: readonly MetricSample[],
  name: string,
  match: (labels: Record<string, string>) => boolean = () => true,
): Buckets {
  const buckets: Buckets = new Map();
  for (const s of samples) {
    if (s.name !== `${name}_bucket` || !match(s.labels) || s.labels.le === undefined) continue;
    const le = s.labels.le === '+Inf' ? Number.POSITIVE_INFINITY : Number(s.labels.le);
    buckets.set(le, (buckets.get(le) ?? 0) + s.value);
  }
  return buckets;
}

/** Adds several scrapes' buckets (e.g. one per worker process). */
export function addBuckets(...all: Buckets[]): Buckets {
  const sum: Buckets = new Map();
  for (const b of all) for (const [le, n] of b) sum.set(le, (sum.get(le) ?? 0) + n);
  return sum;
}

/** after − before, per bucket: the observations made between two scrapes. */
export function diffBuckets(after: Buckets, before: Buckets): Buckets {
  const diff: Buckets = new Map();
  for (const [le, n] of after) diff.set(le, n - (before.get(le) ?? 0));
  return diff;
}

export function bucketCount(buckets: Buckets): number {
  return buckets.get(Number.POSITIVE_INFINITY) ?? Math.max(0, ...buckets.values());
}

/**
 * Quantile q (0..1) from cumulative buckets, as PromQL's histogram_quantile does: linear interpolation
 * inside the bucket the rank falls into (from 0 for the first one); a rank in the +Inf bucket answers the
 * highest finite bound. NaN without observations.
 */
export function histogramQuantile(q: number, buckets: Buckets): number {
  const sorted = [...buckets.entries()].sort((a, b) => a[0] - b[0]);
  const total = bucketCount(buckets);
  if (!sorted.length || total <= 0) return Number.NaN;
  const rank = q * total;
  let prevBound = 0;
  let prevCount = 0;
  for (const [bound, count] of sorted) {
    if (count >= rank) {
      if (bound === Number.POSITIVE_INFINITY) return prevBound;
      if (count === prevCount) return bound;
      return prevBound + ((bound - prevBound) * (rank - prevCount)) / (count - prevCount);
    }
    prevBound = bound;
    prevCount = count;
  }
  return prevBound;
}
