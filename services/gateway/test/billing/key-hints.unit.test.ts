import { describe, expect, it } from 'vitest';
import { KeyHints } from '../../src/billing/key-hints.ts';

describe('KeyHints', () => {
  it('remembers a key’s owner and credits for its TTL only', () => {
    const hints = new KeyHints<string>(1_000);
    hints.set('k', 'alice', 12, 0);
    expect(hints.get('k', 999)).toMatchObject({ caller: 'alice', remaining: 12 });
    expect(hints.get('k', 1_000)).toBeUndefined();
  });

  it('forgets one key, or all', () => {
    const hints = new KeyHints<string>(1_000);
    hints.set('a', 'alice', null, 0);
    hints.set('b', 'bob', 3, 0);
    hints.delete('a');
    expect(hints.get('a', 1)).toBeUndefined();
    expect(hints.get('b', 1)?.caller).toBe('bob');
    hints.clear();
    expect(hints.size).toBe(0);
  });

  it('stays bounded: past 10,000 keys, expired ones go first, then all', () => {
    const hints = new KeyHints<number>(1_000);
    for (let i = 0; i < 10_000; i++) hints.set(`k${i}`, i, null, i < 5_000 ? 0 : 900);
    hints.set('new', 1, null, 1_500);
    expect(hints.size).toBe(5_001);
    expect(hints.get('k0', 1_500)).toBeUndefined();
    for (let i = 0; i < 5_000; i++) hints.set(`again${i}`, i, null, 1_500);
    // The 5,000th met 10,000 keys none of which had expired.
    expect(hints.size).toBe(1);
  });
});
