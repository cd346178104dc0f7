import { randomBytes } from 'node:crypto';
import type { UserView } from '@render/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations } from './helpers/axe.ts';
import { baseUrl, closeBrowser, openPage, screenshot } from './helpers/browser.ts';
import { mailedCode } from './helpers/mail.ts';

// Named API keys (issue 30 §6) in the built app over the full stack: created from the dashboard (the secret
// shown once), rendered with from outside the browser, seen as used, usage filtered by it, revoked after a
// confirmation and refused at once.

afterAll(closeBrowser);

const PASSWORD = 'NamedK3ys-e2e';

const api = (path: string, init: { body?: unknown; token?: string; apiKey?: string } = {}) =>
  fetch(`${baseUrl()}${path}`, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.apiKey ? { 'x-api-key': init.apiKey } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });

async function verifiedAccount() {
  const email = `keys-${randomBytes(4).toString('hex')}@example.com`;
  const signup = await api('/api/auth/signup', {
    body: {
      name: 'Key Keeper',
      email,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      company: '',
      usageSource: 'business',
      referralSource: 'friend',
      plannedServices: ['html2img'],
      acceptTerms: true,
    },
  });
  expect(signup.status).toBe(201);
  const { userId } = (await signup.json()) as { userId: string };
  const verify = await api('/api/auth/verify', { body: { userId, verificationCode: await mailedCode(email) } });
  expect(verify.status).toBe(200);
  return (await verify.json()) as { token: string; user: UserView };
}

const render = (apiKey: string) =>
  api('/api/html-to-img/convert', { apiKey, body: { html: '<h1>named</h1>', width: 200, height: 80, format: 'png' } });

describe('named API keys in the dashboard', () => {
  it('create → secret shown once → render with it → last used → usage by key → revoke → 401', async () => {
    const account = await verifiedAccount();
    const { page, context, errors } = await openPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() });
    const expiresAt = Date.now() + 24 * 60 * 60 * 1000;
    await context.addInitScript(
      ([token, user, until]) => {
        if (localStorage.getItem('token')) return;
        localStorage.setItem('token', JSON.stringify({ value: token, expiresAt: until }));
        localStorage.setItem('user', JSON.stringify({ value: user, expiresAt: until }));
      },
      [account.token, account.user, expiresAt] as const,
    );
    await page.goto(`${baseUrl()}/dashboard/api-key`);
    const card = page.getByTestId('named-keys-card');
    await card.getByText('No named keys yet.').waitFor();

    // Create: the form checks the name as the server does, then the secret is shown this once, with a copy button.
    await card.getByRole('button', { name: 'Create key' }).click();
    await card.getByText('Key name is required').waitFor();
    await card.getByLabel('Name').fill('E2E renders');
    await card.getByLabel('Scope').selectOption('render');
    await card.getByRole('button', { name: 'Create key' }).click();
    const secret = (await card.getByTestId('new-key-value').textContent()) ?? '';
    expect(secret).toMatch(/^rk_live_\S{20,}$/);
    await card.getByRole('button', { name: 'Copy secret' }).click();
    await page.getByText('Secret copied to clipboard').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    const item = card.getByTestId('named-key');
    await item.getByText('Render only').waitFor();
    expect(await item.getByTestId('named-key-last-used').textContent()).toBe('Not used yet');
    expect(await seriousAxeViolations(page), 'axe on the keys panel').toEqual([]);

    // Used from outside the browser: renders; its scope refuses an account call; the list shows its last use.
    expect((await render(secret)).status).toBe(200);
    const usage = await api('/api/auth/usage', { apiKey: secret });
    expect(usage.status).toBe(403);
    await page.reload();
    await expect.poll(() => card.getByTestId('named-key-last-used').textContent()).not.toBe('Not used yet');
    await screenshot(page, 'en-desktop-dashboard-named-keys');

    // The usage page, filtered by the key: its one render (the default key's render would count too without it).
    expect((await render(account.user.apiKey ?? '')).status).toBe(200);
    await page.goto(`${baseUrl()}/dashboard/usage`);
    await expect.poll(() => page.getByTestId('usage-used').textContent()).toBe('2');
    await page.getByTestId('usage-key-filter').getByLabel('Renders of').selectOption({ label: 'E2E renders' });
    await expect.poll(() => page.getByTestId('usage-used').textContent()).toBe('1');

    // Revoke: asks first; afterwards the key is refused at once.
    await page.goto(`${baseUrl()}/dashboard/api-key`);
    await card.getByRole('button', { name: 'Revoke E2E renders' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke “E2E renders”?' });
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await card.getByText('No named keys yet.').waitFor();
    const refused = await render(secret);
    expect(refused.status).toBe(401);
    expect(errors).toEqual([]);
    await context.close();
  });
});
