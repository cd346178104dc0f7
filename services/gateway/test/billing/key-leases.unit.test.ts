import { describe, expect, it } from 'vitest';
import { KeyLeases } from '../../src/billing/key-leases.ts';

type Caller = { userId: string };
const owner = (remaining: number | null) => ({ caller: { userId: 'u1' }, remaining });

function setup(maxSpares = 32) {
  const givenBack: string[] = [];
  const leases = new KeyLeases<Caller>({ ttlMs: 1_000, maxSpares, giveBack: (ids) => givenBack.push(...ids) });
  return { leases, givenBack };
}

describe('KeyLeases', () => {
  it('leases for a key calling one at a time but steadily: a quarter of a second of its renders', () => {
    const givenBack: string[] = [];
    const leases = new KeyLeases<Caller>({ ttlMs: 1_000, maxSpares: 32, steadyPerSecond: 10, giveBack: (ids) => givenBack.push(...ids) });
    // Nine renders in a second, one at a time: not steady enough, no spares.
    for (let i = 0; i < 9; i++) {
      leases.begin('slow', i * 100);
      if (i < 8) leases.end('slow');
    }
    expect(leases.ask('slow', owner(null), 850)).toBeUndefined();
    // Forty a second (every 25 ms), one at a time: ten spares, and none for a limited account beyond half its credits.
    for (let i = 0; i < 40; i++) {
      leases.begin('loop', i * 25);
      if (i < 39) leases.end('loop');
    }
    expect(leases.ask('loop', owner(null), 975)?.spares).toHaveLength(10);
    leases.begin('free', 0);
    for (let i = 1; i < 40; i++) {
      leases.end('free');
      leases.begin('free', i * 25);
    }
    expect(leases.ask('free', owner(6), 975)?.spares).toHaveLength(3);
    // Gone quiet for two seconds, the key is one-at-a-time again.
    leases.end('loop');
    leases.begin('loop', 3_000);
    leases.settle('loop', { spares: [], generation: 0 }, null);
    expect(leases.ask('loop', owner(null), 3_000)).toBeUndefined();
  });

  it('without steadyPerSecond, a key calling one at a time never leases', () => {
    const { leases } = setup();
    for (let i = 0; i < 100; i++) {
      leases.begin('k', i * 5);
      if (i < 99) leases.end('k');
    }
    expect(leases.ask('k', owner(null), 500)).toBeUndefined();
  });

  it('asks for no spares while a key has one render in flight, or its account is not known yet', () => {
    const { leases } = setup();
    leases.begin('k');
    expect(leases.ask('k', owner(null))).toBeUndefined();
    leases.begin('k');
    expect(leases.ask('k', undefined)).toBeUndefined();
  });

  it('asks for twice the renders in flight, capped, and for a limited account half of what is left at most', () => {
    const { leases } = setup(5);
    for (let i = 0; i < 3; i++) leases.begin('a');
    expect(leases.ask('a', owner(null))?.spares).toHaveLength(5);
    for (let i = 0; i < 3; i++) leases.begin('b');
    expect(leases.ask('b', owner(9))?.spares).toHaveLength(4);
    for (let i = 0; i < 3; i++) leases.begin('c');
    expect(leases.ask('c', owner(1))).toBeUndefined();
  });

  it('asks once at a time per key, and hands out what was leased, one spare per render', () => {
    const { leases } = setup();
    leases.begin('k');
    leases.begin('k');
    const request = leases.ask('k', owner(null));
    expect(request?.spares).toHaveLength(4);
    expect(leases.ask('k', owner(null))).toBeUndefined();
    leases.settle('k', request!, { ...owner(null), spares: request!.spares.slice(0, 2) }, 0);
    const taken = [leases.take('k', 10), leases.take('k', 10), leases.take('k', 10)];
    expect(taken.map((t) => t?.requestId)).toEqual([request!.spares[1], request!.spares[0], undefined]);
    expect(taken[0]?.caller).toEqual({ userId: 'u1' });
    expect(leases.ask('k', owner(null))?.spares).toHaveLength(4);
  });

  it('counts the spares still unused as credits left, for the answer of the render that takes one', () => {
    const { leases } = setup();
    leases.begin('k');
    leases.begin('k');
    const request = leases.ask('k', owner(40))!;
    leases.settle('k', request, { ...owner(10), limit: 50, spares: request.spares.slice(0, 3) }, 0);
    // 10 left after the lease's 3 spares; each render that takes one leaves the others still there.
    expect([leases.take('k', 10), leases.take('k', 10), leases.take('k', 10)].map((t) => [t?.remaining, t?.limit])).toEqual([
      [12, 50],
      [11, 50],
      [10, 50],
    ]);
  });

  it('gives back spares past their time, and every spare when an account changed', () => {
    const { leases, givenBack } = setup();
    leases.begin('a');
    leases.begin('a');
    const a = leases.ask('a', owner(null))!;
    leases.settle('a', a, { ...owner(null), spares: a.spares }, 0);
    leases.sweep(999);
    expect(givenBack).toEqual([]);
    leases.sweep(1_000);
    expect(givenBack.sort()).toEqual([...a.spares].sort());
    expect(leases.take('a', 1_000)).toBeUndefined();

    leases.begin('b');
    leases.begin('b');
    const b = leases.ask('b', owner(null))!;
    leases.settle('b', b, { ...owner(null), spares: b.spares }, 0);
    expect(leases.size).toBe(4);
    leases.invalidate();
    expect(leases.size).toBe(0);
    expect(givenBack).toHaveLength(8);
  });

  it('refuses a lease asked for before an account changed: its spares go back as they arrive', () => {
    const { leases, givenBack } = setup();
    leases.begin('k');
    leases.begin('k');
    const request = leases.ask('k', owner(null))!;
    leases.invalidate();
    leases.settle('k', request, { ...owner(null), spares: request.spares }, 0);
    expect(leases.take('k', 0)).toBeUndefined();
    expect(givenBack.sort()).toEqual([...request.spares].sort());
  });

  it('lets renders that find no spare wait for the lease being asked for', async () => {
    const { leases } = setup();
    leases.begin('k');
    leases.begin('k');
    expect(leases.arriving('k')).toBeUndefined();
    const request = leases.ask('k', owner(null))!;
    const arriving = leases.arriving('k');
    expect(arriving).toBeInstanceOf(Promise);
    let arrived = false;
    void arriving!.then(() => {
      arrived = true;
    });
    await Promise.resolve();
    expect(arrived).toBe(false);
    leases.settle('k', request, { ...owner(null), spares: request.spares.slice(0, 1) }, 0);
    await arriving;
    expect(leases.take('k', 0)?.requestId).toBe(request.spares[0]);
    expect(leases.arriving('k')).toBeUndefined();
    // A failed lease lets its waiters go too (each then makes its own call).
    const failed = leases.ask('k', owner(null))!;
    const again = leases.arriving('k');
    leases.settle('k', failed, null, 0);
    await expect(again).resolves.toBeUndefined();
  });

  it('counts renders in flight down again as they end', () => {
    const { leases } = setup();
    leases.begin('k');
    leases.begin('k');
    leases.end('k');
    expect(leases.ask('k', owner(null))).toBeUndefined();
  });
});
