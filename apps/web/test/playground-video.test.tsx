import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ScreenshotPlaygroundPage } from '../src/features/playground/playground-pages.tsx';
import { renderPage } from './helpers/render-page.tsx';

describe('screenshot videos in the playground', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('offers mp4, webm and gif with scenario, duration and fps, fits the size, and plays the answer in a <video>', async () => {
    const send = vi.fn(async (_url: string, _init: RequestInit) => {
      const data = { image: btoa('not really a video'), format: 'mp4', mimeType: 'video/mp4', width: 1280, height: 720, size: 18 };
      return new Response(JSON.stringify({ success: true, data }), {
        status: 200,
        headers: { 'content-type': 'application/json', 'x-render-time': '5400' },
      });
    });
    vi.stubGlobal('fetch', send);
    const user = userEvent.setup();
    renderPage(ScreenshotPlaygroundPage, { path: '/screenshot' });
    const format = await screen.findByLabelText('Format');
    expect(screen.queryByLabelText('Duration (s)')).toBeNull();
    await user.selectOptions(format, 'mp4');
    // The desktop's 1280×800 is more than a video may be: the height becomes 720.
    expect(screen.getByLabelText('Height (px)')).toHaveValue(720);
    await user.selectOptions(screen.getByLabelText('Video'), 'idle');
    await user.clear(screen.getByLabelText('Duration (s)'));
    await user.type(screen.getByLabelText('Duration (s)'), '12');
    expect(screen.getByLabelText('Frames per second')).toHaveValue(15);
    // What only images have is hidden (the API refuses them with a video).
    expect(document.querySelector('[name="fullPage"]')).toBeNull();
    expect(document.querySelector('[name="selector"]')).toBeNull();
    expect(document.querySelector('[name="transparent"]')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(send).toHaveBeenCalled());
    const [, init] = send.mock.calls.at(-1) as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toMatchObject({
      format: 'mp4',
      scenario: 'idle',
      duration: 12,
      fps: 15,
      width: 1280,
      height: 720,
    });
    const video = await screen.findByTestId('result-video');
    expect(video.tagName).toBe('VIDEO');
    expect(video.getAttribute('src')).toMatch(/^data:video\/mp4;base64,/);
    expect(screen.getByTestId('download-link')).toHaveAttribute('download', expect.stringMatching(/\.mp4$/));
  });

  it('sends no video field for an image', async () => {
    const user = userEvent.setup();
    renderPage(ScreenshotPlaygroundPage, { path: '/screenshot' });
    await screen.findByLabelText('Format');
    await waitFor(() => expect(screen.getByTestId('snippet-curl').textContent).toContain('example.com'));
    const snippet = screen.getByTestId('snippet-curl').textContent ?? '';
    expect(snippet).not.toContain('"duration"');
    expect(snippet).not.toContain('"scenario"');
    await user.selectOptions(screen.getByLabelText('Format'), 'gif');
    await waitFor(() => expect(screen.getByTestId('snippet-curl').textContent).toContain('"duration":5'));
  });
});
