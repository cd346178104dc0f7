import { describe, expect, it } from 'vitest';
import { billingOf, RESERVED, RequestBilling } from '../../src/billing/request-billing.ts';
import { fakeRequest } from './fakes.ts';

const prepared = (outcome = Promise.resolve(RESERVED)) => ({ requestId: 'job-1', outcome, ahead: false, claimed: false });

describe('RequestBilling', () => {
  it('is made once per request, on first use', () => {
    const request = fakeRequest();
    expect(request.billing).toBeNull();
    const billing = billingOf(request);
    expect(billing).toBeInstanceOf(RequestBilling);
    expect(billingOf(request)).toBe(billing);
  });

  it('hands its reservation to one claimant only', () => {
    const billing = new RequestBilling();
    expect(billing.claim()).toBeNull();
    billing.prepare(prepared());
    expect(billing.unclaimed).toBe(true);
    expect(billing.claim()?.requestId).toBe('job-1');
    expect(billing.claim()).toBeNull();
    expect(billing.unclaimed).toBe(false);
  });

  it('says an unclaimed reservation’s refusal, and nothing once claimed or reserved', async () => {
    const refused = new Error('no credits');
    const billing = new RequestBilling();
    expect(await billing.refusal()).toBeUndefined();
    billing.prepare(prepared(Promise.resolve({ reserved: false, error: refused })));
    expect(await billing.refusal()).toBe(refused);
    // The outcome stays readable after the claim (a cached answer still checks the key).
    billing.claim();
    expect(await billing.refusal()).toBeUndefined();
    expect(await billing.outcome).toEqual({ reserved: false, error: refused });
    const reserved = new RequestBilling();
    reserved.prepare(prepared());
    expect(await reserved.refusal()).toBeUndefined();
  });
});
