import type { NamedApiKey } from '@render/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DashboardApiKeyPage, DashboardUsagePage } from '../src/features/dashboard/dashboard.page.tsx';
import { newKeyBody } from '../src/features/dashboard/named-keys-card.tsx';
import { fakeGateway, signedInAs, testUser, usageAnswer } from './helpers/gateway-fake.ts';
import { renderPage } from './helpers/render-page.tsx';

// The named API keys panel of the API key page (list, revoke after a confirmation, create with the contract's
// checks, the secret shown once), and the usage page's filter by key.

const gateway = fakeGateway();
const signedIn = () => signedInAs(testUser());

const key = (overrides: Partial<NamedApiKey>): NamedApiKey => ({
  id: '0b6f3c1e-5d2a-4c8e-9f10-2a3b4c5d6e7f',
  name: 'CI renders',
  scope: 'render',
  prefix: 'rk_live_AbCd',
  createdAt: '2026-11-20T09:00:00.000Z',
  expiresAt: null,
  lastUsedAt: '2026-11-24T10:00:00.000Z',
  ...overrides,
});

const SECRET = 'rk_live_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefg';

function keysPage(keys: NamedApiKey[]) {
  gateway.routes['GET /api/auth/keys'] = () => ({ body: { success: true, data: keys } });
  gateway.routes['GET /api/auth/webhook-secret'] = () => ({
    body: { success: true, secret: 'whsec_x', createdAt: '2026-11-24T09:00:00.000Z' },
  });
  gateway.routes['GET /api/webhooks/deliveries'] = () => ({ body: { success: true, deliveries: [] } });
  renderPage(DashboardApiKeyPage, { path: '/dashboard/api-key', session: signedIn() });
}

describe('named API keys panel', () => {
  it('lists each key with its scope, expiry and last use, and revokes one only after a confirmation', async () => {
    const u = userEvent.setup();
    const never = key({ id: '1c6f3c1e-5d2a-4c8e-9f10-2a3b4c5d6e7f', name: 'Staging', scope: 'full', lastUsedAt: null });
    keysPage([key({ expiresAt: '2027-01-01T00:00:00.000Z' }), never]);
    gateway.routes['DELETE /api/auth/keys/1c6f3c1e-5d2a-4c8e-9f10-2a3b4c5d6e7f'] = () => ({ body: { success: true, id: never.id } });
    const card = await screen.findByTestId('named-keys-card');
    const items = await within(card).findAllByTestId('named-key');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('CI renders');
    expect(items[0]).toHaveTextContent('Render only');
    expect(items[0]).toHaveTextContent('rk_live_AbCd…');
    expect(items[0]).not.toHaveTextContent('Never');
    expect(items[1]).toHaveTextContent('Full');
    expect(items[1]).toHaveTextContent('Never');
    expect(within(items[1] as HTMLElement).getByTestId('named-key-last-used')).toHaveTextContent('Not used yet');

    await u.click(within(card).getByRole('button', { name: 'Revoke Staging' }));
    let dialog = await screen.findByRole('dialog', { name: 'Revoke “Staging”?' });
    expect(dialog).toHaveTextContent('refused at once with 401');
    await u.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(gateway.calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);

    await u.click(within(card).getByRole('button', { name: 'Revoke Staging' }));
    dialog = await screen.findByRole('dialog');
    await u.click(within(dialog).getByRole('button', { name: 'Revoke key' }));
    await waitFor(() =>
      expect(gateway.calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`/api/auth/keys/${never.id}`]),
    );
  });

  it('checks the form with the contract, creates the key and shows its secret once with a copy button', async () => {
    const u = userEvent.setup();
    keysPage([]);
    gateway.routes['POST /api/auth/keys'] = () => ({
      status: 201,
      body: { success: true, data: key({ name: 'Nightly', scope: 'templates', lastUsedAt: null }), secret: SECRET },
    });
    const card = await screen.findByTestId('named-keys-card');
    expect(await within(card).findByText('No named keys yet.')).toBeInTheDocument();
    await u.click(within(card).getByRole('button', { name: 'Create key' }));
    expect(await within(card).findByText('Key name is required')).toBeInTheDocument();
    expect(gateway.calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    await u.type(within(card).getByLabelText('Name'), 'Nightly');
    await u.selectOptions(within(card).getByLabelText('Scope'), 'templates');
    await u.click(within(card).getByRole('button', { name: 'Create key' }));
    const shown = await within(card).findByTestId('new-key-secret');
    expect(within(shown).getByTestId('new-key-value')).toHaveTextContent(SECRET);
    expect(within(shown).getByRole('button', { name: 'Copy secret' })).toBeInTheDocument();
    expect(gateway.calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Nightly', scope: 'templates' });
  });

  it('sends the expiry as an ISO instant and leaves it out when empty', () => {
    expect(newKeyBody({ name: ' a ', scope: 'full', expiresAt: '' })).toEqual({ name: 'a', scope: 'full' });
    const body = newKeyBody({ name: 'a', scope: 'render', expiresAt: '2030-05-01T12:30' });
    expect(body.expiresAt).toBe(new Date('2030-05-01T12:30').toISOString());
  });

  it('filters the usage page by key', async () => {
    const u = userEvent.setup();
    gateway.routes['GET /api/auth/keys'] = () => ({ body: { success: true, data: [key({})] } });
    gateway.routes['GET /api/auth/usage'] = () => usageAnswer();
    gateway.routes['GET /api/auth/usage/daily'] = () => ({
      body: { success: true, data: { since: '2026-10-25T12:00:00.000Z', days: [] } },
    });
    gateway.routes['GET /api/auth/usage/recent'] = () => ({ body: { success: true, data: [] } });
    renderPage(DashboardUsagePage, { path: '/dashboard/usage', session: signedIn() });
    const filter = within(await screen.findByTestId('usage-key-filter')).getByLabelText('Renders of');
    await within(filter).findByRole('option', { name: 'CI renders' });
    await u.selectOptions(filter, 'CI renders');
    const keyId = key({}).id;
    for (const path of ['/api/auth/usage', '/api/auth/usage/daily', '/api/auth/usage/recent']) {
      await waitFor(() =>
        expect(gateway.calls.some((c) => c.path === path && new URLSearchParams(c.search).get('keyId') === keyId)).toBe(true),
      );
    }
  });
});
