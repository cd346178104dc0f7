import type { AsyncRenderView } from '@render/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PLAYGROUNDS, type Values } from '../src/features/playground/playground-definitions.ts';
import { CodePlaygroundPage, HtmlPlaygroundPage } from '../src/features/playground/playground-pages.tsx';
import { buildRequest, decodeValues, encodeValues } from '../src/features/playground/playground-state.ts';
import { buildSnippet } from '../src/lib/request-snippets.ts';
import { signedInAs, testUser } from './helpers/gateway-fake.ts';
import { renderPage } from './helpers/render-page.tsx';

// Async renders in the playgrounds: the webhook field (signed-in callers sending their key), the 202 shown
// as an accepted render whose status is polled until the image (or the failure) is there, the request
// snippets with `webhook`, and shared links made before the code page's background became a choice.

const user = testUser();

const RENDER_ID = '3f6c1a52-8f0e-4d8c-9a43-0c6f1c1e2d3a';
const HOOK = 'https://hooks.example.com/render';
const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface Call {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: unknown;
}
let calls: Call[];
/** The answers of `GET /api/renders/{id}`, one per poll (the last repeats). */
let statuses: AsyncRenderView[];

const view = (status: AsyncRenderView['status'], extra: Partial<AsyncRenderView> = {}): AsyncRenderView => ({
  id: RENDER_ID,
  kind: 'html',
  format: 'png',
  status,
  createdAt: '2026-11-25T01:00:00.000Z',
  ...extra,
});

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

beforeEach(() => {
  calls = [];
  statuses = [view('queued')];
  // The HTTP boundary: the gateway's answers, as it gives them.
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = new URL(url, 'http://app.test').pathname;
      const method = init?.method ?? 'GET';
      const headers = Object.fromEntries(
        Object.entries((init?.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]),
      );
      calls.push({ method, path, headers, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      if (method === 'POST' && path === '/api/html-to-img/convert') {
        return json(
          202,
          { success: true, data: { id: RENDER_ID, status: 'queued', statusUrl: `/api/renders/${RENDER_ID}` } },
          { location: `/api/renders/${RENDER_ID}` },
        );
      }
      if (path === `/api/renders/${RENDER_ID}` && statuses.length === 0) return json(404, { success: false, message: 'Render not found' });
      if (path === `/api/renders/${RENDER_ID}`) {
        const polls = calls.filter((c) => c.path === path).length;
        return json(200, { success: true, data: statuses[Math.min(polls, statuses.length) - 1] });
      }
      if (path === `/api/renders/${RENDER_ID}/image`) {
        return new Response(PNG_BYTES, { status: 200, headers: { 'content-type': 'image/png' } });
      }
      return json(404, { success: false, message: 'Not found' });
    }),
  );
  Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:async-render'), revokeObjectURL: vi.fn() });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const signedIn = () => signedInAs(user);

/** Signed in, "Use my API key" ticked, the webhook typed: the page ready to send a webhook render. */
async function webhookPage() {
  const u = userEvent.setup();
  const page = renderPage(HtmlPlaygroundPage, { path: '/html-to-image', session: signedIn() });
  await u.click(await screen.findByLabelText('Use my API key'));
  await u.type(screen.getByLabelText('Webhook URL'), HOOK);
  return { u, ...page };
}

const polls = () => calls.filter((c) => c.path === `/api/renders/${RENDER_ID}`);

describe('the webhook field', () => {
  it('is not offered to signed-out visitors, and a render without it sends no webhook', async () => {
    renderPage(HtmlPlaygroundPage, { path: '/html-to-image' });
    await screen.findByLabelText('Width (px)');
    expect(screen.queryByLabelText('Webhook URL')).toBeNull();
    expect(document.querySelector('[name="webhook"]')).toBeNull();
    expect(screen.getByTestId('snippet-curl').textContent).not.toContain('webhook');
  });

  it('is shown to a signed-in visitor, usable once the request carries their API key, and checked as the gateway does', async () => {
    const u = userEvent.setup();
    renderPage(HtmlPlaygroundPage, { path: '/html-to-image', session: signedIn() });
    const field = await screen.findByLabelText('Webhook URL');
    expect(field).toBeDisabled();
    expect(screen.getByTestId('webhook-field')).toHaveTextContent('Tick “Use my API key”');
    expect(within(screen.getByTestId('webhook-field')).getByRole('link', { name: 'Webhook secret and deliveries' })).toHaveAttribute(
      'href',
      '/dashboard/api-key',
    );
    await u.click(screen.getByLabelText('Use my API key'));
    expect(field).toBeEnabled();
    await u.type(field, 'hooks.example.com');
    await u.tab();
    expect(await screen.findByText('webhook must be an absolute http:// or https:// URL')).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    // A URL with credentials passes the pattern but not the gateway's parse.
    await u.clear(field);
    await u.type(field, 'https://me:pw@hooks.example.com/x');
    expect(await screen.findByText('webhook must be an absolute http:// or https:// URL')).toBeInTheDocument();
    await u.clear(field);
    await u.type(field, HOOK);
    await waitFor(() => expect(screen.queryByText('webhook must be an absolute http:// or https:// URL')).toBeNull());
  });

  it('is accepted by every converter’s contract (html, svg, chart, code, screenshot)', () => {
    for (const definition of Object.values(PLAYGROUNDS)) {
      const { body, problems } = buildRequest(definition, definition.defaults, { webhook: HOOK });
      expect(problems, definition.id).toEqual({});
      expect(body.webhook, definition.id).toBe(HOOK);
    }
    expect(
      buildRequest(PLAYGROUNDS.code, PLAYGROUNDS.code.defaults, { webhook: `https://x.test/${'a'.repeat(2048)}` }).problems.webhook,
    ).toBe('webhook must be at most 2048 characters');
  });

  it('never reaches a shared link', () => {
    const html = PLAYGROUNDS.html;
    const { body } = buildRequest(html, html.defaults, { webhook: ` ${HOOK} ` });
    expect(body.webhook).toBe(HOOK);
    expect(encodeValues(html, html.defaults)).toBeUndefined();
  });
});

describe('a webhook render in the playground', () => {
  it('shows the 202 as an accepted render, polls its status every second until done, then shows the image', async () => {
    statuses = [
      view('queued'),
      view('rendering'),
      view('done', { size: 8, width: 800, height: 600, imageUrl: `/api/renders/${RENDER_ID}/image` }),
    ];
    const { u, unmount } = await webhookPage();
    await u.click(screen.getByRole('button', { name: 'Generate' }));

    const convert = calls.find((c) => c.method === 'POST');
    expect(convert?.body).toMatchObject({ webhook: HOOK, html: expect.any(String) });
    expect(convert?.headers['x-api-key']).toBe(user.apiKey);

    expect(await screen.findByTestId('async-id')).toHaveTextContent(RENDER_ID);
    const status = screen.getByTestId('async-status');
    expect(status).toHaveAttribute('aria-live', 'polite');
    expect(status).toHaveTextContent(/Queued|Rendering/);
    await waitFor(() => expect(status).toHaveTextContent('Rendering'), { timeout: 4000 });
    await waitFor(() => expect(status).toHaveTextContent('Done'), { timeout: 4000 });

    const image = await screen.findByTestId('result-image');
    expect(image).toHaveAttribute('src', 'blob:async-render');
    expect(screen.getByTestId('result-meta')).toHaveTextContent('800 × 600 px · 8 B');
    expect(screen.getByTestId('download-link')).toHaveAttribute('download', 'render-html.png');
    const blob = (vi.mocked(URL.createObjectURL).mock.calls[0] as unknown as [Blob])[0];
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(PNG_BYTES);

    // Every status and image call went with the key the render was made with, not the session.
    const followUps = calls.filter((c) => c.path.startsWith('/api/renders/'));
    expect(followUps.map((c) => c.path)).toContain(`/api/renders/${RENDER_ID}/image`);
    for (const call of followUps) {
      expect(call.headers['x-api-key']).toBe(user.apiKey);
      expect(call.headers.authorization).toBeUndefined();
    }
    // Done: no further polls.
    const seen = polls().length;
    expect(seen).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect(polls()).toHaveLength(seen);
    // The object URL goes with the panel.
    expect(URL.revokeObjectURL).not.toHaveBeenCalled();
    unmount();
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:async-render');
  }, 15_000);

  it('shows why a failed render failed, and asks for no image', async () => {
    statuses = [view('failed', { error: { code: 'RENDER_FAILED', message: 'The page crashed while rendering' } })];
    const { u } = await webhookPage();
    await u.click(screen.getByRole('button', { name: 'Generate' }));
    expect(await screen.findByTestId('async-error')).toHaveTextContent('The render failed: The page crashed while rendering');
    expect(screen.getByTestId('async-status')).toHaveTextContent('Failed');
    expect(screen.queryByTestId('result-image')).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect(polls()).toHaveLength(1);
    expect(calls.some((c) => c.path.endsWith('/image'))).toBe(false);
  }, 10_000);

  it('says when the status cannot be read (an expired render) and stops asking', async () => {
    statuses = [];
    const { u } = await webhookPage();
    await u.click(screen.getByRole('button', { name: 'Generate' }));
    expect(await screen.findByTestId('async-error')).toHaveTextContent('The status could not be read: Render not found');
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect(polls()).toHaveLength(1);
  }, 10_000);

  it('stops polling when the page goes', async () => {
    statuses = [view('queued')];
    const { u, unmount } = await webhookPage();
    await u.click(screen.getByRole('button', { name: 'Generate' }));
    await screen.findByTestId('async-status');
    await waitFor(() => expect(polls().length).toBeGreaterThanOrEqual(1));
    unmount();
    const seen = polls().length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(polls()).toHaveLength(seen);
  }, 10_000);

  it('writes the webhook into the request snippets; the SDK tab calls render.api.POST with the body', async () => {
    const { u } = await webhookPage();
    await waitFor(() => expect(screen.getByTestId('snippet-curl').textContent).toContain(`"webhook":"${HOOK}"`));
    expect(screen.getByTestId('snippet-curl').textContent).not.toContain('-o image.png');
    await u.click(screen.getByRole('tab', { name: 'SDK' }));
    const sdk = (await screen.findByTestId('snippet-sdk')).textContent ?? '';
    expect(sdk).toContain('render.api.POST("/api/html-to-img/convert", { body: {');
    expect(sdk).toContain(`webhook: "${HOOK}"`);
    expect(sdk).not.toContain('render.html(');
  });
});

describe('the SDK snippet of a webhook call', () => {
  it('goes through render.api.POST with the whole body (the image methods drop webhook)', () => {
    const code = buildSnippet('sdk', {
      baseUrl: 'https://render.test',
      method: 'POST',
      path: '/api/chart-to-img/convert',
      body: { library: 'chartjs', chartType: 'bar', webhook: HOOK },
      auth: { kind: 'apiKey', value: 'rk_live_123' },
    });
    expect(code).toContain('const { data, error } = await render.api.POST("/api/chart-to-img/convert", { body: {');
    expect(code).toContain(`  webhook: "${HOOK}",`);
    expect(code).toContain('if (error) throw new Error(error.message);');
    expect(code).not.toContain('writeFile');
    expect(buildSnippet('python', { baseUrl: '', method: 'POST', path: '/api/code-to-img/convert', body: { webhook: HOOK } })).toContain(
      `"webhook": "${HOOK}"`,
    );
  });
});

describe('shared code links from before the background choice', () => {
  const code = PLAYGROUNDS.code;
  const link = (values: Record<string, unknown>) => btoa(JSON.stringify(values)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

  it('open with "colour" selected and the colour the link set', () => {
    const values = decodeValues(code, link({ frameBackground: '#4f46e5', windowStyle: 'mac' }));
    expect(values).toMatchObject({ backgroundKind: 'color', frameBackground: '#4f46e5', windowStyle: 'mac' });
    expect(buildRequest(code, values).body).toMatchObject({ background: { color: '#4f46e5' } });
  });

  it('leave today’s links alone, including a colour kept while "none" is chosen', () => {
    expect(decodeValues(code, link({ backgroundKind: 'gradient', frameBackground: '#123456' })).backgroundKind).toBe('gradient');
    const keptColour: Values = { ...code.defaults, frameBackground: '#123456' };
    expect(keptColour.backgroundKind).toBe('none');
    expect(decodeValues(code, encodeValues(code, keptColour))).toEqual(keptColour);
    const chosen = { ...code.defaults, backgroundKind: 'color', frameBackground: '#123456' };
    expect(decodeValues(code, encodeValues(code, chosen))).toEqual(chosen);
    // An old link without a colour had no background.
    expect(decodeValues(code, link({ windowStyle: 'mac' })).backgroundKind).toBe('none');
  });

  it('the code page opens an old link on the colour', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(200, { success: true, data: { languages: ['typescript'], themes: ['vs2015'], themeAliases: {} } })),
    );
    renderPage(CodePlaygroundPage, { path: '/code-to-image', url: `/code-to-image?o=${link({ frameBackground: '#0ea5e9' })}` });
    expect(await screen.findByLabelText('Background around the window')).toHaveValue('color');
    expect(screen.getByLabelText('Background colour')).toHaveValue('#0ea5e9');
    await waitFor(() => expect(screen.getByTestId('snippet-curl').textContent).toContain('"background":{"color":"#0ea5e9"}'));
  });
});
