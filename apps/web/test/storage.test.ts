import { describe, expect, it } from 'vitest';
import { DEFAULT_TTL_MS, getStored, removeStored, setStored } from '../src/lib/storage.ts';

describe('stored items (docs/spec/states.md: 7-day expiry)', () => {
  it('answers an item until it expires, then discards it', () => {
    const now = 1_000_000;
    setStored('token', 'abc', DEFAULT_TTL_MS, now);
    expect(getStored('token', now + DEFAULT_TTL_MS - 1)).toBe('abc');
    expect(getStored('token', now + DEFAULT_TTL_MS)).toBeNull();
    // Discarded, not just hidden: the raw item is gone.
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('lives 7 days by default', () => {
    expect(DEFAULT_TTL_MS).toBe(7 * 24 * 60 * 60 * 1000);
    const now = Date.now();
    setStored('user', { name: 'Ada' }, undefined, now);
    expect(getStored('user', now + 6.9 * 24 * 3600_000)).toEqual({ name: 'Ada' });
    expect(getStored('user', now + 7.1 * 24 * 3600_000)).toBeNull();
  });

  it('discards an item that is not in the stored shape', () => {
    localStorage.setItem('token', 'raw-string');
    expect(getStored('token')).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
    localStorage.setItem('token', JSON.stringify({ value: 'x' }));
    expect(getStored('token')).toBeNull();
  });

  it('removes on request', () => {
    setStored('token', 'abc');
    removeStored('token');
    expect(getStored('token')).toBeNull();
  });
});
