import { describe, expect, it } from 'vitest';
import { callerId } from '../src/identity/caller-id.ts';

describe('callerId (screenshot jobs’ context affinity)', () => {
  it('is the same for the same caller, on any replica', () => {
    expect(callerId('account', 'user-1')).toBe(callerId('account', 'user-1'));
    expect(callerId('address', '203.0.113.7')).toBe(callerId('address', '203.0.113.7'));
  });

  it('differs between callers, and between an account and an address spelled alike', () => {
    expect(callerId('account', 'user-1')).not.toBe(callerId('account', 'user-2'));
    expect(callerId('address', '203.0.113.7')).not.toBe(callerId('address', '203.0.113.8'));
    expect(callerId('account', '203.0.113.7')).not.toBe(callerId('address', '203.0.113.7'));
  });

  it('is opaque: neither the account id nor the address appears in it', () => {
    const id = callerId('address', '203.0.113.7');
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(id).not.toContain('203');
  });
});
