import { renderLinkKey, signRenderUrl } from '@render/contracts/signed-render-link';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DashboardApiKeyPage } from '../src/features/dashboard/dashboard.page.tsx';
import { PLAYGROUNDS } from '../src/features/playground/playground-definitions.ts';
import {
  ChartPlaygroundPage,
  CodePlaygroundPage,
  HtmlPlaygroundPage,
  ScreenshotPlaygroundPage,
  SvgPlaygroundPage,
} from '../src/features/playground/playground-pages.tsx';
import { buildRequest, minimalBody } from '../src/features/playground/playground-state.ts';
import { fakeGateway, signedInAs, testUser } from './helpers/gateway-fake.ts';
import { renderPage } from './helpers/render-page.tsx';

// Render links in the web app: "Copy image URL" in each render playground signs the request as a render link
// with the signed-in user's key (never an unsigned link, never the key itself), and the API key card's
// "Signed render links only" toggle saves the account's setting.

const gateway = fakeGateway();
const user = testUser();

describe('Copy image URL', () => {
  it('copies the playground’s request as a link signed with the user’s key, on every render playground', async () => {
    const pages = [
      [HtmlPlaygroundPage, '/html-to-image', PLAYGROUNDS.html, 'html'],
      [SvgPlaygroundPage, '/svg-to-image', PLAYGROUNDS.svg, 'svg'],
      [ChartPlaygroundPage, '/chart-to-image', PLAYGROUNDS.chart, 'chart'],
      [CodePlaygroundPage, '/code-to-image', PLAYGROUNDS.code, 'code'],
      [ScreenshotPlaygroundPage, '/screenshot', PLAYGROUNDS.screenshot, 'screenshot'],
    ] as const;
    for (const [Page, path, definition, kind] of pages) {
      const u = userEvent.setup();
      const { unmount } = renderPage(Page, { path, session: signedInAs(user) });
      await u.click(await screen.findByTestId('copy-image-url'));
      // Each page's toast says so (earlier pages' toasts may still be up).
      expect((await screen.findAllByText(/Image URL copied/)).length).toBeGreaterThan(0);
      await waitFor(async () => expect(await navigator.clipboard.readText()).toContain(`/api/render/${kind}?`));
      const copied = await navigator.clipboard.readText();
      const body = minimalBody(definition, buildRequest(definition, definition.defaults).body);
      const expected = await signRenderUrl({ baseUrl: window.location.origin, apiKey: user.apiKey!, kind, body, ttl: 86_400 });
      expect(copied, kind).toBe(expected);
      const url = new URL(copied);
      expect(url.pathname).toBe(`/api/render/${kind}`);
      expect(url.searchParams.get('key')).toBe(await renderLinkKey(user.apiKey!));
      expect(url.searchParams.get('sig')).toMatch(/^[0-9a-f]{64}$/);
      expect(copied).not.toContain(user.apiKey);
      unmount();
    }
  });

  it('is disabled for signed-out visitors, who are asked to sign in', async () => {
    renderPage(HtmlPlaygroundPage, { path: '/html-to-image' });
    expect(await screen.findByTestId('copy-image-url')).toBeDisabled();
    expect(screen.getByText('Sign in to copy a signed image URL for this render.')).toBeInTheDocument();
  });
});

describe('Signed render links only', () => {
  it('saves the account setting when toggled and shows what the server stored', async () => {
    const u = userEvent.setup();
    gateway.routes['PUT /api/auth/render-links'] = () => ({
      body: { success: true, user: { ...user, renderLinksSignedOnly: true } },
    });
    renderPage(DashboardApiKeyPage, { path: '/dashboard/api-key', session: signedInAs(user) });
    const toggle = await screen.findByRole('switch', { name: /Signed render links only/ });
    expect(toggle).not.toBeChecked();
    await u.click(toggle);
    expect(await screen.findByText('Render link setting saved')).toBeInTheDocument();
    await waitFor(() => expect(toggle).toBeChecked());
    const call = gateway.calls.find((c) => c.path === '/api/auth/render-links');
    expect(call?.method).toBe('PUT');
    expect(call?.body).toEqual({ signedOnly: true });
  });
});
