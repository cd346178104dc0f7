import { FREE_PLAN_CREDITS, type LimitsResponse } from '@render/contracts';
import { screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { DashboardBillingPage } from '../src/features/dashboard/dashboard.page.tsx';
import { LimitsDoc } from '../src/features/docs/limits-doc.tsx';
import { LandingPage } from '../src/features/landing/landing.page.tsx';
import { FREE_CREDITS_PER_30_DAYS } from '../src/features/pricing/plans.ts';
import { PricingPage } from '../src/features/pricing/pricing.page.tsx';
import { expectTexts } from './helpers/expect-texts.ts';
import { fakeGateway, paymentInfoAnswer, signedInAs } from './helpers/gateway-fake.ts';
import { renderPage } from './helpers/render-page.tsx';

// The launch period is one setting (the account service's LAUNCH_UNLIMITED), which the pages learn from
// GET /api/limits: they say "unlimited" while it is on, and never while it is off or unknown.

const gateway = fakeGateway();

const limits = (launchPeriod: boolean): LimitsResponse => ({
  success: true,
  data: {
    launchPeriod,
    anonymous: {
      perMinute: 20,
      perDay: 40,
      maxInFlight: 2,
      maxPixels: 6_000_000,
      unitPixels: 1_048_576,
      formatWeights: { png: 1, avif: 4 },
    },
    plans: {
      free: { credits: launchPeriod ? null : FREE_PLAN_CREDITS, windowDays: 30, maxInFlight: 4 },
      pro: { credits: null, maxInFlight: 32 },
    },
  },
});

afterEach(async () => {
  await i18next.changeLanguage('en');
});

const waitForLimits = () => waitFor(() => expect(gateway.calls.some((c) => c.path === '/api/limits')).toBe(true));

describe('launch period copy', () => {
  it('while on: the landing hero, the plans and the Free plan say unlimited', async () => {
    gateway.routes['GET /api/limits'] = () => ({ body: limits(true) });
    renderPage(LandingPage);
    expect(await screen.findByTestId('hero-launch-note')).toHaveTextContent('Launch period: everything is free with unlimited usage.');
    expect(await screen.findByTestId('launch-note')).toHaveTextContent('Launch period: everything is free and unlimited');
    expect(screen.getByTestId('plan-free')).toHaveTextContent('Unlimited credits during the launch period');
    expect(screen.getByTestId('plan-free')).not.toHaveTextContent('50 credits');
  });

  it('while off: no launch note anywhere, and the Free plan’s credits', async () => {
    gateway.routes['GET /api/limits'] = () => ({ body: limits(false) });
    renderPage(PricingPage);
    await waitForLimits();
    expect(await screen.findByText('50 credits per rolling 30 days')).toBeInTheDocument();
    expect(screen.queryByTestId('launch-note')).not.toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(/unlimited usage|free and unlimited/i);
  });

  it('while unknown (the gateway cannot say): claims nothing', async () => {
    gateway.routes['GET /api/limits'] = () => ({ status: 503, body: { success: false, code: 'SERVICE_UNAVAILABLE', message: 'down' } });
    renderPage(LandingPage);
    await waitForLimits();
    expect(screen.getByTestId('plan-free')).toHaveTextContent('50 credits per rolling 30 days');
    expect(screen.queryByTestId('hero-launch-note')).not.toBeInTheDocument();
    expect(screen.queryByTestId('launch-note')).not.toBeInTheDocument();
  });

  it('in French as well', async () => {
    await i18next.changeLanguage('fr');
    gateway.routes['GET /api/limits'] = () => ({ body: limits(true) });
    renderPage(LandingPage);
    expect(await screen.findByTestId('hero-launch-note')).toHaveTextContent('Période de lancement');
    expect(screen.getByTestId('plan-free')).toHaveTextContent('Crédits illimités pendant la période de lancement');
  });

  it('keeps the page’s fallback equal to the contracts’ Free credits', () => {
    expect(FREE_CREDITS_PER_30_DAYS).toBe(FREE_PLAN_CREDITS);
  });
});

describe('dashboard billing', () => {
  const freePlan = paymentInfoAnswer();

  it('shows the Free plan’s credits as the gateway says: unlimited during the launch period, 50 otherwise', async () => {
    gateway.routes['GET /api/auth/payment-info'] = () => freePlan;
    gateway.routes['GET /api/limits'] = () => ({ body: limits(true) });
    const launch = renderPage(DashboardBillingPage, { path: '/dashboard/billing', session: signedInAs() });
    await waitFor(() => expect(screen.getByTestId('billing-credits')).toHaveTextContent('Unlimited'));
    launch.unmount();
    gateway.routes['GET /api/limits'] = () => ({ body: limits(false) });
    renderPage(DashboardBillingPage, { path: '/dashboard/billing', session: signedInAs() });
    await waitFor(() => expect(screen.getByTestId('billing-credits')).toHaveTextContent('50'));
    expect(screen.getByTestId('billing-credits')).not.toHaveTextContent('Unlimited');
  });
});

describe('docs: limits you can see', () => {
  const limitsDoc = (launchPeriod: boolean) => {
    gateway.routes['GET /api/limits'] = () => ({ body: limits(launchPeriod) });
    renderPage(LimitsDoc);
    return screen.findByTestId('docs-limits');
  };

  it('gives the numbers in force and the headers', async () => {
    const section = await limitsDoc(false);
    await waitFor(() => expect(section).toHaveTextContent('each address may use 20 units a minute and 40 a day, with 2 renders at once'));
    expectTexts(section, [
      'Images over 6,000,000 pixels need an API key',
      'Free accounts: 50 credits per rolling 30 days, 4 renders at once',
      'RateLimit-Policy and RateLimit',
      'Retry-After on every 429 and 503',
    ]);
  });

  it('says so during the launch period, in French', async () => {
    await i18next.changeLanguage('fr');
    const section = await limitsDoc(true);
    await waitFor(() => expect(section).toHaveTextContent('crédits illimités pendant la période de lancement'));
    expect(section).toHaveTextContent('6 000 000 pixels');
    expect(section).toHaveTextContent('Retry-After sur chaque 429 et 503');
  });
});
