import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proPriceEnv, proPrices } from '../src/stand-in/stand-in-prices.ts';
import { type StripeStandIn, startStripeStandIn } from '../src/stand-in/stripe-stand-in.ts';
import { json, STRONG_PASSWORD, type Stack, startStack, suiteStack, verifiedUser } from './helpers/stack.ts';

const WEBHOOK_SECRET = `whsec_${randomBytes(16).toString('hex')}`;
const PRICES = proPrices('price');

/** Every signed-in billing route, by method and path. */
const BILLING_ROUTES = [
  ['POST', '/api/auth/upgrade'],
  ['POST', '/api/auth/manage-billing'],
  ['POST', '/api/auth/cancel-subscription'],
  ['POST', '/api/auth/reactivate-subscription'],
  ['GET', '/api/auth/payment-info'],
] as const;

// Signs test webhooks with the SDK's own helper, the same HMAC scheme Stripe uses.
const signer = new Stripe('sk_test_signer');

let fake: StripeStandIn;
let stack: Stack;

beforeAll(async () => {
  fake = await startStripeStandIn({ prices: PRICES });
  stack = await startStack({
    STRIPE_SECRET_KEY: 'sk_test_fake',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    ...proPriceEnv('price'),
    ...fake.env,
  });
});

afterAll(async () => {
  await stack?.close();
  await fake?.close();
});

type User = Awaited<ReturnType<typeof verifiedUser>>;

function deliver(event: object, { secret = WEBHOOK_SECRET, timestamp }: { secret?: string; timestamp?: number } = {}) {
  const payload = JSON.stringify(event);
  const signature = signer.webhooks.generateTestHeaderString({ payload, secret, timestamp });
  return fetch(`${stack.url}/api/auth/stripe/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
    body: payload,
  });
}

const checkoutRequests = () => fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions');

/** Upgrade, "pay" on the fake Stripe, deliver checkout.session.completed: a Pro user and their subscription id. */
async function subscribe(user: User): Promise<string> {
  const upgrade = await stack.call('POST', '/api/auth/upgrade', { token: user.token, body: {} });
  expect(upgrade.status).toBe(200);
  const session = fake.completeCheckout((await json(upgrade)).sessionId);
  const res = await deliver(fake.event('checkout.session.completed', session));
  expect(await json(res)).toEqual({ received: true });
  return String(session.subscription);
}

const paymentInfo = async (user: User) => {
  const res = await stack.call('GET', '/api/auth/payment-info', { token: user.token });
  expect(res.status).toBe(200);
  return (await json(res)).data;
};

const planOf = async (user: User) => (await json(await stack.call('GET', '/api/auth/me', { token: user.token }))).user.plan;

const eventCount = async (eventId: string) =>
  (await stack.db.selectFrom('stripe_events').select('event_id').where('event_id', '=', eventId).execute()).length;

const invoiceFailed = (subscriptionId: string) =>
  fake.event('invoice.payment_failed', {
    id: `in_${randomBytes(8).toString('hex')}`,
    object: 'invoice',
    status: 'open',
    customer: fake.subscriptions.get(subscriptionId)?.customer,
    parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: subscriptionId, metadata: {} } },
  });

describe('upgrade', () => {
  it('returns the Checkout URL, in dollars by default, and reuses the Stripe customer', async () => {
    const user = await verifiedUser(stack);
    const res = await stack.call('POST', '/api/auth/upgrade', { token: user.token });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toEqual({
      success: true,
      url: expect.stringMatching(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/),
      sessionId: expect.any(String),
    });
    const request = checkoutRequests().at(-1)!;
    expect(request.params).toMatchObject({
      mode: 'subscription',
      'line_items[0][price]': 'price_month_usd',
      client_reference_id: user.userId,
      success_url: expect.stringMatching(/^http:\/\/app\.test\/dashboard\?checkout=success/),
    });

    const again = await stack.call('POST', '/api/auth/upgrade', { token: user.token, body: { interval: 'year' } });
    expect(again.status).toBe(200);
    expect(checkoutRequests().at(-1)!.params).toMatchObject({
      'line_items[0][price]': 'price_year_usd',
      customer: request.params.customer,
    });
    const customers = fake.requests.filter((r) => r.path === '/v1/customers' && r.params['metadata[userId]'] === user.userId);
    expect(customers).toHaveLength(1);
    expect(customers[0]!.idempotencyKey).toBe(`customer-for-user-${user.userId}`);
  });

  it('charges French speakers in euros unless a currency is chosen', async () => {
    const user = await verifiedUser(stack);
    const fr = { 'accept-language': 'fr-FR,fr;q=0.9,en;q=0.8' };
    expect((await stack.call('POST', '/api/auth/upgrade', { token: user.token, headers: fr })).status).toBe(200);
    expect(checkoutRequests().at(-1)!.params['line_items[0][price]']).toBe('price_month_eur');
    await stack.call('POST', '/api/auth/upgrade', { token: user.token, headers: fr, body: { interval: 'year', currency: 'usd' } });
    expect(checkoutRequests().at(-1)!.params['line_items[0][price]']).toBe('price_year_usd');
    await stack.call('POST', '/api/auth/upgrade', { token: user.token, headers: { 'accept-language': 'en-US,fr;q=0.5' } });
    expect(checkoutRequests().at(-1)!.params['line_items[0][price]']).toBe('price_month_usd');
  });

  it('rejects an unknown interval', async () => {
    const user = await verifiedUser(stack);
    const res = await stack.call('POST', '/api/auth/upgrade', { token: user.token, body: { interval: 'week' } });
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ success: false, message: 'interval must be month or year' });
  });
});

describe('subscription lifecycle', () => {
  it('checkout completed → Pro with payment info; cancel → cancelling; reactivate → active; deleted → free', async () => {
    const user = await verifiedUser(stack);
    expect(await planOf(user)).toBe('free');
    const subscriptionId = await subscribe(user);
    expect(await planOf(user)).toBe('pro');

    const info = await paymentInfo(user);
    expect(info).toEqual({
      plan: 'pro',
      status: 'active',
      price: 49,
      currency: 'usd',
      interval: 'month',
      nextBillingDate: expect.any(String),
      cancelAtPeriodEnd: false,
      paymentMethods: [{ brand: 'visa', last4: '4242', expMonth: 12, expYear: expect.any(Number), isDefault: true }],
      testMode: true,
    });
    expect(new Date(info.nextBillingDate).getTime()).toBeGreaterThan(Date.now() + 29 * 24 * 3600 * 1000);

    const twice = await stack.call('POST', '/api/auth/upgrade', { token: user.token });
    expect(twice.status).toBe(409);

    const portal = await stack.call('POST', '/api/auth/manage-billing', { token: user.token });
    expect(portal.status).toBe(200);
    expect(await json(portal)).toEqual({ success: true, url: expect.stringMatching(/^https:\/\/billing\.stripe\.test\//) });

    const cancel = await stack.call('POST', '/api/auth/cancel-subscription', { token: user.token });
    expect(cancel.status).toBe(200);
    expect(await json(cancel)).toEqual({
      success: true,
      message: 'Subscription cancelled successfully',
      accessUntil: info.nextBillingDate,
    });
    expect(fake.subscriptions.get(subscriptionId)!.cancel_at_period_end).toBe(true);
    expect(await paymentInfo(user)).toMatchObject({ plan: 'pro', status: 'cancelling', cancelAtPeriodEnd: true });
    expect((await stack.call('POST', '/api/auth/cancel-subscription', { token: user.token })).status).toBe(409);
    // An older snapshot delivered late (still "not cancelling") does not undo the cancellation.
    const stale = { ...fake.subscriptions.get(subscriptionId)!, cancel_at_period_end: false };
    expect((await deliver(fake.event('customer.subscription.updated', stale))).status).toBe(200);
    expect(await paymentInfo(user)).toMatchObject({ status: 'cancelling' });

    const reactivate = await stack.call('POST', '/api/auth/reactivate-subscription', { token: user.token });
    expect(reactivate.status).toBe(200);
    expect(await json(reactivate)).toEqual({ success: true, message: 'Subscription reactivated successfully' });
    expect(fake.subscriptions.get(subscriptionId)!.cancel_at_period_end).toBe(false);
    expect(await paymentInfo(user)).toMatchObject({ plan: 'pro', status: 'active', cancelAtPeriodEnd: false });
    const notCancelling = await stack.call('POST', '/api/auth/reactivate-subscription', { token: user.token });
    expect(notCancelling.status).toBe(400);

    // The period ended: Stripe cancels the subscription and says so.
    const sub = fake.subscriptions.get(subscriptionId)!;
    Object.assign(sub, { status: 'canceled', ended_at: Math.floor(Date.now() / 1000) });
    const deleted = await deliver(fake.event('customer.subscription.deleted', sub));
    expect(deleted.status).toBe(200);
    expect(await planOf(user)).toBe('free');
    expect(await paymentInfo(user)).toMatchObject({ plan: 'free', status: 'canceled' });

    // A late update about the ended subscription does not bring it back.
    await deliver(fake.event('customer.subscription.updated', { ...sub, status: 'active' }));
    expect(await planOf(user)).toBe('free');
    // …and the user can subscribe again.
    expect((await stack.call('POST', '/api/auth/upgrade', { token: user.token })).status).toBe(200);
  });

  it('invoice.payment_failed marks the subscription past_due', async () => {
    const user = await verifiedUser(stack);
    const subscriptionId = await subscribe(user);
    expect(await json(await deliver(invoiceFailed(subscriptionId)))).toEqual({ received: true });
    expect(await paymentInfo(user)).toMatchObject({ status: 'past_due' });
  });

  it('answers clearly when there is no subscription', async () => {
    const user = await verifiedUser(stack);
    const cancel = await stack.call('POST', '/api/auth/cancel-subscription', { token: user.token });
    expect(cancel.status).toBe(404);
    expect(await json(cancel)).toMatchObject({ message: 'No active subscription found' });
    expect((await stack.call('POST', '/api/auth/reactivate-subscription', { token: user.token })).status).toBe(404);
    const portal = await stack.call('POST', '/api/auth/manage-billing', { token: user.token });
    expect(portal.status).toBe(404);
    expect(await json(portal)).toMatchObject({ message: 'No billing account found. Upgrade to Pro first.' });
    expect(await paymentInfo(user)).toEqual({
      plan: 'free',
      status: null,
      price: null,
      currency: null,
      interval: null,
      nextBillingDate: null,
      cancelAtPeriodEnd: false,
      paymentMethods: [],
      testMode: true,
    });
  });

  it('needs a signed-in user', async () => {
    for (const [method, path] of BILLING_ROUTES) {
      const res = await stack.call(method, path);
      expect(res.status, path).toBe(401);
      const bad = await stack.call(method, path, { token: 'not-a-token' });
      expect(bad.status, path).toBe(401);
    }
  });
});

describe('webhook', () => {
  it('rejects missing, forged and stale signatures', async () => {
    const event = fake.event('customer.updated', { id: 'cus_x', object: 'customer' });
    const payload = JSON.stringify(event);
    const url = `${stack.url}/api/auth/stripe/webhook`;
    const post = (headers: Record<string, string>, body = payload) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

    const missing = await post({});
    expect(missing.status).toBe(400);
    expect(await json(missing)).toMatchObject({ message: 'Missing Stripe signature' });

    const forged = await deliver(event, { secret: 'whsec_wrong' });
    expect(forged.status).toBe(400);
    expect(await json(forged)).toMatchObject({ message: 'Invalid Stripe signature' });

    // A valid signature over different bytes: the body was altered after signing.
    const signature = signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    expect((await post({ 'stripe-signature': signature }, payload.replace('cus_x', 'cus_y'))).status).toBe(400);
    // Re-serialised JSON (e.g. parsed and stringified by a proxy) no longer matches either.
    expect((await post({ 'stripe-signature': signature }, JSON.stringify(JSON.parse(payload), null, 2))).status).toBe(400);

    const stale = await deliver(event, { timestamp: Math.floor(Date.now() / 1000) - 10 * 60 });
    expect(stale.status).toBe(400);
    expect(await eventCount(event.id as string)).toBe(0);

    // The same bytes correctly signed now are accepted (an event type billing ignores: recorded, nothing changed).
    expect((await post({ 'stripe-signature': signature })).status).toBe(200);
  });

  it('processes a redelivered event once', async () => {
    const user = await verifiedUser(stack);
    const subscriptionId = await subscribe(user);
    const activeUpdate = fake.event('customer.subscription.updated', fake.subscriptions.get(subscriptionId)!);
    expect(await json(await deliver(activeUpdate))).toEqual({ received: true });
    await deliver(invoiceFailed(subscriptionId));
    expect(await paymentInfo(user)).toMatchObject({ status: 'past_due' });

    // Applied again, the old "active" update would undo past_due; as a duplicate it changes nothing.
    const again = await deliver(activeUpdate);
    expect(again.status).toBe(200);
    expect(await json(again)).toEqual({ received: true, duplicate: true });
    expect(await paymentInfo(user)).toMatchObject({ status: 'past_due' });
    expect(await eventCount(activeUpdate.id as string)).toBe(1);
  });

  it('processes two concurrent deliveries of one event once', async () => {
    const user = await verifiedUser(stack);
    const subscriptionId = await subscribe(user);
    const event = invoiceFailed(subscriptionId);
    const answers = await Promise.all([deliver(event), deliver(event), deliver(event)].map(async (r) => json(await r)));
    expect(answers.filter((a) => a.duplicate !== true)).toEqual([{ received: true }]);
    expect(answers.filter((a) => a.duplicate === true)).toHaveLength(2);
    expect(await eventCount(event.id as string)).toBe(1);
    expect(await paymentInfo(user)).toMatchObject({ status: 'past_due' });
  });
});

describe('without STRIPE_SECRET_KEY', () => {
  const bareStack = suiteStack();

  it('answers 503 "Billing is not configured" while the rest of the service works', async () => {
    const bare = bareStack();
    const user = await verifiedUser(bare);
    const login = await bare.call('POST', '/api/auth/login', { body: { email: user.email.toLowerCase(), password: STRONG_PASSWORD } });
    expect(login.status).toBe(200);
    for (const [method, path] of BILLING_ROUTES) {
      const res = await bare.call(method, path, { token: user.token });
      expect(res.status, path).toBe(503);
      expect(await json(res), path).toMatchObject({ success: false, code: 'BILLING_NOT_CONFIGURED', message: 'Billing is not configured' });
    }
    const webhook = await fetch(`${bare.url}/api/auth/stripe/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      body: '{}',
    });
    expect(webhook.status).toBe(503);
  });
});
