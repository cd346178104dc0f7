import { randomBytes } from 'node:crypto';
import type { UserView } from '@render/contracts';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { seriousAxeViolations } from './helpers/axe.ts';
import { baseUrl, closeBrowser, DESKTOP, openPage, overflowsHorizontally, PHONE, screenshot, waitForApp } from './helpers/browser.ts';
import { mailedCode } from './helpers/mail.ts';

afterAll(closeBrowser);

const PASSWORD = 'Dashb0ard-e2e';

const api = (path: string, init: { method?: string; body?: unknown; token?: string; apiKey?: string } = {}) =>
  fetch(`${baseUrl()}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.apiKey ? { 'x-api-key': init.apiKey } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });

/** A new account through the gateway: signup, then the mailed code's userId (not verified yet). */
async function signup(name: string) {
  const email = `dash-${randomBytes(4).toString('hex')}@example.com`;
  const res = await api('/api/auth/signup', {
    body: {
      name,
      email,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      company: 'Analytical Engines',
      usageSource: 'business',
      referralSource: 'friend',
      plannedServices: ['html2img'],
      acceptTerms: true,
    },
  });
  expect(res.status).toBe(201);
  const { userId } = (await res.json()) as { userId: string };
  return { email, userId };
}

/** A verified, signed-in account: its token and user (with the API key). */
async function verifiedAccount(name: string) {
  const { email, userId } = await signup(name);
  const res = await api('/api/auth/verify', { body: { userId, verificationCode: await mailedCode(email) } });
  expect(res.status).toBe(200);
  const { token, user } = (await res.json()) as { token: string; user: UserView };
  return { email, token, user };
}

/** A page whose storage already holds the session (as the app stores it: `{ value, expiresAt }`). */
async function openSignedIn(
  account: { token: string; user: UserView },
  options: { language?: 'en' | 'fr'; viewport?: { width: number; height: number } } = {},
) {
  const tracked = await openPage(options);
  const expiresAt = Date.now() + 24 * 60 * 60 * 1000;
  await tracked.context.addInitScript(
    ([token, user, until]) => {
      if (localStorage.getItem('token')) return;
      localStorage.setItem('token', JSON.stringify({ value: token, expiresAt: until }));
      localStorage.setItem('user', JSON.stringify({ value: user, expiresAt: until }));
    },
    [account.token, account.user, expiresAt] as const,
  );
  return tracked;
}

const render = (apiKey: string, text: string) =>
  api('/api/html-to-img/convert', {
    apiKey,
    body: { html: `<h1 style="font:32px sans-serif">${text}</h1>`, width: 320, height: 120, format: 'png' },
  });

async function expectAxeClean(page: Page, label: string) {
  expect(await seriousAxeViolations(page), `axe serious/critical violations on ${label}`).toEqual([]);
}

const dbCounts = async () =>
  (await (await fetch(`${inject('controlUrl')}/db/counts`)).json()) as Record<
    'users' | 'generations',
    { total: number; last24h: number; last7d: number; last30d: number }
  >;

describe('dashboard', () => {
  it('signed-out visitors go to /login and come back to the page they asked for', async () => {
    const account = await verifiedAccount('Returning Visitor');
    const { page, context } = await openPage();
    await page.goto(`${baseUrl()}/dashboard/billing`);
    await page.waitForURL(`${baseUrl()}/login?redirect=%2Fdashboard%2Fbilling`);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Login' }).last().click();
    await page.waitForURL(`${baseUrl()}/dashboard/billing`);
    await page.getByTestId('billing-plan').waitFor();
    await context.close();
  });

  it('signup → verify → copy the key → render with it → usage counts it → regenerate → the old key gets 401', async () => {
    const { email, userId } = await signup('Ada Lovelace');
    const { page, context, errors } = await openPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() });
    await page.goto(`${baseUrl()}/verify?userId=${userId}&email=${encodeURIComponent(email)}`);
    await page.getByLabel('Verification code').fill(await mailedCode(email));
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await page.waitForURL(`${baseUrl()}/dashboard`);

    // Overview: profile, usage and key cards; the left navigation.
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Dashboard' });
    for (const name of ['Overview', 'API key', 'Usage', 'Billing', 'Templates']) await nav.getByRole('link', { name }).waitFor();
    expect(await nav.getByRole('link', { name: 'Admin' }).count()).toBe(0);
    await expect.poll(() => page.getByTestId('profile-email').textContent()).toBe(email);
    expect(await page.getByTestId('profile-account-type').textContent()).toBe('Regular');
    expect(await page.getByTestId('profile-verification').textContent()).toBe('Verified');
    await expect.poll(() => page.getByTestId('usage-used').textContent()).toBe('0');
    expect(await page.getByTestId('usage-limit').textContent()).toBe('50');

    // The key is masked until revealed; Copy puts the whole key on the clipboard and says so.
    const shown = page.getByTestId('api-key');
    expect(await shown.textContent()).toMatch(/^rk_live_•+$/);
    await page.getByRole('button', { name: 'Copy key' }).click();
    await page.getByText('API key copied to clipboard').waitFor();
    const key = await page.evaluate(() => navigator.clipboard.readText());
    expect(key).toMatch(/^rk_live_\S{20,}$/);
    await page.getByRole('button', { name: 'Show the API key' }).click();
    expect(await shown.textContent()).toBe(key);

    // A render with that key, from outside the browser, is counted in the numbers, the chart and the list.
    const made = await render(key, 'Counted');
    expect(made.status).toBe(200);
    expect(made.headers.get('content-type')).toBe('image/png');
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Usage' }).click();
    await page.waitForURL(`${baseUrl()}/dashboard/usage`);
    await expect.poll(() => page.getByTestId('usage-used').textContent()).toBe('1');
    expect(await page.getByTestId('usage-remaining').textContent()).toBe('49');
    expect(await page.getByTestId('usage-chart-total').textContent()).toBe('1 render in the window');
    const chart = page.getByRole('img', { name: /Renders per day/ });
    expect(await chart.locator('rect').count()).toBe(31);
    expect(await chart.locator('g[data-value="1"]').count()).toBe(1);
    const row = page.getByTestId('recent-render').first();
    await row.waitFor();
    expect(await row.textContent()).toMatch(/HTML.*png/);
    await expectAxeClean(page, '/dashboard/usage');
    await screenshot(page, 'en-desktop-dashboard-usage-after-render');

    // Regenerate: asks first, says the old key stops at once; afterwards the old key is refused.
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'API key' }).click();
    await page.getByRole('button', { name: 'Regenerate' }).click();
    const dialog = page.getByRole('dialog', { name: 'Regenerate the API key?' });
    await dialog.getByText('the current key stops working at once').waitFor();
    await expectAxeClean(page, 'regenerate dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Regenerate' }).click();
    await dialog.getByRole('button', { name: 'Regenerate key' }).click();
    await page.getByTestId('api-key-rotated').getByText('The old key no longer works').waitFor();
    const newKey = (await shown.textContent()) ?? '';
    expect(newKey).toMatch(/^rk_live_/);
    expect(newKey).not.toBe(key);

    const old = await render(key, 'Refused');
    expect(old.status).toBe(401);
    expect(((await old.json()) as { message: string }).message).toBe('Invalid API key');
    expect((await render(newKey, 'Accepted')).status).toBe(200);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('upgrade through the test-mode Checkout page → Pro → portal cancel and renew → cancel shows the end date → reactivate', async () => {
    const account = await verifiedAccount('Grace Hopper');
    const { page, context, errors } = await openSignedIn(account);
    // The ways to the upgrade a signed-in Free account has: the overview's Upgrade, and the pricing page's Go Pro.
    await page.goto(`${baseUrl()}/dashboard`);
    await page.getByTestId('dashboard-upgrade').getByRole('link', { name: 'Upgrade to Pro' }).click();
    await page.waitForURL(/\/dashboard\/billing$/);
    await page.goto(`${baseUrl()}/pricing`);
    // Prerendered for visitors: the signed-in way to Pro is there once the app is live.
    await waitForApp(page);
    await page.getByTestId('plan-pro-cta').click();
    await page.waitForURL(/\/dashboard\/billing$/);
    await expect.poll(() => page.getByTestId('billing-plan').textContent()).toBe('Free');
    // The stack bills in test mode (the Stripe stand-in, as under ./scripts/dev): the card says no real money moves.
    expect(await page.getByTestId('billing-test-mode').getByText('Test mode').isVisible()).toBe(true);
    await expectAxeClean(page, '/dashboard/billing (free)');
    await page.getByRole('button', { name: 'Upgrade to Pro' }).click();
    // The stand-in's Checkout page, marked as test mode; paying sends the signed webhook and comes back.
    await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/c\/pay\/cs_test_/);
    expect(await page.getByTestId('test-mode').textContent()).toBe('Test mode');
    expect(await page.getByTestId('amount').textContent()).toContain('$49.00');
    await page.getByRole('button', { name: 'Subscribe (test mode)' }).click();
    await page.waitForURL(/\/dashboard\?checkout=success&session_id=cs_test_/);
    await page.getByText('Payment received. Welcome to Pro!').waitFor();
    await expect.poll(() => page.getByTestId('usage-limit').textContent()).toBe('Unlimited');
    expect(await page.getByTestId('usage-total').textContent()).toBe('Unlimited');
    expect(await page.getByTestId('profile-plan').textContent()).toBe('Pro');
    await expect.poll(() => page.getByTestId('dashboard-upgrade').count()).toBe(0);
    await screenshot(page, 'en-desktop-dashboard-overview-pro');

    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Billing' }).click();
    await expect.poll(() => page.getByTestId('billing-plan').textContent()).toBe('Pro');
    expect(await page.getByTestId('billing-status').textContent()).toBe('Active');
    expect(await page.getByTestId('billing-price').textContent()).toBe('$49');
    expect(await page.getByTestId('billing-period').textContent()).toBe('Monthly');
    const method = page.getByTestId('payment-method');
    expect(await method.textContent()).toMatch(/visa.*•••• 4242.*Expires 12\/\d{4}.*Default/);
    await expectAxeClean(page, '/dashboard/billing (pro)');
    await screenshot(page, 'en-desktop-dashboard-billing-pro');

    // Manage billing: the stand-in's portal cancels (and renews), and the app learns it by webhook.
    await page.getByRole('button', { name: 'Manage billing' }).click();
    await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/p\/session\/bps_/);
    await page.getByRole('button', { name: 'Cancel plan' }).click();
    await page
      .getByTestId('subscription-state')
      .getByText(/^Ends on /)
      .waitFor();
    await page.getByRole('button', { name: 'Renew plan' }).click();
    await page
      .getByTestId('subscription-state')
      .getByText(/^Renews on /)
      .waitFor();
    await page.getByRole('link', { name: 'Return to Render API' }).click();
    await page.waitForURL(/\/dashboard$/);
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Billing' }).click();
    await expect.poll(() => page.getByTestId('billing-status').textContent()).toBe('Active');

    const periodEnd = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' }).format(new Date(Date.now() + 30 * 24 * 60 * 60 * 1000));
    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel your Pro subscription?' });
    await dialog.getByText(`You keep Pro until ${periodEnd}`).waitFor();
    await dialog.getByRole('button', { name: 'Cancel subscription' }).click();
    await page.getByText('Subscription cancelled successfully').waitFor();
    await expect.poll(() => page.getByTestId('billing-status').textContent()).toBe('Cancelling');
    expect(await page.getByTestId('billing-cancel-notice').textContent()).toContain(`ends on ${periodEnd}`);
    await screenshot(page, 'en-desktop-dashboard-billing-cancelling');

    await page.getByRole('button', { name: 'Reactivate subscription' }).click();
    await page.getByText('Subscription reactivated successfully').waitFor();
    await expect.poll(() => page.getByTestId('billing-status').textContent()).toBe('Active');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('French readers upgrade in euros, then cancel on a phone', async () => {
    const account = await verifiedAccount('Marie Curie');
    const { page, context } = await openSignedIn(account, { language: 'fr' });
    const upgrade = page.waitForRequest((r) => r.url().endsWith('/api/auth/upgrade'));
    await page.goto(`${baseUrl()}/dashboard/billing`);
    await expect.poll(() => page.getByTestId('billing-plan').textContent()).toBe('Gratuit');
    await page.getByRole('button', { name: 'Passer à Pro' }).click();
    expect((await upgrade).postDataJSON()).toEqual({ interval: 'month', currency: 'eur' });
    await page.waitForURL(/\/c\/pay\/cs_test_/);
    expect(await page.getByTestId('test-mode').textContent()).toBe('Mode test');
    expect((await page.getByTestId('amount').textContent())?.replace(/\s/g, ' ')).toContain('49,00 €');
    await page.getByRole('button', { name: "S'abonner (mode test)" }).click();
    await page.waitForURL(/\/dashboard\?checkout=success/);

    // Pro in euros, then cancelled, on a phone.
    await page.setViewportSize(PHONE);
    await page.goto(`${baseUrl()}/dashboard/billing`);
    await expect.poll(() => page.getByTestId('billing-status').textContent()).toBe('Actif');
    expect((await page.getByTestId('billing-price').textContent())?.replace(/\s/g, ' ')).toBe('49 €');
    expect(await page.getByTestId('billing-period').textContent()).toBe('Mensuelle');
    await page.getByRole('button', { name: "Résilier l'abonnement" }).click();
    await page.getByRole('dialog').getByRole('button', { name: "Résilier l'abonnement" }).click();
    await page.getByText('Abonnement annulé avec succès').waitFor();
    await expect.poll(() => page.getByTestId('billing-status').textContent()).toBe('Résiliation en cours');
    expect(await page.getByTestId('billing-cancel-notice').textContent()).toMatch(/prend fin le \d{1,2} \S+ \d{4}/);
    expect(await overflowsHorizontally(page), 'billing scrolls sideways at 390 px').toBe(false);
    await page.waitForTimeout(300); // the Reactivate button's colour transition
    await screenshot(page, 'fr-phone-dashboard-billing-cancelling');
    await context.close();
  });

  it("the admin overview shows the database's counts; a regular user gets 403", async () => {
    const regular = await verifiedAccount('Regular Person');
    const { page: userPage, context: userContext } = await openSignedIn(regular);
    await userPage.goto(`${baseUrl()}/dashboard/admin`);
    await userPage.getByTestId('error-403').getByRole('heading', { name: 'Access denied' }).waitFor();
    expect((await api('/api/admin/stats', { token: regular.token })).status).toBe(403);
    await userContext.close();

    const login = await api('/api/auth/login', { body: { email: 'root@example.com', password: 'Admin-Passw0rd' } });
    expect(login.status).toBe(200);
    const admin = (await login.json()) as { token: string; user: UserView };
    expect(admin.user.accountType).toBe('administrator');
    const { page, context, errors } = await openSignedIn(admin);
    await page.goto(`${baseUrl()}/dashboard`);
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Admin' }).click();
    await page.getByTestId('admin-overview').waitFor();
    const counts = await dbCounts();
    const number = async (id: string) => Number((await page.getByTestId(id).textContent())?.replace(/[^\d]/g, ''));
    expect(await number('admin-total-users')).toBe(counts.users.total);
    expect(await number('admin-total-generations')).toBe(counts.generations.total);
    for (const w of ['last24h', 'last7d', 'last30d'] as const) {
      expect(await number(`admin-generations-${w}`), `generations ${w}`).toBe(counts.generations[w]);
      expect(await number(`admin-new-users-${w}`), `new users ${w}`).toBe(counts.users[w]);
    }
    expect(counts.users.total).toBeGreaterThan(1);
    expect(await page.getByRole('img', { name: /Activity|New users/ }).count()).toBe(2);
    await expectAxeClean(page, '/dashboard/admin');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('every dashboard page passes axe and fits 1280 and 390 px, in English and French (screenshots)', async () => {
    const account = await verifiedAccount('Émilie du Châtelet');
    for (const text of ['One', 'Two']) expect((await render(account.user.apiKey!, text)).status).toBe(200);
    const login = await api('/api/auth/login', { body: { email: 'root@example.com', password: 'Admin-Passw0rd' } });
    const admin = (await login.json()) as { token: string; user: UserView };
    const pages = [
      { path: '/dashboard', name: 'overview', ready: 'usage-used' },
      { path: '/dashboard/api-key', name: 'api-key', ready: 'api-key' },
      { path: '/dashboard/usage', name: 'usage', ready: 'usage-chart-total' },
      { path: '/dashboard/billing', name: 'billing', ready: 'billing-plan' },
      { path: '/dashboard/admin', name: 'admin', ready: 'admin-total-users', asAdmin: true },
    ];
    for (const language of ['en', 'fr'] as const) {
      for (const [device, viewport] of [
        ['desktop', DESKTOP],
        ['phone', PHONE],
      ] as const) {
        const who = await openSignedIn(account, { language, viewport });
        const asAdmin = await openSignedIn(admin, { language, viewport });
        for (const target of pages) {
          const { page, errors } = target.asAdmin ? asAdmin : who;
          await page.goto(`${baseUrl()}${target.path}`);
          await page.getByTestId(target.ready).first().waitFor();
          await page.waitForLoadState('networkidle');
          if (device === 'desktop') await expectAxeClean(page, `${language} ${target.path}`);
          // The signed-in header (a long name, French labels) must fit 1280 px as well as a phone.
          expect(await overflowsHorizontally(page), `${language} ${target.path} scrolls sideways on ${device}`).toBe(false);
          await screenshot(page, `${language}-${device}-dashboard-${target.name}`);
          expect(errors, `${language} ${target.path}`).toEqual([]);
        }
        await who.context.close();
        await asAdmin.context.close();
      }
    }
  });
});

for (const language of ['en', 'fr'] as const) {
  for (const [device, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`renders in the background from a playground with a webhook, then shows the image (${language}, ${device})`, async () => {
      const account = await verifiedAccount('Webhook Playground');
      const { page, context, errors } = await openSignedIn(account, { language, viewport });
      await page.goto(`${baseUrl()}/html-to-image`);
      await page.getByTestId('generate-button').waitFor();
      const webhook = page.locator('[name="webhook"]');
      // Without the visitor's credentials on the request there is no account to sign deliveries for.
      expect(await webhook.isDisabled()).toBe(true);
      await page.locator('[name="useApiKey"]').check();
      // The local test site (allow-listed): the gateway resolves and checks a webhook's address at submission.
      const hookUrl = `${inject('siteUrl')}render-done`;
      await webhook.fill(hookUrl);
      await page.getByTestId('generate-button').click();
      await page.getByTestId('async-result').waitFor({ timeout: 30_000 });
      expect(await page.getByTestId('async-id').textContent()).toMatch(/\S{8,}/);
      // Polled until done, then the kept image is fetched with the same credentials.
      await page.getByTestId('result-image').waitFor({ timeout: 45_000 });
      expect(await page.getByTestId('result-image').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
      expect(await page.getByTestId('snippet-curl').textContent()).toContain(`"webhook":"${hookUrl}"`);
      expect(await overflowsHorizontally(page)).toBe(false);
      await expectAxeClean(page, `playground webhook ${language} ${device}`);
      await screenshot(page, `${language}-${device}-playground-webhook`);
      // Charged once, like any render.
      const usage = (await (await api('/api/auth/usage', { token: account.token })).json()) as { data: { used: number } };
      expect(usage.data.used).toBe(1);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
}
