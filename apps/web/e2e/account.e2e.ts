import { randomBytes } from 'node:crypto';
import { afterAll, expect, it } from 'vitest';
import { baseUrl, closeBrowser, getBrowser, openPage, screenshot, waitForApp } from './helpers/browser.ts';
import { mailedCode } from './helpers/mail.ts';

afterAll(closeBrowser);

it('the prerendered sign-in and sign-up forms cannot be sent before the page is live, and never as a GET', async () => {
  // Without JavaScript: the reader's language's prerendered form, its submit button disabled, its method POST.
  const context = await (await getBrowser()).newContext({ javaScriptEnabled: false, locale: 'fr-FR' });
  const page = await context.newPage();
  for (const [path, heading] of [
    ['/login', 'Bon retour'],
    ['/signup', 'Créez votre compte'],
  ] as const) {
    await page.goto(`${baseUrl()}${path}`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toContain(heading);
    await expect(page.locator('form').getAttribute('method')).resolves.toBe('post');
    await expect(page.locator('form button[type=submit]').isDisabled()).resolves.toBe(true);
  }
  await context.close();
  // Once hydrated, the same button works.
  const live = await openPage();
  await live.page.goto(`${baseUrl()}/login`);
  await waitForApp(live.page);
  await expect(live.page.getByRole('button', { name: 'Login' }).isEnabled()).resolves.toBe(true);
  await live.context.close();
});

it('signup → the mailed code → verify → signed-in header → logout', async () => {
  const email = `e2e-${randomBytes(4).toString('hex')}@example.com`;
  const { page, context, errors } = await openPage();
  await page.goto(`${baseUrl()}/signup`);
  await page.getByRole('heading', { level: 1, name: 'Create your account' }).waitFor();

  // Submitting empty shows the spec's messages without calling the server.
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByText('Name is required').waitFor();
  await page.getByText('You must agree to the terms and conditions').waitFor();

  await page.getByLabel('Full name').fill('Grace Hopper');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('Cobol1959x');
  await page.getByLabel('Confirm password').fill('Cobol1959x');
  await page.getByLabel('Company or organization (optional)').fill('Navy');
  await page.locator('select[name="usageSource"]').selectOption('business');
  await page.locator('select[name="referralSource"]').selectOption('friend');
  await page.getByLabel('HTML to image').check();
  await page.getByLabel('Code to image').check();
  await page.locator('input[name="acceptTerms"]').check();
  await page.getByRole('button', { name: 'Create account' }).click();

  await page.getByText('Registration successful! Please check your email for verification code.').waitFor();
  await page.waitForURL(/\/verify\?/);
  await page.getByLabel('Verification code').fill(await mailedCode(email));
  await page.getByRole('button', { name: 'Verify', exact: true }).click();

  await page.waitForURL(`${baseUrl()}/dashboard`);
  const account = page.getByRole('banner').getByRole('link', { name: 'Grace Hopper' });
  await account.waitFor();
  expect(await page.getByTestId('api-key').textContent()).toMatch(/\S{20,}/);
  await screenshot(page, 'en-desktop-dashboard-signed-in');

  // The session survives a reload (token and user in storage, profile re-checked).
  await page.reload();
  await account.waitFor();

  await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL(`${baseUrl()}/`);
  await page.getByRole('banner').getByRole('link', { name: 'Login' }).waitFor();
  expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('user')])).toEqual([null, null]);

  // Login again; the dashboard is for signed-in users only.
  await page.goto(`${baseUrl()}/dashboard`);
  await page.waitForURL(/\/login/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('Cobol1959x');
  await page.getByRole('button', { name: 'Login' }).last().click();
  await page.getByText('Login successful!').waitFor();
  await page.waitForURL(`${baseUrl()}/dashboard`);
  expect(errors).toEqual([]);
  await context.close();
});

it("login to an unverified account shows the server's message and goes on to verification", async () => {
  const email = `e2e-unverified-${randomBytes(4).toString('hex')}@example.com`;
  const signup = await fetch(`${baseUrl()}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Pending Person',
      email,
      password: 'Pending123',
      confirmPassword: 'Pending123',
      usageSource: 'personal',
      referralSource: 'other',
      plannedServices: ['svg2img'],
      acceptTerms: true,
    }),
  });
  expect(signup.status).toBe(201);
  const { page, context } = await openPage();
  await page.goto(`${baseUrl()}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('Pending123');
  await page.getByRole('button', { name: 'Login' }).last().click();
  await page.getByText('Please verify your email before logging in').waitFor();
  await page.waitForURL(/\/verify\?.*userId=/);
  await context.close();
});
