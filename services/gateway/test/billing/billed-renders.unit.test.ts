import { AppError, type CreditOutcome } from '@render/contracts';
import type { RenderKind, RenderPayload } from '@render/queue';
import { describe, expect, it } from 'vitest';
import { BilledRenders } from '../../src/billing/billed-renders.ts';
import { billingOf, RESERVED, type ReservationOutcome } from '../../src/billing/request-billing.ts';
import { limitsOf } from '../../src/limits/request-limits.ts';
import type { RenderFacts } from '../../src/plugins/auth-client.plugin.ts';
import type { RenderOptions, RenderOutcome } from '../../src/plugins/render-queue.plugin.ts';
import { fakeRequest, image } from './fakes.ts';

const free = { kind: 'account', userId: 'user-1', role: 'user', plan: 'free' } as const;
const pro = { ...free, plan: 'pro' } as const;
const payload = { format: 'png' } as unknown as RenderPayload<'html'>;
const spent = () =>
  new AppError('PAYMENT_REQUIRED', 'No credits left', { credits: { limit: 50, remaining: 0, resetsAt: '2026-12-01T00:00:00Z' } });

interface Setup {
  render?: (options: RenderOptions | undefined) => Promise<RenderOutcome>;
  reserveCredit?: () => Promise<{ remaining: number | null; limit: number | null | undefined }>;
  admit?: () => Promise<void>;
}

function setup({
  render = async () => image(),
  reserveCredit = async () => ({ remaining: 9, limit: 10 }),
  admit = async () => undefined,
}: Setup = {}) {
  const log = {
    renders: [] as (RenderOptions | undefined)[],
    settled: [] as [string, CreditOutcome, RenderFacts | undefined][],
    charged: [] as [string, RenderFacts | undefined][],
    reserved: [] as string[],
    counted: [] as string[],
    anonymous: [] as string[],
  };
  const renders = new BilledRenders({
    authClient: {
      reserveCredit: async (_userId, requestId) => {
        log.reserved.push(requestId);
        return reserveCredit();
      },
      settleCredit: async (requestId, outcome, facts) => {
        log.settled.push([requestId, outcome, facts]);
      },
      chargeLater: (requestId, facts) => log.charged.push([requestId, facts]),
    },
    renderQueue: {
      render: async <K extends RenderKind>(_kind: K, _payload: RenderPayload<K>, options?: RenderOptions) => {
        log.renders.push(options);
        return render(options);
      },
    },
    anonymousLimits: {
      admit: async () => {
        log.anonymous.push('admit');
        return admit();
      },
      begin: async () => {
        log.anonymous.push('begin');
        return () => log.anonymous.push('release');
      },
    },
    charged: (format) => log.counted.push(format),
    warn: () => undefined,
  });
  return { renders, log };
}

const prepare = (request: ReturnType<typeof fakeRequest>, outcome: ReservationOutcome, ahead = false) =>
  billingOf(request).prepare({ requestId: 'job-1', outcome: Promise.resolve(outcome), ahead, claimed: false });

describe('BilledRenders', () => {
  it('refuses to render for a request no identity hook saw', async () => {
    const { renders } = setup();
    await expect(renders.render(fakeRequest(), 'html', payload)).rejects.toMatchObject({ code: 'INTERNAL_ERROR' });
  });

  it('renders an anonymous call on its address’s limits, held until the render ends', async () => {
    const { renders, log } = setup();
    await renders.render(fakeRequest({ caller: { kind: 'anonymous' } }), 'html', payload);
    expect(log.anonymous).toEqual(['begin', 'release']);
    expect(log.renders[0]?.account).toBeUndefined();
    expect(log.reserved).toEqual([]);
  });

  it('renders a key’s call under the credit reserved in onRequest, and charges it after the answer', async () => {
    const { renders, log } = setup();
    const request = fakeRequest({ caller: free });
    prepare(request, RESERVED);
    const outcome = await renders.render(request, 'html', payload);
    expect(outcome.meta.format).toBe('png');
    expect(log.renders[0]).toMatchObject({ jobId: 'job-1', requestId: 'req-1', account: { id: 'user-1', plan: 'free' } });
    expect(log.charged).toEqual([['job-1', { kind: 'html', format: 'png', sizeBytes: 5, renderMs: 7 }]]);
    expect(log.counted).toEqual(['png']);
    // Claimed by the render: nothing is left to release.
    expect(renders.releaseUnclaimed(request)).toBeUndefined();
  });

  it('reserves a session’s credit itself, and shows what it left', async () => {
    const { renders, log } = setup();
    const request = fakeRequest({ caller: free });
    await renders.render(request, 'html', payload, { slotHeld: true });
    expect(log.reserved).toHaveLength(1);
    expect(log.renders[0]).toMatchObject({ jobId: log.reserved[0] });
    expect(log.renders[0]?.account).toBeUndefined();
    expect(request.limits?.credits).toEqual({ remaining: 9, limit: 10 });
  });

  it('releases the credit of a render that failed, with the format it was to have', async () => {
    const failed = new AppError('RENDER_FAILED', 'broken');
    const { renders, log } = setup({ render: async () => Promise.reject(failed) });
    const request = fakeRequest({ caller: free });
    prepare(request, RESERVED);
    await expect(renders.render(request, 'html', payload)).rejects.toBe(failed);
    expect(log.settled).toEqual([['job-1', 'released', { kind: 'html', format: 'png' }]]);
    expect(log.charged).toEqual([]);
  });

  it('withholds the image of an unlimited account whose reservation is refused after all', async () => {
    const { renders, log } = setup({ reserveCredit: async () => Promise.reject(spent()) });
    const request = fakeRequest({ caller: pro });
    await expect(renders.render(request, 'html', payload)).rejects.toMatchObject({ code: 'PAYMENT_REQUIRED' });
    expect(log.renders).toHaveLength(1);
    expect(log.renders[0]?.signal?.aborted).toBe(true);
    expect(log.charged).toEqual([]);
    expect(log.settled).toEqual([]);
  });

  it('falls a Free account out of credits back to its address’s allowance, its 402 standing shown', async () => {
    const { renders, log } = setup();
    const request = fakeRequest({ caller: free });
    limitsOf(request).ownCredits = true;
    prepare(request, { reserved: false, error: spent() });
    const outcome = await renders.render(request, 'html', payload);
    expect(outcome.meta.format).toBe('png');
    expect(log.anonymous).toEqual(['admit', 'begin', 'release']);
    expect(log.charged).toEqual([]);
    expect(request.limits?.credits).toEqual({ limit: 50, remaining: 0, resetsAt: '2026-12-01T00:00:00Z' });
  });

  it('answers the 402 when the address’s allowance is spent too, or the credits are not the caller’s own', async () => {
    const exhausted = setup({ admit: async () => Promise.reject(new AppError('RATE_LIMITED', 'slow down')) });
    const own = fakeRequest({ caller: free });
    limitsOf(own).ownCredits = true;
    prepare(own, { reserved: false, error: spent() });
    await expect(exhausted.renders.render(own, 'html', payload)).rejects.toMatchObject({ code: 'PAYMENT_REQUIRED' });
    const signedUrl = setup();
    const owners = fakeRequest({ caller: free });
    prepare(owners, { reserved: false, error: spent() });
    await expect(signedUrl.renders.render(owners, 'html', payload)).rejects.toMatchObject({ code: 'PAYMENT_REQUIRED' });
    expect(signedUrl.log.anonymous).toEqual([]);
  });

  it('gives back the credit of a call answered before its render, once, and waits for it on close', async () => {
    const { renders, log } = setup();
    const request = fakeRequest({ caller: free });
    prepare(request, RESERVED);
    const releasing = renders.releaseUnclaimed(request);
    expect(releasing).toBeDefined();
    expect(renders.releaseUnclaimed(request)).toBeUndefined();
    await renders.drain();
    expect(log.settled).toEqual([['job-1', 'released', undefined]]);
    // A refused reservation has nothing to give back.
    const refused = fakeRequest({ caller: free });
    prepare(refused, { reserved: false, error: spent() });
    await renders.releaseUnclaimed(refused);
    expect(log.settled).toHaveLength(1);
  });
});

describe('BilledRenders: a screenshot video, one credit per started 5 s', () => {
  const video = (duration: number) => ({ format: 'mp4', duration }) as unknown as RenderPayload<'screenshot'>;

  it('reserves a 12 s video’s three credits before it renders, and charges all three after the answer', async () => {
    const { renders, log } = setup();
    const request = fakeRequest({ caller: free });
    prepare(request, RESERVED);
    await renders.render(request, 'screenshot', video(12));
    expect(log.reserved).toEqual(['job-1:credit-2', 'job-1:credit-3']);
    expect(log.charged.map(([id]) => id)).toEqual(['job-1', 'job-1:credit-2', 'job-1:credit-3']);
    expect(log.settled).toEqual([]);
  });

  it('costs a 5 s video one credit, and an image one whatever its fields', async () => {
    const { renders, log } = setup();
    const request = fakeRequest({ caller: free });
    prepare(request, RESERVED);
    await renders.render(request, 'screenshot', video(5));
    await renders.render(fakeRequest({ caller: free }), 'screenshot', { format: 'png', duration: 30 } as never);
    expect(log.reserved).toHaveLength(1); // the second call's own first credit, none more
    expect(log.charged).toHaveLength(2);
  });

  it('renders nothing when the account lacks the further credits, and gives back those it took', async () => {
    let calls = 0;
    const { renders, log } = setup({ reserveCredit: async () => (++calls === 2 ? Promise.reject(spent()) : { remaining: 0, limit: 50 }) });
    const request = fakeRequest({ caller: { ...free, plan: 'pro' } });
    prepare(request, RESERVED);
    await expect(renders.render(request, 'screenshot', video(15))).rejects.toMatchObject({ code: 'PAYMENT_REQUIRED' });
    expect(log.renders).toEqual([]);
    expect(log.reserved).toEqual(['job-1:credit-2', 'job-1:credit-3']);
    expect(log.settled.map(([id, outcome]) => [id, outcome])).toEqual([
      ['job-1:credit-2', 'released'],
      ['job-1', 'released'],
    ]);
    expect(log.charged).toEqual([]);
  });

  it('releases every credit of a video whose render failed', async () => {
    const { renders, log } = setup({ render: async () => Promise.reject(new AppError('RENDER_FAILED', 'broken')) });
    const request = fakeRequest({ caller: free });
    prepare(request, RESERVED);
    await expect(renders.render(request, 'screenshot', video(10))).rejects.toMatchObject({ code: 'RENDER_FAILED' });
    expect(log.settled.map(([id, outcome]) => [id, outcome]).sort()).toEqual([
      ['job-1', 'released'],
      ['job-1:credit-2', 'released'],
    ]);
    expect(log.charged).toEqual([]);
  });
});
