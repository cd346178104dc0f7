import type { WebhookDelivery } from '@render/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DashboardApiKeyPage } from '../src/features/dashboard/dashboard.page.tsx';
import { fakeGateway, signedInAs, testUser } from './helpers/gateway-fake.ts';
import { renderPage } from './helpers/render-page.tsx';

// The Webhooks card of the API key page: the signing secret (masked, revealed, rotated after a confirmation)
// and the latest delivery attempts.

const SECRET = 'whsec_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';
const NEW_SECRET = 'whsec_ZYXWVUTSRQPONMLKJIHGFEDCBA9876543210zyxwvuts';

const gateway = fakeGateway();

const signedIn = () => signedInAs(testUser());

const delivery = (overrides: Partial<WebhookDelivery>): WebhookDelivery => ({
  renderId: '3f6c1a52-8f0e-4d8c-9a43-0c6f1c1e2d3a',
  url: 'https://hooks.example.com/render',
  attempt: 1,
  at: '2026-11-24T10:00:00.000Z',
  ok: false,
  final: false,
  ...overrides,
});

describe('webhooks card', () => {
  it('masks the secret, reveals it, and lists each delivery attempt with its outcome', async () => {
    const u = userEvent.setup();
    gateway.routes['GET /api/auth/webhook-secret'] = () => ({
      body: { success: true, secret: SECRET, createdAt: '2026-11-24T09:00:00.000Z' },
    });
    gateway.routes['GET /api/webhooks/deliveries'] = () => ({
      body: {
        success: true,
        deliveries: [
          delivery({ attempt: 2, ok: true, final: true, statusCode: 200 }),
          delivery({ attempt: 1, statusCode: 500 }),
          delivery({
            renderId: 'b1',
            url: 'http://10.0.0.1/x',
            final: true,
            error: 'refused by the egress policy: 10.0.0.1 is in a private, loopback or reserved network',
            errorCode: 'REFUSED',
          }),
          delivery({ renderId: 'c1', error: 'connection failed (ECONNREFUSED)', errorCode: 'CONNECTION_FAILED' }),
          // A record from before error codes: its English detail is all there is.
          delivery({ renderId: 'd1', error: 'no answer within 10 s' }),
        ],
      },
    });
    renderPage(DashboardApiKeyPage, { path: '/dashboard/api-key', session: signedIn() });
    const card = await screen.findByTestId('webhooks-card');
    const secret = await within(card).findByTestId('webhook-secret');
    expect(secret).toHaveTextContent(/^whsec_•+$/);
    expect(secret).not.toHaveTextContent(SECRET);
    await u.click(within(card).getByRole('button', { name: 'Show the webhook secret' }));
    expect(secret).toHaveTextContent(SECRET);

    const items = within(await within(card).findByTestId('webhook-deliveries')).getAllByRole('listitem');
    expect(items).toHaveLength(5);
    expect(items[0]).toHaveTextContent('attempt 2');
    expect(items[0]).toHaveTextContent('answered 200');
    expect(items[0]).toHaveTextContent('Delivered');
    expect(items[1]).toHaveTextContent('answered 500');
    expect(items[1]).toHaveTextContent('Retry follows');
    expect(items[2]).toHaveTextContent('refused: the address is private, loopback, reserved or could not be resolved');
    expect(items[2]).toHaveTextContent('Failed');
    expect(items[3]).toHaveTextContent('could not connect');
    expect(items[3]).toHaveTextContent('Retry follows');
    expect(items[4]).toHaveTextContent('no answer within 10 s');
  });

  it('says when there are no deliveries yet', async () => {
    gateway.routes['GET /api/auth/webhook-secret'] = () => ({
      body: { success: true, secret: SECRET, createdAt: '2026-11-24T09:00:00.000Z' },
    });
    gateway.routes['GET /api/webhooks/deliveries'] = () => ({ body: { success: true, deliveries: [] } });
    renderPage(DashboardApiKeyPage, { path: '/dashboard/api-key', session: signedIn() });
    expect(await screen.findByText('No webhook deliveries yet.')).toBeInTheDocument();
  });

  it('rotates only after a confirmation, then shows the new secret', async () => {
    const u = userEvent.setup();
    gateway.routes['GET /api/auth/webhook-secret'] = () => ({
      body: { success: true, secret: SECRET, createdAt: '2026-11-24T09:00:00.000Z' },
    });
    gateway.routes['GET /api/webhooks/deliveries'] = () => ({ body: { success: true, deliveries: [] } });
    gateway.routes['POST /api/auth/webhook-secret/rotate'] = () => ({
      body: { success: true, secret: NEW_SECRET, createdAt: '2026-11-24T11:00:00.000Z' },
    });
    renderPage(DashboardApiKeyPage, { path: '/dashboard/api-key', session: signedIn() });
    const card = await screen.findByTestId('webhooks-card');
    await within(card).findByTestId('webhook-secret');
    await u.click(within(card).getByRole('button', { name: 'Rotate secret' }));
    let dialog = await screen.findByRole('dialog', { name: 'Rotate the webhook secret?' });
    expect(dialog).toHaveTextContent('retries included');
    await u.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(gateway.calls.filter((c) => c.path === '/api/auth/webhook-secret/rotate')).toHaveLength(0);

    await u.click(within(card).getByRole('button', { name: 'Rotate secret' }));
    dialog = await screen.findByRole('dialog');
    await u.click(within(dialog).getByRole('button', { name: 'Rotate secret' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(gateway.calls.filter((c) => c.method === 'POST' && c.path === '/api/auth/webhook-secret/rotate')).toHaveLength(1);
    expect(within(card).getByTestId('webhook-secret')).toHaveTextContent(NEW_SECRET);
  });
});
