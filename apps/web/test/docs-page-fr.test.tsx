import { OpenApiTexts } from '@render/contracts';
import { screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { DocsPage } from '../src/features/docs/docs.page.tsx';
import { renderPage } from './helpers/render-page.tsx';

afterEach(() => i18next.changeLanguage('en'));

const PASSWORD_RULE = 'At least 8 characters, with an uppercase letter, a lowercase letter and a number';

/** The field table of one call, by its caption. */
const table = (path: string) => screen.getAllByRole('region').find((region) => region.getAttribute('aria-label')?.includes(path))!;

describe('docs page in French', () => {
  it('shows the HTML call’s summary and field descriptions in French', async () => {
    await i18next.changeLanguage('fr');
    renderPage(DocsPage, { path: '/docs', url: '/docs?tab=html' });
    expect(await screen.findByText('Rendre du HTML en PNG, JPEG, WebP, AVIF ou PDF')).toBeInTheDocument();
    const fields = table('/api/html-to-img/convert');
    for (const english of ['HTML document or fragment to render', 'width in CSS pixels', 'Top margin']) {
      expect(within(fields).getByText(OpenApiTexts.fr[english]!)).toBeInTheDocument();
      expect(within(fields).queryByText(english)).not.toBeInTheDocument();
    }
    expect(fields).toHaveTextContent('PDF seulement. Format du papier');
  });

  it('shows the Authentication tab, its summaries and the password rule in French', async () => {
    await i18next.changeLanguage('fr');
    renderPage(DocsPage, { path: '/docs', url: '/docs?tab=authentication' });
    expect(await screen.findByRole('tab', { name: 'Authentification' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Authentification' })).toBeInTheDocument();
    expect(screen.getByText('Se connecter avec e-mail et mot de passe')).toBeInTheDocument();
    expect(
      within(table('/api/auth/signup')).getByText('Au moins 8 caractères, dont une majuscule, une minuscule et un chiffre'),
    ).toBeInTheDocument();
    expect(screen.queryByText(PASSWORD_RULE)).not.toBeInTheDocument();
    expect(screen.queryByText('Sign in with e-mail and password')).not.toBeInTheDocument();
  });

  it('says in French how to capture a page offline', async () => {
    await i18next.changeLanguage('fr');
    renderPage(DocsPage, { path: '/docs', url: '/docs?tab=screenshot' });
    const note = await screen.findByTestId('screenshot-offline-note');
    expect(note).toHaveTextContent('Hors ligne ou sur un réseau privé');
    expect(note).toHaveTextContent('RENDER_EGRESS_ALLOWLIST');
  });

  it('keeps the English texts on the English site', async () => {
    renderPage(DocsPage, { path: '/docs', url: '/docs?tab=authentication' });
    expect(await screen.findByRole('tab', { name: 'Authentication' })).toBeInTheDocument();
    expect(within(table('/api/auth/signup')).getByText(PASSWORD_RULE)).toBeInTheDocument();
  });
});
