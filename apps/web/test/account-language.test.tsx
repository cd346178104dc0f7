import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { SignupPage } from '../src/features/auth/signup.page.tsx';
import { DashboardPage } from '../src/features/dashboard/dashboard.page.tsx';
import { fakeGateway, signedInAs, testUser } from './helpers/gateway-fake.ts';
import { renderPage } from './helpers/render-page.tsx';

// The account's mails are written in its language: the signup form sends the app's, the profile changes it.
const gateway = fakeGateway();

afterEach(async () => {
  await i18next.changeLanguage('en');
});

const field = (name: string) => document.querySelector(`[name="${name}"]`) as HTMLInputElement;

async function fillSignup(u: ReturnType<typeof userEvent.setup>) {
  await u.type(field('name'), 'Ada Lovelace');
  await u.type(field('email'), 'ada@example.com');
  await u.type(field('password'), 'Str0ngPass');
  await u.type(field('confirmPassword'), 'Str0ngPass');
  await u.selectOptions(field('usageSource'), 'business');
  await u.selectOptions(field('referralSource'), 'friend');
  await u.click(document.querySelector('input[value="html2img"]') as HTMLInputElement);
  await u.click(field('acceptTerms'));
}

describe('signup language', () => {
  it.each([
    ['en', 'Create account'],
    ['fr', 'Créer le compte'],
  ] as const)('a signup shown in %s sends that language', async (language, submit) => {
    await i18next.changeLanguage(language);
    const u = userEvent.setup();
    gateway.routes['POST /api/auth/signup'] = () => ({
      status: 201,
      body: { success: true, message: 'Registration successful! Please check your email for verification code.', userId: 'u1' },
    });
    renderPage(SignupPage, { path: '/signup' });
    const button = await screen.findByRole('button', { name: submit });
    await fillSignup(u);
    await u.click(button);
    await waitFor(() => expect(gateway.calls.some((c) => c.path === '/api/auth/signup')).toBe(true));
    expect(gateway.calls.find((c) => c.path === '/api/auth/signup')?.body).toMatchObject({ email: 'ada@example.com', language });
  });
});

describe('profile e-mail language', () => {
  it('shows the stored language and saves a new one at once', async () => {
    const u = userEvent.setup();
    gateway.routes['PATCH /api/auth/me'] = (init) => ({
      body: { success: true, user: testUser({ language: JSON.parse(String(init?.body)).language }) },
    });
    const { session } = renderPage(DashboardPage, { path: '/dashboard', session: signedInAs(testUser()) });
    const select = (await screen.findByLabelText('E-mail language')) as HTMLSelectElement;
    expect(select.value).toBe('en');
    await u.selectOptions(select, 'fr');
    expect(await screen.findByText('E-mail language saved')).toBeInTheDocument();
    expect(gateway.calls.find((c) => c.method === 'PATCH')).toEqual({
      method: 'PATCH',
      path: '/api/auth/me',
      search: '',
      body: { language: 'fr' },
    });
    expect(session.getState().user?.language).toBe('fr');
    expect(select.value).toBe('fr');
  });

  it('says so when the change fails, in French too', async () => {
    await i18next.changeLanguage('fr');
    const u = userEvent.setup();
    gateway.routes['PATCH /api/auth/me'] = () => ({ status: 503, body: { success: false, code: 'SERVICE_UNAVAILABLE', message: 'down' } });
    renderPage(DashboardPage, { path: '/dashboard', session: signedInAs(testUser()) });
    const select = (await screen.findByLabelText('Langue des e-mails')) as HTMLSelectElement;
    await u.selectOptions(select, 'fr');
    expect(await screen.findByText("Impossible d'enregistrer la langue des e-mails")).toBeInTheDocument();
    await waitFor(() => expect(select.value).toBe('en'));
  });
});
