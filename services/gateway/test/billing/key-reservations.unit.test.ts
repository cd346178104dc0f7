import { AppError } from '@render/contracts';
import { describe, expect, it } from 'vitest';
import { KeyReservations } from '../../src/billing/key-reservations.ts';
import type { KeyReservation, ReserveFacts } from '../../src/plugins/auth-client.plugin.ts';
import { deferred, fakeRequest, owner } from './fakes.ts';

type Answer = (facts: ReserveFacts) => KeyReservation | null | Promise<KeyReservation | null>;

const reserved = (facts: ReserveFacts, remaining: number | null = null, limit: number | null = null): KeyReservation => ({
  owner: owner(),
  refused: null,
  remaining,
  limit,
  spares: facts.spares ?? [],
});

function setup(answer: Answer, live = true) {
  const calls: ReserveFacts[] = [];
  const givenBack: string[] = [];
  const keys = new KeyReservations({
    authClient: {
      reserveCreditForApiKey: async (_hash, _id, facts) => {
        calls.push(facts);
        return answer(facts);
      },
      releaseLater: (ids) => givenBack.push(...ids),
    },
    live: () => live,
  });
  return { keys, calls, givenBack };
}

describe('KeyReservations', () => {
  it('verifies a key by reserving its call’s credit: the owner, the reservation and its credits', async () => {
    const { keys, calls } = setup((facts) => reserved(facts, 41, 50));
    const request = fakeRequest();
    const caller = await keys.reserve(request, 'rk_one');
    expect(caller).toEqual({ kind: 'account', userId: 'user-1', role: 'user', plan: 'free' });
    expect(calls).toEqual([{ kind: 'html', spares: undefined }]);
    expect(request.billing?.leaseKey).toMatch(/^[0-9a-f]{64}$/);
    expect(await request.billing?.outcome).toEqual({ reserved: true });
    expect(request.limits?.credits).toEqual({ limit: 50, remaining: 41 });
  });

  it('answers 401 for a key the account service does not know', async () => {
    const { keys } = setup(() => null);
    await expect(keys.reserve(fakeRequest(), 'rk_wrong')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('keeps a refused reservation (402) for the render to answer', async () => {
    const refusal = new AppError('PAYMENT_REQUIRED', 'No credits left');
    const { keys } = setup((facts) => ({ ...reserved(facts, 0, 50), refused: refusal }));
    const request = fakeRequest();
    await keys.reserve(request, 'rk_spent');
    expect(await request.billing?.refusal()).toBe(refusal);
  });

  it('starts the render alongside the check for a key verified moments ago with credits to spare', async () => {
    const second = deferred<KeyReservation | null>();
    let n = 0;
    const { keys } = setup((facts) => (++n === 1 ? reserved(facts, 40, 50) : second.promise));
    await keys.reserve(fakeRequest({ id: 'a' }), 'rk_busy');
    const request = fakeRequest({ id: 'b' });
    // Known before the account service answers…
    expect((await keys.reserve(request, 'rk_busy')).userId).toBe('user-1');
    expect(request.billing?.unclaimed).toBe(true);
    // …whose answer still decides: a regenerated key is refused.
    second.resolve(null);
    expect(await request.billing?.refusal()).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('waits for the answer when the account is short of credits', async () => {
    const { keys } = setup((facts) => reserved(facts, 3, 50));
    await keys.reserve(fakeRequest({ id: 'a' }), 'rk_low');
    const request = fakeRequest({ id: 'b' });
    await keys.reserve(request, 'rk_low');
    expect(request.billing?.claim()?.ahead).toBe(false);
  });

  it('leases spares for a key with renders in flight, which its next renders take without a call', async () => {
    const { keys, calls, givenBack } = setup((facts) => reserved(facts));
    const first = fakeRequest({ id: '1' });
    await keys.reserve(first, 'rk_loop');
    keys.end(first);
    // Two in flight: the second asks for twice their number.
    await keys.reserve(fakeRequest({ id: '2' }), 'rk_loop');
    const third = fakeRequest({ id: '3' });
    await keys.reserve(third, 'rk_loop');
    await third.billing?.outcome;
    expect(calls.map((facts) => facts.spares?.length)).toEqual([undefined, undefined, 4]);
    const fourth = fakeRequest({ id: '4' });
    await keys.reserve(fourth, 'rk_loop');
    expect(calls).toHaveLength(3);
    expect(calls[2]?.spares).toContain(fourth.billing?.claim()?.requestId);
    expect(keys.spares).toBe(3);
    // An account changed somewhere: the rest go back.
    keys.forget();
    expect(givenBack).toHaveLength(3);
    expect(keys.spares).toBe(0);
  });

  it('leases nothing while account changes are not heard', async () => {
    const { keys, calls } = setup((facts) => reserved(facts), false);
    for (const id of ['1', '2', '3']) await keys.reserve(fakeRequest({ id }), 'rk_deaf');
    expect(calls.every((facts) => facts.spares === undefined)).toBe(true);
  });

  it('stops a caller that hung up during the check, its credit left for the release', async () => {
    const { keys } = setup((facts) => reserved(facts, 40, 50));
    const request = fakeRequest({ destroyed: true });
    await expect(keys.reserve(request, 'rk_gone')).rejects.toMatchObject({ code: 'CLIENT_CLOSED_REQUEST' });
    expect(request.billing?.unclaimed).toBe(true);
  });
});
