import type { UserView } from '@render/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { DashboardBillingPage, DashboardPage } from '../src/features/dashboard/dashboard.page.tsx';
import { PricingPage } from '../src/features/pricing/pricing.page.tsx';
import { fakeGateway, paymentInfoAnswer, signedInAs, testUser, usageAnswer } from './helpers/gateway-fake.ts';
import { renderPage } from './helpers/render-page.tsx';

// Issue 33 §3: a signed-in user always has a way to Pro, and a billing failure says what to do, in en and fr.
const gateway = fakeGateway();

afterEach(async () => {
  await i18next.changeLanguage('en');
});

const freeInfo = paymentInfoAnswer;

/** What the account service answers without a Stripe key (a problem body with its code). */
const notConfigured = () => ({
  status: 503,
  body: {
    success: false,
    code: 'BILLING_NOT_CONFIGURED',
    message: 'Billing is not configured',
    title: 'Billing not configured',
    status: 503,
  },
});

const linkOf = (testId: string) => screen.findByTestId(testId).then((el) => el.getAttribute('href'));

describe('pricing page', () => {
  it('signed out: both plans lead to signup', async () => {
    renderPage(PricingPage, { path: '/pricing' });
    expect(await linkOf('plan-pro-cta')).toBe('/signup');
    expect(await linkOf('plan-free-cta')).toBe('/signup');
  });

  it('signed in on Free: "Go Pro" leads to the upgrade, Free to the dashboard', async () => {
    renderPage(PricingPage, { path: '/pricing', session: signedInAs(testUser()) });
    const pro = await screen.findByTestId('plan-pro-cta');
    expect(pro).toHaveTextContent('Go Pro');
    expect(pro.getAttribute('href')).toBe('/dashboard/billing');
    expect(screen.getByTestId('plan-free-cta')).toHaveTextContent('Open your dashboard');
    expect(screen.getByTestId('plan-free-cta').getAttribute('href')).toBe('/dashboard');
  });

  it('signed in on Pro: manage the subscription instead, in French too', async () => {
    await i18next.changeLanguage('fr');
    renderPage(PricingPage, { path: '/pricing', session: signedInAs(testUser({ plan: 'pro' })) });
    const pro = await screen.findByTestId('plan-pro-cta');
    expect(pro).toHaveTextContent('Gérer votre abonnement');
    expect(pro.getAttribute('href')).toBe('/dashboard/billing');
  });
});

describe('dashboard overview', () => {
  const overview = (user: UserView) => {
    gateway.routes['GET /api/auth/usage'] = () => usageAnswer({ plan: user.plan });
    return renderPage(DashboardPage, { path: '/dashboard', session: signedInAs(user) });
  };

  it('offers Upgrade on the Free plan, which opens the billing page', async () => {
    const u = userEvent.setup();
    const { router } = overview(testUser());
    const banner = await screen.findByTestId('dashboard-upgrade');
    expect(banner).toHaveTextContent('You are on the Free plan');
    await u.click(within(banner).getByRole('link', { name: 'Upgrade to Pro' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/billing'));
  });

  it('says nothing of upgrading on Pro', async () => {
    overview(testUser({ plan: 'pro' }));
    await screen.findByTestId('profile-plan');
    expect(screen.queryByTestId('dashboard-upgrade')).not.toBeInTheDocument();
  });
});

describe('billing page errors, by code', () => {
  it('503 BILLING_NOT_CONFIGURED: says payments are not set up and who can fix it', async () => {
    gateway.routes['GET /api/auth/payment-info'] = notConfigured;
    renderPage(DashboardBillingPage, { path: '/dashboard/billing', session: signedInAs() });
    const note = await screen.findByTestId('billing-error');
    expect(note).toHaveTextContent('Unable to load payment information');
    expect(screen.getByTestId('billing-error-detail')).toHaveTextContent(
      'Payments are not set up on this server yet, so upgrading is not possible here. Your current plan keeps working.',
    );
    expect(screen.getByTestId('billing-error-detail')).toHaveTextContent('STRIPE_SECRET_KEY');
  });

  it('in French', async () => {
    await i18next.changeLanguage('fr');
    gateway.routes['GET /api/auth/payment-info'] = notConfigured;
    renderPage(DashboardBillingPage, { path: '/dashboard/billing', session: signedInAs() });
    expect(await screen.findByTestId('billing-error-detail')).toHaveTextContent(
      'Les paiements ne sont pas encore configurés sur ce serveur',
    );
  });

  it('an outage says to come back later; an unknown code keeps the server’s message', async () => {
    gateway.routes['GET /api/auth/payment-info'] = () => ({
      status: 503,
      body: { success: false, code: 'SERVICE_UNAVAILABLE', message: 'The billing provider is unavailable. Please try again later.' },
    });
    const first = renderPage(DashboardBillingPage, { path: '/dashboard/billing', session: signedInAs() });
    // A 503 outage is asked again twice (about 3 s) before the page gives up.
    expect(await screen.findByTestId('billing-error-detail', {}, { timeout: 8000 })).toHaveTextContent(
      'The payment service cannot be reached right now.',
    );
    first.unmount();
    gateway.routes['GET /api/auth/payment-info'] = () => ({
      status: 418,
      body: { success: false, code: 'TEAPOT', message: 'Short and stout' },
    });
    renderPage(DashboardBillingPage, { path: '/dashboard/billing', session: signedInAs() });
    expect(await screen.findByTestId('billing-error-detail')).toHaveTextContent('Short and stout');
  });

  it('a refused upgrade explains itself in the toast', async () => {
    const u = userEvent.setup();
    gateway.routes['GET /api/auth/payment-info'] = () => freeInfo();
    gateway.routes['POST /api/auth/upgrade'] = notConfigured;
    renderPage(DashboardBillingPage, { path: '/dashboard/billing', session: signedInAs() });
    await u.click(await screen.findByRole('button', { name: 'Upgrade to Pro' }));
    expect(await screen.findByText('Could not start the upgrade')).toBeInTheDocument();
    expect(await screen.findByText(/Payments are not set up on this server yet/)).toBeInTheDocument();
  });
});

describe('test mode', () => {
  it('billing in test mode carries a visible badge; real billing does not', async () => {
    gateway.routes['GET /api/auth/payment-info'] = () => freeInfo({ testMode: true });
    const first = renderPage(DashboardBillingPage, { path: '/dashboard/billing', session: signedInAs() });
    expect(await screen.findByTestId('billing-test-mode')).toHaveTextContent('Test mode');
    first.unmount();
    gateway.routes['GET /api/auth/payment-info'] = () => freeInfo({ testMode: false });
    renderPage(DashboardBillingPage, { path: '/dashboard/billing', session: signedInAs() });
    await screen.findByTestId('billing-plan');
    expect(screen.queryByTestId('billing-test-mode')).not.toBeInTheDocument();
  });

  it('in French', async () => {
    await i18next.changeLanguage('fr');
    gateway.routes['GET /api/auth/payment-info'] = () => freeInfo({ testMode: true });
    renderPage(DashboardBillingPage, { path: '/dashboard/billing', session: signedInAs() });
    expect(await screen.findByTestId('billing-test-mode')).toHaveTextContent('Mode test');
  });
});
