import { describe, expect, it } from 'vitest';
import { renderTime } from '../lib/stack.ts';

describe('renderTime (the render to 0.1 ms from Server-Timing)', () => {
  it('reads the render entry, wherever it stands', () => {
    expect(renderTime({ headers: { 'server-timing': 'queue;dur=3, render;dur=11.4' } })).toBe(11.4);
    expect(renderTime({ headers: { 'server-timing': 'render;dur=8' } })).toBe(8);
  });

  it('is undefined without the header or its render entry (X-Render-Time is read instead)', () => {
    expect(renderTime({ headers: {} })).toBeUndefined();
    expect(renderTime({ headers: { 'server-timing': 'queue;dur=3, prerender;dur=4' } })).toBeUndefined();
  });
});
