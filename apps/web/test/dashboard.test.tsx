import type { UserView } from '@render/contracts';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { niceTicks } from '../src/features/dashboard/bar-chart.tsx';
import {
  DashboardAdminPage,
  DashboardApiKeyPage,
  DashboardBillingPage,
  DashboardPage,
  DashboardUsagePage,
} from '../src/features/dashboard/dashboard.page.tsx';
import { externalNavigation, type PaymentInfo } from '../src/features/dashboard/dashboard-api.ts';
import { createSessionStore } from '../src/lib/session/session.store.ts';
import { expectTexts } from './helpers/expect-texts.ts';
import { fakeGateway, paymentInfoAnswer, signedInAs, testUser, usageAnswer } from './helpers/gateway-fake.ts';
import { renderPage } from './helpers/render-page.tsx';

const KEY = 'rk_live_0123456789abcdefghijklmnopqrstuv';
const NEW_KEY = 'rk_live_ZYXWVUTSRQPONMLKJIHGFEDCBA98765';

const user = (overrides: Partial<UserView> = {}): UserView => testUser({ apiKey: KEY, ...overrides });

const gateway = fakeGateway();

const signedIn = (u: UserView = user()) => signedInAs(u);

describe('API key card', () => {
  it('masks the key, reveals it, copies it with a toast', async () => {
    const u = userEvent.setup();
    renderPage(DashboardApiKeyPage, { path: '/dashboard/api-key', session: signedIn() });
    const shown = await screen.findByTestId('api-key');
    expect(shown.textContent).toMatch(/^rk_live_•+$/);
    expect(shown.textContent).not.toContain('0123456789');

    await u.click(screen.getByRole('button', { name: 'Show the API key' }));
    expect(shown).toHaveTextContent(KEY);
    await u.click(screen.getByRole('button', { name: 'Hide the API key' }));
    expect(shown.textContent).not.toContain(KEY);

    await u.click(screen.getByRole('button', { name: 'Copy key' }));
    expect(await screen.findByText('API key copied to clipboard')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(KEY);
  });

  it('regenerates only after a confirmation that says the old key stops working', async () => {
    const u = userEvent.setup();
    gateway.routes['POST /api/auth/api-key/regenerate'] = () => ({ body: { success: true, apiKey: NEW_KEY } });
    const session = signedIn();
    renderPage(DashboardApiKeyPage, { path: '/dashboard/api-key', session });
    await u.click(await screen.findByRole('button', { name: 'Regenerate' }));
    let dialog = await screen.findByRole('dialog', { name: 'Regenerate the API key?' });
    expect(dialog).toHaveTextContent('the current key stops working at once');
    expect(dialog).toHaveTextContent('This cannot be undone.');

    // Escape closes it and nothing is sent.
    await u.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(gateway.calls.filter((c) => c.path === '/api/auth/api-key/regenerate')).toHaveLength(0);

    await u.click(screen.getByRole('button', { name: 'Regenerate' }));
    dialog = await screen.findByRole('dialog');
    await u.click(within(dialog).getByRole('button', { name: 'Regenerate key' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(gateway.calls.filter((c) => c.method === 'POST' && c.path === '/api/auth/api-key/regenerate')).toHaveLength(1);
    expect(screen.getByTestId('api-key')).toHaveTextContent(NEW_KEY);
    expect(screen.getByTestId('api-key-rotated')).toHaveTextContent('The old key no longer works');
    expect(session.getState().user?.apiKey).toBe(NEW_KEY);
  });
});

describe('usage card', () => {
  it('shows total credits, used, limit and remaining', async () => {
    gateway.routes['GET /api/auth/usage'] = () => usageAnswer();
    renderPage(DashboardPage, { path: '/dashboard', session: signedIn() });
    expect(await screen.findByTestId('usage-total')).toHaveTextContent('50');
    expect(screen.getByTestId('usage-used')).toHaveTextContent('3');
    expect(screen.getByTestId('usage-limit')).toHaveTextContent('50');
    expect(screen.getByTestId('usage-remaining')).toHaveTextContent('47');
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '3');
  });

  it('says Unlimited when the plan has no limit', async () => {
    gateway.routes['GET /api/auth/usage'] = () =>
      usageAnswer({ totalCredits: null, limit: null, remaining: null, used: 1234, plan: 'pro' });
    renderPage(DashboardPage, { path: '/dashboard', session: signedIn(user({ plan: 'pro' })) });
    expect(await screen.findByTestId('usage-total')).toHaveTextContent('Unlimited');
    expect(screen.getByTestId('usage-limit')).toHaveTextContent('Unlimited');
    expect(screen.getByTestId('usage-remaining')).toHaveTextContent('Unlimited');
    expect(screen.getByTestId('usage-used')).toHaveTextContent('1,234');
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('says "Error loading statistics" when a call fails', async () => {
    gateway.routes['GET /api/auth/usage'] = () => ({ status: 401, body: { success: false, message: 'Invalid or expired token' } });
    renderPage(DashboardUsagePage, { path: '/dashboard/usage', session: signedIn() });
    expect(await screen.findByTestId('usage-error')).toHaveTextContent('Error loading statistics');
    expect(await screen.findByTestId('usage-chart-error')).toHaveTextContent('Error loading statistics');
  });

  it('draws renders per day and lists the recent renders', async () => {
    gateway.routes['GET /api/auth/usage'] = () => usageAnswer();
    const days = Array.from({ length: 31 }, (_, i) => ({
      date: new Date(Date.UTC(2026, 9, 25 + i)).toISOString().slice(0, 10),
      renders: i === 30 ? 2 : i === 10 ? 1 : 0,
    }));
    gateway.routes['GET /api/auth/usage/daily'] = () => ({ body: { success: true, data: { since: '2026-10-25T12:00:00.000Z', days } } });
    gateway.routes['GET /api/auth/usage/recent'] = () => ({
      body: {
        success: true,
        data: [
          {
            id: 'a',
            createdAt: '2026-11-24T10:00:00.000Z',
            kind: 'html',
            format: 'png',
            sizeBytes: 2048,
            renderMs: 120,
            status: 'charged',
          },
        ],
      },
    });
    renderPage(DashboardUsagePage, { path: '/dashboard/usage', session: signedIn() });
    const chart = await screen.findByRole('img', { name: /Renders per day/ });
    expect(chart.querySelectorAll('rect')).toHaveLength(31);
    expect(chart.querySelector('[data-value="2"]')).not.toBeNull();
    expect(screen.getByTestId('usage-chart-total')).toHaveTextContent('3 renders in the window');
    const row = await screen.findByTestId('recent-render');
    expectTexts(row, ['HTML', 'png', '2 kB', '120 ms', 'Done']);
  });
});

const payment = paymentInfoAnswer;

const PRO: Partial<PaymentInfo> = {
  plan: 'pro',
  status: 'active',
  price: 49,
  currency: 'usd',
  interval: 'month',
  nextBillingDate: '2026-12-24T12:00:00.000Z',
  paymentMethods: [{ brand: 'visa', last4: '4242', expMonth: 4, expYear: 2029, isDefault: true }],
};

describe('billing card', () => {
  it('free plan: upgrade starts Checkout in dollars for English readers and leaves for its URL', async () => {
    const u = userEvent.setup();
    const go = vi.spyOn(externalNavigation, 'go').mockImplementation(() => undefined);
    gateway.routes['GET /api/auth/payment-info'] = () => payment({});
    gateway.routes['POST /api/auth/upgrade'] = () => ({
      body: { success: true, url: 'https://checkout.stripe.test/c/pay/cs_1', sessionId: 'cs_1' },
    });
    renderPage(DashboardBillingPage, { path: '/dashboard/billing', session: signedIn() });
    expect(await screen.findByTestId('billing-plan')).toHaveTextContent('Free');
    await u.click(screen.getByRole('radio', { name: /Yearly/ }));
    await u.click(screen.getByRole('button', { name: 'Upgrade to Pro' }));
    await waitFor(() => expect(go).toHaveBeenCalledWith('https://checkout.stripe.test/c/pay/cs_1'));
    expect(gateway.calls.find((c) => c.path === '/api/auth/upgrade')?.body).toEqual({ interval: 'year', currency: 'usd' });
  });

  it('active Pro: price, period, next billing date, payment methods; cancel asks first', async () => {
    const u = userEvent.setup();
    gateway.routes['GET /api/auth/payment-info'] = () => payment(PRO);
    gateway.routes['POST /api/auth/cancel-subscription'] = () => ({
      body: { success: true, message: 'Subscription cancelled successfully', accessUntil: PRO.nextBillingDate },
    });
    renderPage(DashboardBillingPage, { path: '/dashboard/billing', session: signedIn(user({ plan: 'pro' })) });
    expect(await screen.findByTestId('billing-price')).toHaveTextContent('$49');
    expect(screen.getByTestId('billing-period')).toHaveTextContent('Monthly');
    expect(screen.getByTestId('billing-next')).toHaveTextContent('December 24, 2026');
    expect(screen.getByTestId('billing-status')).toHaveTextContent('Active');
    const method = screen.getByTestId('payment-method');
    expect(method).toHaveTextContent('•••• 4242');
    expect(method).toHaveTextContent('Expires 04/2029');
    expect(method).toHaveTextContent('Default');

    await u.click(screen.getByRole('button', { name: 'Cancel subscription' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel your Pro subscription?' });
    expect(dialog).toHaveTextContent('You keep Pro until December 24, 2026');
    expect(dialog).toHaveTextContent('cannot be undone');
    gateway.routes['GET /api/auth/payment-info'] = () => payment({ ...PRO, status: 'cancelling', cancelAtPeriodEnd: true });
    await u.click(within(dialog).getByRole('button', { name: 'Cancel subscription' }));
    expect(await screen.findByText('Subscription cancelled successfully')).toBeInTheDocument();
    expect(await screen.findByTestId('billing-cancel-notice')).toHaveTextContent('ends on December 24, 2026');
  });

  it('cancelling: shows the end date and reactivates', async () => {
    const u = userEvent.setup();
    gateway.routes['GET /api/auth/payment-info'] = () => payment({ ...PRO, status: 'cancelling', cancelAtPeriodEnd: true });
    gateway.routes['POST /api/auth/reactivate-subscription'] = () => ({
      body: { success: true, message: 'Subscription reactivated successfully' },
    });
    renderPage(DashboardBillingPage, { path: '/dashboard/billing', session: signedIn(user({ plan: 'pro' })) });
    expect(await screen.findByTestId('billing-status')).toHaveTextContent('Cancelling');
    expect(screen.getByTestId('billing-next')).toHaveTextContent('December 24, 2026');
    gateway.routes['GET /api/auth/payment-info'] = () => payment(PRO);
    await u.click(screen.getByRole('button', { name: 'Reactivate subscription' }));
    expect(await screen.findByText('Subscription reactivated successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('billing-status')).toHaveTextContent('Active'));
  });

  it('failures use the spec texts', async () => {
    gateway.routes['GET /api/auth/payment-info'] = () => ({ status: 403, body: { success: false, message: 'Billing is not configured' } });
    renderPage(DashboardBillingPage, { path: '/dashboard/billing', session: signedIn() });
    expect(await screen.findByTestId('billing-error')).toHaveTextContent('Unable to load payment information');
    expect(await screen.findByText('Failed to load payment information')).toBeInTheDocument();
  });

  it('a failed portal or reactivation says so', async () => {
    const u = userEvent.setup();
    gateway.routes['GET /api/auth/payment-info'] = () => payment({ ...PRO, status: 'cancelling' });
    gateway.routes['POST /api/auth/manage-billing'] = () => ({
      status: 404,
      body: { success: false, message: 'No billing account found. Upgrade to Pro first.' },
    });
    gateway.routes['POST /api/auth/reactivate-subscription'] = () => ({
      status: 400,
      body: { success: false, message: 'Only a cancelled subscription can be reactivated' },
    });
    renderPage(DashboardBillingPage, { path: '/dashboard/billing', session: signedIn(user({ plan: 'pro' })) });
    await u.click(await screen.findByRole('button', { name: 'Manage billing' }));
    expect(await screen.findByText('Failed to open billing portal')).toBeInTheDocument();
    await u.click(screen.getByRole('button', { name: 'Reactivate subscription' }));
    expect(await screen.findByText('Failed to reactivate subscription')).toBeInTheDocument();
  });
});

describe('dashboard access', () => {
  it('sends signed-out visitors to /login', async () => {
    const session = createSessionStore();
    await session.start();
    const { router } = renderPage(DashboardUsagePage, { path: '/dashboard/usage', session });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    // …and back to the page asked for after login.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(router.state.location.search).toEqual({ redirect: '/dashboard/usage' });
  });

  it('shows the admin link only to administrators, and the 403 page to anyone else', async () => {
    renderPage(DashboardAdminPage, { path: '/dashboard/admin', session: signedIn() });
    expect(await screen.findByTestId('error-403')).toHaveTextContent('Access denied');
  });

  it('admin overview shows the platform numbers', async () => {
    gateway.routes['GET /api/admin/stats'] = () => ({
      body: {
        success: true,
        stats: {
          totalUsers: 12,
          newUsers: { last24h: 1, last7d: 4, last30d: 9 },
          totalGenerations: 3456,
          generations: { last24h: 10, last7d: 70, last30d: 300 },
        },
      },
    });
    renderPage(DashboardAdminPage, { path: '/dashboard/admin', session: signedIn(user({ accountType: 'administrator' })) });
    expect(await screen.findByTestId('admin-total-users')).toHaveTextContent('12');
    expect(screen.getByTestId('admin-total-generations')).toHaveTextContent('3,456');
    expect(screen.getByTestId('admin-new-users-last7d')).toHaveTextContent('4');
    expect(screen.getAllByRole('img')).toHaveLength(2);
    expect(screen.getByRole('link', { name: 'Admin' })).toBeInTheDocument();
  });
});

describe('greeting', () => {
  afterEach(() => i18next.changeLanguage('en'));
  const justSignedUp = () => user({ memberSince: new Date(Date.now() - 60_000).toISOString() });

  for (const [lng, welcome, back] of [
    ['en', 'Welcome, Grace Hopper', 'Welcome back, Grace Hopper'],
    ['fr', 'Bienvenue, Grace Hopper', 'Bon retour, Grace Hopper'],
  ] as const) {
    it(`${lng}: welcomes a new account on its first visit, and welcomes it back on the next`, async () => {
      await i18next.changeLanguage(lng);
      const account = justSignedUp();
      renderPage(DashboardPage, { path: '/dashboard', session: signedIn(account) });
      expect(await screen.findByText(welcome)).toBeInTheDocument();
      expect(screen.queryByText(back)).not.toBeInTheDocument();
      cleanup();
      renderPage(DashboardPage, { path: '/dashboard', session: signedIn(account) });
      expect(await screen.findByText(back)).toBeInTheDocument();
      expect(screen.queryByText(welcome)).not.toBeInTheDocument();
    });
  }

  it('welcomes back an older account seen for the first time in this browser', async () => {
    renderPage(DashboardPage, { path: '/dashboard', session: signedIn(user({ memberSince: '2026-03-14T10:00:00.000Z' })) });
    expect(await screen.findByText('Welcome back, Grace Hopper')).toBeInTheDocument();
  });
});

describe('chart ticks', () => {
  it('are whole numbers from zero past the maximum', () => {
    expect(niceTicks(0)).toEqual([0, 1]);
    expect(niceTicks(3)).toEqual([0, 1, 2, 3]);
    expect(niceTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(niceTicks(130)).toEqual([0, 50, 100, 150]);
  });
});
