import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HtmlPlaygroundPage } from '../src/features/playground/playground-pages.tsx';
import { renderPage } from './helpers/render-page.tsx';

afterEach(() => vi.unstubAllGlobals());

const answer = (warnings?: unknown[]) =>
  vi.fn(
    async () =>
      new Response(
        JSON.stringify({
          success: true,
          data: {
            image: btoa('png'),
            format: 'png',
            mimeType: 'image/png',
            width: 800,
            height: 600,
            size: 3,
            ...(warnings ? { warnings } : {}),
          },
        }),
        { status: 200, headers: { 'content-type': 'application/json', 'x-render-warnings': String(warnings?.length ?? 0) } },
      ),
  );

describe('the result panel’s render warnings', () => {
  it('lists the warnings of a render, each with its kind', async () => {
    vi.stubGlobal(
      'fetch',
      answer([
        {
          code: 'RESOURCE_REFUSED',
          message: 'Refused http://10.0.0.1/x.png: 10.0.0.1 is in a private network',
          detail: { url: 'http://10.0.0.1/x.png' },
        },
        { code: 'MISSING_GLYPH', message: '1 character had no glyph in any font and drew as boxes: U+10FFFD' },
      ]),
    );
    const user = userEvent.setup();
    renderPage(HtmlPlaygroundPage, { path: '/html-to-image' });
    await user.click(await screen.findByRole('button', { name: 'Generate' }));
    const list = await screen.findByTestId('result-warnings');
    expect(list).toHaveTextContent('2 render warnings');
    expect(list).toHaveTextContent('RefusedRefused http://10.0.0.1/x.png');
    expect(list).toHaveTextContent('Missing glyph1 character had no glyph');
  });

  it('shows nothing when there are none (or the answer has no field)', async () => {
    vi.stubGlobal('fetch', answer());
    const user = userEvent.setup();
    renderPage(HtmlPlaygroundPage, { path: '/html-to-image' });
    await user.click(await screen.findByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(screen.getByTestId('result-image')).toBeInTheDocument());
    expect(screen.queryByTestId('result-warnings')).toBeNull();
  });
});
