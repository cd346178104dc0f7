import { describe, expect, it } from 'vitest';
import { classifyFailure, growthPct } from '../lib/soak.ts';

describe('soak helpers', () => {
  it('growth in percent of the baseline', () => {
    expect(growthPct(1000, 1100)).toBeCloseTo(10, 10);
    expect(growthPct(200, 150)).toBeCloseTo(-25, 10);
  });

  it('classifies the bench client’s failures', () => {
    expect(classifyFailure('HTTP 503: {"error":"busy"}')).toBe('http5xx');
    expect(classifyFailure('HTTP 504: {}')).toBe('http5xx');
    expect(classifyFailure('HTTP 429: {}')).toBe('other');
    expect(classifyFailure('PNG is 10×10, expected 800×600')).toBe('other');
    expect(classifyFailure('not a PNG (0 bytes, starts )')).toBe('other');
    expect(classifyFailure('no response within 60 s')).toBe('lost');
    expect(classifyFailure('socket hang up')).toBe('lost');
    expect(classifyFailure('connect ECONNREFUSED 127.0.0.1:3000')).toBe('lost');
  });
});
