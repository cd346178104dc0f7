import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { LiveDemo } from '../src/features/landing/live-demo.tsx';
import { fakeGateway } from './helpers/gateway-fake.ts';
import { renderPage } from './helpers/render-page.tsx';

const gateway = fakeGateway();
const rendered = () => gateway.calls.filter((c) => c.path === '/api/html-to-img/convert').map((c) => (c.body as { html: string }).html);

afterEach(() => i18next.changeLanguage('en'));

describe('landing live demo', () => {
  it('shows the sample’s ready image in the reader’s language and renders nothing until asked', async () => {
    await i18next.changeLanguage('fr');
    renderPage(LiveDemo);
    const editor = (await screen.findByRole('textbox')) as HTMLTextAreaElement;
    expect(editor.value).toContain('Bonjour depuis un vrai rendu');
    const image = screen.getByTestId('live-demo-image') as HTMLImageElement;
    expect(image.getAttribute('src')).toBe('/hero/demo-fr.webp');
    expect(image).toHaveAttribute('width', '800');
    expect(image).toHaveAttribute('height', '420');
    expect(screen.getByText(/appuyez sur Générer/)).toBeInTheDocument();

    await act(() => i18next.changeLanguage('en'));
    await waitFor(() => expect(editor.value).toContain('Hello from a real render'));
    expect(image.getAttribute('src')).toBe('/hero/demo-en.webp');
    expect(rendered()).toEqual([]);
  });

  it('renders live when the visitor presses Render, and keeps an edit across a language switch', async () => {
    gateway.routes['POST /api/html-to-img/convert'] = () => ({
      body: { success: true, data: { image: 'iVBORw0KGgo=', mimeType: 'image/png', format: 'png', width: 800, height: 420, size: 8 } },
    });
    renderPage(LiveDemo);
    const editor = (await screen.findByRole('textbox')) as HTMLTextAreaElement;
    fireEvent.change(editor, { target: { value: '<h1>Mine</h1>' } });
    fireEvent.click(screen.getByRole('button', { name: 'Render' }));
    await waitFor(() => expect(rendered()).toEqual(['<h1>Mine</h1>']));
    await waitFor(() => expect(screen.getByTestId('live-demo-image')).toHaveAttribute('data-live', 'true'));
    expect(screen.getByTestId('live-demo-image').getAttribute('src')).toBe('data:image/png;base64,iVBORw0KGgo=');

    // An edit is the visitor's own: switching the language keeps it.
    await act(() => i18next.changeLanguage('fr'));
    expect(editor.value).toBe('<h1>Mine</h1>');
  });
});
