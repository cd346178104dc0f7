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
  it('starts from a sample in the reader’s language, and follows the switch until edited', async () => {
    await i18next.changeLanguage('fr');
    renderPage(LiveDemo);
    const editor = (await screen.findByRole('textbox')) as HTMLTextAreaElement;
    expect(editor.value).toContain('Bonjour depuis un vrai rendu');
    expect(editor.value).not.toContain('Hello from');
    await waitFor(() => expect(rendered().at(-1)).toContain('<div lang="fr"'));

    await act(() => i18next.changeLanguage('en'));
    await waitFor(() => expect(editor.value).toContain('Hello from a real render'));
    await waitFor(() => expect(rendered().at(-1)).toContain('Hello from a real render'));

    // An edit is the visitor's own: switching the language keeps it.
    fireEvent.change(editor, { target: { value: '<h1>Mine</h1>' } });
    await act(() => i18next.changeLanguage('fr'));
    expect(editor.value).toBe('<h1>Mine</h1>');
  });
});
