import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAuthConfig } from '../src/config.ts';
import { json, type Stack, startStack, verifiedUser } from './helpers/stack.ts';

// Development billing (STRIPE_STAND_IN, no Stripe key): the auth service runs the Stripe stand-in itself, and
// every billing screen works over real HTTP: Checkout and the portal are the stand-in's pages, whose buttons
// send signed webhooks back to the service, exactly the path a real Stripe event takes.
const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'stripe-stand-in-'));
const stateFile = path.join(dir, 'stripe-stand-in.json');
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ STRIPE_STAND_IN: 'true', STRIPE_STAND_IN_STATE_FILE: stateFile });
});

afterAll(async () => {
  await stack?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

type User = Awaited<ReturnType<typeof verifiedUser>>;
const paymentInfo = async (user: User, on = stack) => {
  const res = await on.call('GET', '/api/auth/payment-info', { token: user.token });
  expect(res.status).toBe(200);
  return (await json(res)).data;
};
const page = async (url: string, language = 'en') => {
  const res = await fetch(url, { headers: { 'accept-language': language } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
  return res.text();
};
/** Presses a page's button: a form POST, answered with a redirect (not followed). */
const press = async (url: string) => {
  const res = await fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  expect(res.status).toBe(303);
  return res.headers.get('location') ?? '';
};

describe('billing in test mode (development, no Stripe key)', () => {
  it('upgrade → the stand-in’s Checkout page → Pro; portal → cancel → renew; cancel from the dashboard', async () => {
    const user = await verifiedUser(stack);
    expect(await paymentInfo(user)).toMatchObject({ plan: 'free', status: null, testMode: true });

    const upgrade = await stack.call('POST', '/api/auth/upgrade', { token: user.token, body: { interval: 'month' } });
    expect(upgrade.status).toBe(200);
    const { url: checkoutUrl, sessionId } = await json(upgrade);
    expect(checkoutUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/c/pay/${sessionId}$`));

    const checkout = await page(checkoutUrl);
    expect(checkout).toContain('data-testid="test-mode" style="');
    expect(checkout).toMatch(/>Test mode</);
    expect(checkout).toContain('$49.00');
    // The page speaks the reader's language; the amount stays in the checkout's currency.
    expect(await page(checkoutUrl, 'fr-FR,fr')).toMatch(/>Mode test<[\s\S]*49,00\s\$/);

    // Paying sends checkout.session.completed to the service and comes back to the dashboard once it is applied.
    expect(await press(checkoutUrl)).toBe(`http://app.test/dashboard?checkout=success&session_id=${sessionId}`);
    const pro = await paymentInfo(user);
    expect(pro).toMatchObject({ plan: 'pro', status: 'active', price: 49, currency: 'usd', interval: 'month', testMode: true });
    expect(pro.paymentMethods).toEqual([expect.objectContaining({ brand: 'visa', last4: '4242', isDefault: true })]);
    // A paid checkout cannot be paid twice: its page now says so, and pressing again changes nothing.
    expect(await page(checkoutUrl)).toContain('This checkout is already complete.');

    const portal = await stack.call('POST', '/api/auth/manage-billing', { token: user.token });
    expect(portal.status).toBe(200);
    const portalUrl = (await json(portal)).url as string;
    expect(portalUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/p\/session\/bps_/);
    expect(await page(portalUrl)).toMatch(/data-testid="subscription-state">Renews on /);
    // The portal's cancel reaches the service as customer.subscription.updated.
    expect(await press(`${portalUrl}/cancel`)).toMatch(/\/p\/session\/bps_/);
    expect(await paymentInfo(user)).toMatchObject({ plan: 'pro', status: 'cancelling', cancelAtPeriodEnd: true });
    expect(await page(portalUrl)).toMatch(/data-testid="subscription-state">Ends on /);
    await press(`${portalUrl}/renew`);
    expect(await paymentInfo(user)).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });

    // The dashboard's own cancel and reactivate go through the Stripe API of the stand-in.
    const cancel = await stack.call('POST', '/api/auth/cancel-subscription', { token: user.token });
    expect(cancel.status).toBe(200);
    expect(await paymentInfo(user)).toMatchObject({ status: 'cancelling' });
    expect((await stack.call('POST', '/api/auth/reactivate-subscription', { token: user.token })).status).toBe(200);
    expect(await paymentInfo(user)).toMatchObject({ status: 'active' });
  });

  it('keeps subscriptions across a restart (the state file), so a Pro account stays readable', async () => {
    const user = await verifiedUser(stack);
    const { url } = await json(await stack.call('POST', '/api/auth/upgrade', { token: user.token, body: {} }));
    await press(url);
    const restarted = await startStack({ STRIPE_STAND_IN: 'true', STRIPE_STAND_IN_STATE_FILE: stateFile }, stack);
    try {
      expect(await paymentInfo(user, restarted)).toMatchObject({ plan: 'pro', status: 'active', price: 49, testMode: true });
    } finally {
      await restarted.close();
    }
  });
});

describe('billing configuration', () => {
  it('refuses the stand-in at boot when NODE_ENV is production (it grants Pro without payment)', () => {
    const env = {
      DATABASE_URL: 'postgres://x@127.0.0.1/x',
      JWT_SECRET: 'j'.repeat(32),
      API_KEY_ENCRYPTION_KEY: 'a'.repeat(64),
      INTERNAL_TOKEN: 'i'.repeat(16),
      STRIPE_STAND_IN: 'true',
    };
    expect(loadAuthConfig(env).STRIPE_STAND_IN).toBe(true);
    expect(() => loadAuthConfig({ ...env, NODE_ENV: 'production' })).toThrow(/STRIPE_STAND_IN is for development/);
    expect(loadAuthConfig({ ...env, NODE_ENV: 'production', STRIPE_STAND_IN: 'false' }).STRIPE_STAND_IN).toBe(false);
  });

  it('without a key and without the stand-in (production): 503 "Billing is not configured"', async () => {
    const bare = await startStack();
    try {
      const user = await verifiedUser(bare);
      const res = await bare.call('GET', '/api/auth/payment-info', { token: user.token });
      expect(res.status).toBe(503);
      expect(await json(res)).toMatchObject({ code: 'BILLING_NOT_CONFIGURED', message: 'Billing is not configured' });
    } finally {
      await bare.close();
    }
  });

  it('a live key wins over the stand-in, and is not test mode', async () => {
    const live = await startStack({ STRIPE_SECRET_KEY: 'sk_live_example', STRIPE_STAND_IN: 'true' });
    try {
      const user = await verifiedUser(live);
      expect(await paymentInfo(user, live)).toMatchObject({ plan: 'free', testMode: false });
      const upgrade = await live.call('POST', '/api/auth/upgrade', { token: user.token, body: {} });
      // No prices configured for the live key: the stand-in's were not used.
      expect(upgrade.status).toBe(503);
      expect(await json(upgrade)).toMatchObject({ message: 'This plan is not available in the selected currency' });
    } finally {
      await live.close();
    }
  });
});
