/** Growth from `baseline` to `last`, in percent of the baseline. */
export function growthPct(baseline: number, last: number): number {
  return ((last - baseline) / baseline) * 100;
}

/**
 * What a failed request was, from the bench client's error message: an answer with status 5xx, any
 * other wrong answer (4xx, not the expected image), or lost (no answer: timeout, refused, reset).
 */
export function classifyFailure(message: string): 'http5xx' | 'other' | 'lost' {
  const status = /^HTTP (\d{3})\b/.exec(message)?.[1];
  if (status) return status.startsWith('5') ? 'http5xx' : 'other';
  if (/^(not a PNG|PNG is )/.test(message)) return 'other';
  return 'lost';
}
