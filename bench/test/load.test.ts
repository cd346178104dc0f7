import { describe, expect, it } from 'vitest';
import { runPaired } from '../lib/load.ts';

describe('runPaired', () => {
  it('alternates the run and its baseline in batches, warming both first, and counts each side apart', async () => {
    const calls: string[] = [];
    const op = (name: string) => async () => {
      calls.push(name);
      return { renderMs: name === 'stack' ? 5 : undefined };
    };
    const { result, baseline } = await runPaired(op('stack'), op('raw'), { warmup: 1, count: 5, batch: 2 });
    expect(calls.join(' ')).toBe(['stack', 'raw', 'stack stack', 'raw raw', 'stack stack', 'raw raw', 'stack', 'raw'].join(' '));
    expect(result.latency.n).toBe(5);
    expect(baseline.latency.n).toBe(5);
    expect(result.renderMs?.n).toBe(5);
    expect(baseline.renderMs).toBeUndefined();
  });

  it('keeps each side’s failures to itself', async () => {
    let n = 0;
    const flaky = async () => {
      if (++n % 2 === 0) throw new Error('boom');
      return {};
    };
    const { result, baseline } = await runPaired(flaky, async () => ({}), { warmup: 0, count: 4, batch: 4 });
    expect(result.errors.total).toBe(2);
    expect(result.latency.n).toBe(2);
    expect(baseline.errors.total).toBe(0);
    expect(baseline.latency.n).toBe(4);
  });
});
