import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { toast } from 'sonner';
import { afterEach, describe, expect, it } from 'vitest';
import { ForgotPasswordPage } from '../src/features/auth/forgot-password.page.tsx';
import { fakeGateway } from './helpers/gateway-fake.ts';
import { renderPage } from './helpers/render-page.tsx';

const gateway = fakeGateway();

afterEach(async () => {
  // Sonner keeps its toasts in a module-wide store: the next test's Toaster would show this one's.
  toast.dismiss();
  await i18next.changeLanguage('en');
});

/** A server error whose English message no catalog holds (it carries the limit's numbers). */
const rateLimited = () => ({
  status: 429,
  body: { success: false, code: 'RATE_LIMITED', message: 'Too many password reset requests: 3 per hour; try again in 42 minutes' },
});

async function submitForgot(email: string, button: RegExp) {
  const u = userEvent.setup();
  renderPage(ForgotPasswordPage, { path: '/forgot-password' });
  await u.type(await screen.findByRole('textbox'), email);
  await u.click(screen.getByRole('button', { name: button }));
}

describe('server errors in toasts', () => {
  it('en: shows the server’s own message', async () => {
    gateway.routes['POST /api/auth/forgot-password'] = rateLimited;
    await submitForgot('ada@example.com', /send reset link/i);
    expect(await screen.findByText('Too many password reset requests: 3 per hour; try again in 42 minutes')).toBeInTheDocument();
  });

  it('fr: a message the catalog lacks is said by its code, in French', async () => {
    await i18next.changeLanguage('fr');
    gateway.routes['POST /api/auth/forgot-password'] = rateLimited;
    await submitForgot('ada@example.com', /envoyer le lien/i);
    expect(await screen.findByText('Trop de requêtes : patientez un instant et réessayez.')).toBeInTheDocument();
    expect(screen.queryByText(/Too many password reset requests/)).not.toBeInTheDocument();
  });

  it('fr: a catalogued message is translated by its id, not by its English words', async () => {
    await i18next.changeLanguage('fr');
    // The English text is not the catalog's (reworded, say): only `messageId` can pick the translation.
    gateway.routes['POST /api/auth/forgot-password'] = () => ({
      status: 429,
      body: { success: false, code: 'RATE_LIMITED', messageId: 'auth.tooManyRequests', message: 'Slow down a little, please' },
    });
    await submitForgot('ada@example.com', /envoyer le lien/i);
    const fr = (await i18next.getFixedT('fr', 'messages'))('auth.tooManyRequests', { keySeparator: false, nsSeparator: false });
    expect(fr).not.toMatch(/Too many|auth\./);
    expect(await screen.findByText(fr)).toBeInTheDocument();
    expect(screen.queryByText('Trop de requêtes : patientez un instant et réessayez.')).not.toBeInTheDocument();
  });
});
