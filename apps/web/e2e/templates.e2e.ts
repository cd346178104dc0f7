import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations } from './helpers/axe.ts';
import {
  baseUrl,
  closeBrowser,
  DESKTOP,
  getBrowser,
  openPage,
  overflowsHorizontally,
  PHONE,
  screenshot,
  type TrackedPage,
} from './helpers/browser.ts';
import { layoutShiftSoFar, observeLayoutShift } from './helpers/layout-shift.ts';
import { mailedCode } from './helpers/mail.ts';

afterAll(closeBrowser);

const STARTERS = ['Blog social card', 'Quote card', 'Certificate of completion', 'Product sale badge'];

interface Account {
  name: string;
  email: string;
  token: string;
  user: Record<string, unknown> & { id: string; apiKey: string };
}

/** Signup → the mailed code → verify, through the real API: a signed-in account. */
async function account(name: string): Promise<Account> {
  const email = `tpl-${randomBytes(4).toString('hex')}@example.com`;
  const signup = await fetch(`${baseUrl()}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name,
      email,
      password: 'Templates123',
      confirmPassword: 'Templates123',
      usageSource: 'personal',
      referralSource: 'other',
      plannedServices: ['svg2img'],
      acceptTerms: true,
    }),
  });
  expect(signup.status).toBe(201);
  const { userId } = (await signup.json()) as { userId: string };
  const verify = await fetch(`${baseUrl()}/api/auth/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userId, verificationCode: await mailedCode(email) }),
  });
  expect(verify.status).toBe(200);
  const session = (await verify.json()) as { token: string; user: Account['user'] };
  return { name, email, token: session.token, user: session.user };
}

/** A page whose storage holds the account's session (the app's own format: value + 7-day expiry). */
async function signedInPage(who: Account, options: Parameters<typeof openPage>[0] = {}): Promise<TrackedPage> {
  const tracked = await openPage(options);
  await tracked.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() });
  await tracked.context.addInitScript(
    ({ token, user }) => {
      const expiresAt = Date.now() + 7 * 24 * 3600 * 1000;
      if (!localStorage.getItem('token')) {
        localStorage.setItem('token', JSON.stringify({ value: token, expiresAt }));
        localStorage.setItem('user', JSON.stringify({ value: user, expiresAt }));
      }
    },
    { token: who.token, user: who.user },
  );
  return tracked;
}

const api = (who: Account, method: string, path: string, body?: unknown) =>
  fetch(`${baseUrl()}${path}`, {
    method,
    headers: { authorization: `Bearer ${who.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

let alice: Account;
let bob: Account;

beforeAll(async () => {
  [alice, bob] = [await account('Alice Author'), await account('Bob Builder')];
});

describe('templates list for visitors', () => {
  it('is prerendered: its shell without JavaScript, the list a skeleton the cards replace without moving anything', async () => {
    // Without JavaScript: the reader's language's header, tabs (Public chosen) and filters, the list a skeleton.
    const context = await (await getBrowser()).newContext({ javaScriptEnabled: false, locale: 'fr-FR', viewport: PHONE });
    const bare = await context.newPage();
    await bare.goto(`${baseUrl()}/template/list`);
    await expect(bare.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Modèles');
    await expect(bare.getByRole('tab', { name: 'Publics' }).getAttribute('aria-selected')).resolves.toBe('true');
    await expect(bare.getByLabel('Rechercher des modèles').isVisible()).resolves.toBe(true);
    await expect(bare.getByTestId('template-skeleton').isVisible()).resolves.toBe(true);
    await expect(bare.getByTestId('template-card').count()).resolves.toBe(0);
    await context.close();

    // Hydrated, at phone width in both languages and on a desktop: the public cards replace the skeleton, the
    // layout shift stays within CLS's goal, and the list is asked for once (the answer asked for while the
    // page's code loaded is the one the list shows).
    for (const [language, viewport] of [
      ['en', PHONE],
      ['fr', PHONE],
      ['en', DESKTOP],
    ] as const) {
      const tracked = await openPage({ viewport, language });
      await tracked.context.addInitScript(observeLayoutShift);
      await tracked.page.goto(`${baseUrl()}/template/list`);
      await tracked.page.getByTestId('template-card').first().waitFor();
      await tracked.page.waitForLoadState('networkidle');
      await tracked.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      const shift = await layoutShiftSoFar(tracked.page);
      expect(shift.total, `layout shift (${language}, ${viewport.width} px): ${shift.sources.join(', ')}`).toBeLessThanOrEqual(0.02);
      await expect(tracked.page.getByTestId('template-skeleton').count()).resolves.toBe(0);
      const names = await tracked.page.getByTestId('template-card').locator('h2').allTextContents();
      for (const starter of STARTERS) expect(names).toContain(starter);
      expect(tracked.requests.filter((url) => new URL(url).pathname === '/api/template/public')).toHaveLength(1);
      expect(tracked.errors).toEqual([]);
      await tracked.context.close();
    }
  });

  it('shows the public starters; other tabs ask to sign in; passes axe', async () => {
    const { page, context, errors } = await openPage();
    await page.goto(`${baseUrl()}/template/list`);
    await page.getByRole('heading', { level: 1, name: 'Templates' }).waitFor();
    await page.getByTestId('template-card').first().waitFor();
    const names = await page.getByTestId('template-card').locator('h2').allTextContents();
    for (const starter of STARTERS) expect(names).toContain(starter);
    await expect(page.getByRole('tab', { name: 'Public' }).getAttribute('aria-selected')).resolves.toBe('true');
    expect(await seriousAxeViolations(page), 'axe on the list').toEqual([]);

    await page.getByRole('tab', { name: 'My Templates' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Sign in required').waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // Most starred first, then search narrows it down.
    await page.getByLabel('Sort by').selectOption('stars');
    await page.getByLabel('Search templates').fill('certificate');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/sort=stars/);
    await expect.poll(() => page.getByTestId('template-card').count()).toBe(1);
    expect(await page.getByTestId('template-card').locator('h2').textContent()).toBe('Certificate of completion');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('the template studio', () => {
  let templateId = '';
  const name = `E2E card ${randomBytes(3).toString('hex')}`;

  it('create → edit with an unsaved-changes prompt → save', async () => {
    const { page, context, errors } = await signedInPage(alice);
    await page.goto(`${baseUrl()}/template/create`);
    await page.getByRole('heading', { level: 1, name: 'New template' }).waitFor();
    await page.getByTestId('binding-rules').getByText('Every variable is bound and every binding is declared.').waitFor();

    // Saving without a name shows the contract's message, says so beside the button (no toast over it) and
    // takes the caller to the field; once named, the note goes.
    await page.getByTestId('save-button').click();
    await page.getByText('Name is required').waitFor();
    await page.getByTestId('save-refused').getByText('Fix the problems shown before saving').waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-invalid') === 'true');
    expect(await page.locator('[data-sonner-toast]').count()).toBe(0);
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByTestId('save-refused').waitFor({ state: 'detached' });
    await page.getByTestId('save-button').click();
    await page.getByText('Template saved').waitFor();
    await page.waitForURL(/\/template\/edit\/[0-9a-f-]{36}$/);
    templateId = page.url().split('/').at(-1)!;
    await page.getByRole('heading', { level: 1, name: 'Edit template' }).waitFor();
    expect(await seriousAxeViolations(page), 'axe on the editor').toEqual([]);

    // Ctrl+Enter renders the SVG through the API.
    await page.locator('.cm-content').first().click();
    await page.keyboard.press('Control+Enter');
    await page.getByTestId('api-preview').waitFor({ timeout: 45_000 });

    // An unsaved change: leaving through an in-app link asks first; staying keeps the edit.
    await page.getByLabel('Name', { exact: true }).fill(`${name} v2`);
    await page.getByTestId('save-state').getByText('Unsaved changes').waitFor();
    // Closing the tab asks too (beforeunload); dismissing keeps the page and the edit.
    const beforeUnload = new Promise<string>((resolve) =>
      page.once('dialog', (dialog) => {
        resolve(dialog.type());
        void dialog.dismiss();
      }),
    );
    await page.close({ runBeforeUnload: true });
    expect(await beforeUnload).toBe('beforeunload');
    expect(page.isClosed()).toBe(false);
    await page.getByRole('main').getByRole('link', { name: 'Templates' }).click();
    const prompt = page.getByRole('dialog');
    await prompt.getByText('Leave without saving?').waitFor();
    await prompt.getByRole('button', { name: 'Cancel' }).click();
    await prompt.waitFor({ state: 'detached' });
    expect(page.url()).toContain(`/template/edit/${templateId}`);
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe(`${name} v2`);

    // A binding without a variable is shown as the server would word it, and blocks saving.
    await page.getByRole('button', { name: 'Remove subtitle' }).first().click();
    await page.getByText('The SVG binds data-variable="subtitle" but no variable named "subtitle" is declared.').waitFor();
    await page.getByRole('button', { name: 'Declare subtitle' }).click();

    await page.getByTestId('save-button').click();
    await page.getByTestId('save-state').getByText('All changes saved').waitFor();
    const saved = await (await api(alice, 'GET', `/api/template/${templateId}`)).json();
    expect(saved.data).toMatchObject({ name: `${name} v2`, width: 1200, height: 630, variablesCount: 3, isPublic: false });

    // Now nothing is pending: the same link leaves at once.
    await page.getByRole('main').getByRole('link', { name: 'Templates' }).click();
    await page.waitForURL(/\/template\/list/);
    await page.getByRole('heading', { name: `${name} v2` }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('generate (Ctrl+Enter and the button) → download, copy the ID, a working signed URL', async () => {
    const { page, context, errors } = await signedInPage(alice);
    await page.goto(`${baseUrl()}/image/generate?templateId=${templateId}`);
    await page.waitForURL(`${baseUrl()}/template/generate/${templateId}`);
    await page.getByRole('heading', { level: 1, name: `${name} v2` }).waitFor();
    await page.locator('input[name="title"]').fill('Hello from the e2e test');
    await page.locator('input[name="title"]').press('Control+Enter');
    const image = page.getByTestId('result-image');
    await image.waitFor({ timeout: 45_000 });
    expect(await image.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([1200, 630]);

    await page.getByLabel('Format').selectOption('jpeg');
    await page.getByLabel('Quality (JPEG, WebP, AVIF)').fill('0');
    await page.getByTestId('generate-button').click();
    await page.getByText('quality must be between 1 and 100').waitFor();
    await page.getByLabel('Quality (JPEG, WebP, AVIF)').fill('85');
    await page.getByTestId('generate-button').click();
    await expect.poll(() => image.getAttribute('src')).toMatch(/^data:image\/jpeg/);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-link').click()]);
    const bytes = readFileSync((await download.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);

    await page.getByTestId('copy-template-id').getByRole('button').click();
    await page.getByText('Template ID copied to clipboard').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(templateId);

    // The request to paste carries what the form says.
    const curl = await page.getByTestId('snippet-curl').textContent();
    expect(curl).toContain('/api/template/generate');
    expect(curl).toContain('"title":"Hello from the e2e test"');
    expect(curl).toContain(`X-API-Key: ${alice.user.apiKey}`);

    // The signed URL renders without a session.
    const signed = await page.getByTestId('signed-url-value').inputValue();
    expect(signed).toMatch(/\/image\?.*sig=[0-9a-f]{64}$/);
    const res = await fetch(signed);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(await seriousAxeViolations(page), 'axe on the generate page').toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('publish (irreversible, said so) → another user stars, duplicates, cannot edit', async () => {
    const owner = await signedInPage(alice);
    await owner.page.goto(`${baseUrl()}/template/edit/${templateId}`);
    await owner.page.getByTestId('publish-button').click();
    const confirm = owner.page.getByRole('dialog');
    await confirm.getByText(/This cannot be undone: a public template can no longer be edited/).waitFor();
    await confirm.getByTestId('confirm-button').click();
    await owner.page.getByText('Template is now public').waitFor();
    await owner.page.waitForURL(`${baseUrl()}/template/generate/${templateId}`);
    await owner.page.goto(`${baseUrl()}/template/edit/${templateId}`);
    await owner.page.getByTestId('template-public-notice').waitFor();
    await owner.context.close();

    const { page, context, errors } = await signedInPage(bob);
    await page.goto(`${baseUrl()}/template/list?tab=public`);
    await page.getByLabel('Search templates').fill(name);
    await page.getByRole('button', { name: 'Apply' }).click();
    const card = page.getByTestId('template-card').filter({ hasText: `${name} v2` });
    await card.waitFor();
    await card.getByText('Alice Author').waitFor();
    await card.getByTestId('star-button').click();
    await page.getByText('Added to your favorites').waitFor();
    await expect.poll(() => card.getByTestId('star-count').textContent()).toBe('1');

    await page.getByRole('tab', { name: 'Favorites' }).click();
    await page.waitForURL(/tab=favorites/);
    await page
      .getByTestId('template-card')
      .filter({ hasText: `${name} v2` })
      .waitFor();

    await page
      .getByTestId('template-card')
      .filter({ hasText: `${name} v2` })
      .getByTestId('duplicate-button')
      .click();
    await page.getByText('Template duplicated: this copy is yours to edit').waitFor();
    await page.waitForURL(/\/template\/edit\/[0-9a-f-]{36}$/);
    expect(page.url()).not.toContain(templateId);
    await page.getByRole('heading', { level: 1, name: 'Edit template' }).waitFor();
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe(`${name} v2 (copy)`);

    // Deleting his copy asks first, saying it cannot be undone.
    await page.goto(`${baseUrl()}/template/list?tab=mine`);
    const copyCard = page.getByTestId('template-card').filter({ hasText: `${name} v2 (copy)` });
    await copyCard.getByTestId('delete-button').click();
    const confirmDelete = page.getByRole('dialog');
    await confirmDelete.getByText(/This cannot be undone/).waitFor();
    await confirmDelete.getByTestId('confirm-button').click();
    await page.getByText('Template deleted').waitFor();
    await copyCard.waitFor({ state: 'detached' });
    await page.getByTestId('empty-state').getByText('You have no templates yet').waitFor();

    await page.goto(`${baseUrl()}/template/edit/${templateId}`);
    await page.getByRole('heading', { level: 1, name: 'Access denied' }).waitFor();
    await page.getByText('You do not have permission to modify this template').waitFor();
    await screenshot(page, 'en-desktop-template-access-denied');

    await page.goto(`${baseUrl()}/template/edit/00000000-0000-4000-8000-000000000000`);
    await page.getByRole('heading', { level: 1, name: 'Template Not Found' }).waitFor();
    await screenshot(page, 'en-desktop-template-not-found');
    expect(errors.filter((e) => !/status of 40[34]/.test(e))).toEqual([]);
    await context.close();
  });
});

describe('screenshots (e2e-artifacts/)', () => {
  for (const language of ['en', 'fr'] as const) {
    it(`list, editor and generate pages, desktop and phone, ${language}`, async () => {
      const created = await (
        await api(alice, 'POST', '/api/template', {
          name: language === 'fr' ? 'Carte réseaux sociaux' : 'Launch announcement',
          width: 1200,
          height: 630,
          svg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1200 630"><rect width="1200" height="630" fill="#312e81"/><text x="80" y="330" font-size="72" font-family="Liberation Sans, Arial, sans-serif" font-weight="700" fill="#fff" data-variable="title">Hello</text><image x="900" y="200" width="200" height="200" data-variable="logo"/></svg>',
          variables: [
            { name: 'title', type: 'text', defaultValue: 'Hello' },
            { name: 'logo', type: 'image', defaultValue: '' },
          ],
        })
      ).json();
      const id = created.data.id as string;
      for (const [label, viewport] of [
        ['desktop', DESKTOP],
        ['phone', PHONE],
      ] as const) {
        const visitor = await openPage({ viewport, language });
        await visitor.page.goto(`${baseUrl()}/template/list`);
        await visitor.page.getByTestId('template-card').first().waitFor();
        await visitor.page.waitForLoadState('networkidle');
        expect(await overflowsHorizontally(visitor.page), `list ${label}`).toBe(false);
        await screenshot(visitor.page, `${language}-${label}-template-list-public`);
        await visitor.context.close();

        const tracked = await signedInPage(alice, { viewport, language });
        const { page } = tracked;
        await page.goto(`${baseUrl()}/template/list`);
        await page.getByTestId('template-card').first().waitFor();
        await screenshot(page, `${language}-${label}-template-list-mine`);

        await page.goto(`${baseUrl()}/template/edit/${id}`);
        await page.getByTestId('binding-rules').waitFor();
        await page.locator('.cm-content').first().waitFor();
        expect(await overflowsHorizontally(page), `editor ${label}`).toBe(false);
        await screenshot(page, `${language}-${label}-template-editor`);

        // Save refused (no name): the note beside Save, in the page's language, wraps without overflowing.
        const nameField = page.locator('#template-name');
        const name = await nameField.inputValue();
        await nameField.fill('');
        await page.getByTestId('save-button').click();
        await page.getByTestId('save-refused').waitFor();
        expect(await overflowsHorizontally(page), `editor refusing to save ${label}`).toBe(false);
        await screenshot(page, `${language}-${label}-template-save-refused`);
        await nameField.fill(name);
        await page.getByTestId('save-refused').waitFor({ state: 'detached' });

        await page.goto(`${baseUrl()}/template/generate/${id}`);
        await page.getByTestId('generate-button').click();
        await page.getByTestId('result-image').waitFor({ timeout: 45_000 });
        expect(await overflowsHorizontally(page), `generate ${label}`).toBe(false);
        await screenshot(page, `${language}-${label}-template-generate`);
        expect(tracked.errors).toEqual([]);
        await tracked.context.close();
      }
    });
  }
});
