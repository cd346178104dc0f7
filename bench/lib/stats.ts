export interface Summary {
  n: number;
  p50: number;
  p95: number;
  mean: number;
  min: number;
  max: number;
}

/** Nearest-rank percentile: always a value that was actually observed, which keeps small samples honest. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const sum = sorted.reduce((acc, v) => acc + v, 0);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    mean: sorted.length ? sum / sorted.length : Number.NaN,
    min: sorted[0] ?? Number.NaN,
    max: sorted[sorted.length - 1] ?? Number.NaN,
  };
}

/** Error messages grouped with counts, so one repeated failure does not flood the report. */
export class ErrorTally {
  readonly counts = new Map<string, number>();
  total = 0;

  add(err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    this.total += 1;
    this.counts.set(message, (this.counts.get(message) ?? 0) + 1);
  }

  toJSON(): Record<string, number> {
    return Object.fromEntries(this.counts);
  }
}
