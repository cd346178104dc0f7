/**
 * Where a screenshot's time went, step by step (milliseconds since the step before), for the worker's
 * debug log: `LOG_LEVEL=debug` shows one "screenshot steps" line per job. Off, it costs a clock read a step.
 */
export class StepTimes {
  private last = performance.now();
  readonly steps: Record<string, number> = {};
  /** What the job decided on the way (e.g. whether the consent rule set ran), for the same log line. */
  readonly notes: Record<string, string> = {};

  mark(step: string): void {
    const now = performance.now();
    this.steps[step] = (this.steps[step] ?? 0) + Math.round((now - this.last) * 10) / 10;
    this.last = now;
  }
}
