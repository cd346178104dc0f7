import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ScreenshotPlaygroundPage } from '../src/features/playground/playground-pages.tsx';
import { renderPage } from './helpers/render-page.tsx';

afterEach(() => vi.unstubAllGlobals());

const MARKDOWN = '# Field notes\n\n- Alpha\n- Beta\n<script>alert(1)</script>';
const METADATA = {
  title: 'Field notes',
  description: null,
  canonicalUrl: null,
  language: 'en',
  openGraph: { title: 'OG' },
  twitter: {},
  favicon: null,
  finalUrl: 'https://example.com/notes',
  httpStatus: 200,
};

describe('the screenshot playground’s text formats', () => {
  it('sends the format and metadata, and shows the content as text with the page’s metadata', async () => {
    const fetch = vi.fn(
      async (_url: string, _init?: RequestInit) =>
        new Response(
          JSON.stringify({
            success: true,
            data: {
              image: btoa(MARKDOWN),
              content: MARKDOWN,
              metadata: METADATA,
              format: 'markdown',
              mimeType: 'text/markdown; charset=utf-8',
              width: 0,
              height: 0,
              size: MARKDOWN.length,
              warnings: [],
            },
          }),
          { status: 200, headers: { 'content-type': 'application/json' } },
        ),
    );
    vi.stubGlobal('fetch', fetch);
    const user = userEvent.setup();
    renderPage(ScreenshotPlaygroundPage, { path: '/screenshot' });
    await user.selectOptions(await screen.findByLabelText('Format'), 'markdown');
    // What only images have is hidden.
    expect(document.querySelector('[name="selector"]')).toBeNull();
    expect(document.querySelector('[name="fullPage"]')).toBeNull();
    await user.click(screen.getByLabelText('Page metadata'));
    await user.click(screen.getByRole('button', { name: 'Generate' }));

    const content = await screen.findByTestId('result-content');
    // Shown as text: the page's markup is never rendered here.
    expect(content.textContent).toBe(MARKDOWN);
    expect(content.querySelector('script')).toBeNull();
    expect(screen.queryByTestId('result-image')).toBeNull();
    expect(JSON.parse(screen.getByTestId('result-metadata').textContent ?? '')).toEqual(METADATA);
    expect(screen.getByTestId('download-link')).toHaveAttribute('download', expect.stringMatching(/\.md$/));

    const body = JSON.parse(String(fetch.mock.calls.at(-1)?.[1]?.body)) as Record<string, unknown>;
    expect(body).toMatchObject({ format: 'markdown', metadata: true, outputType: 'json' });
  });
});
