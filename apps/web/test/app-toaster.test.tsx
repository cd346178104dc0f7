import { act, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { toast } from 'sonner';
import { afterEach, describe, expect, it } from 'vitest';
import { AppToaster, TOAST_TOP_OFFSET } from '../src/app/app-toaster.tsx';

afterEach(async () => {
  toast.dismiss();
  await i18next.changeLanguage('en');
});

const toastOf = async (text: string) => (await screen.findByText(text)).closest('[data-sonner-toast]') as HTMLElement;

describe('toasts', () => {
  it('show an earlier error whole next to a later success, not hidden under it', async () => {
    render(<AppToaster />);
    act(() => {
      toast.error('Failed to save');
    });
    act(() => {
      toast.success('Saved');
    });
    const error = await toastOf('Failed to save');
    const success = await toastOf('Saved');
    // Sonner's collapsed pile shows only the front toast; expanded, each is laid out in full.
    for (const item of [error, success]) {
      expect(item).toHaveAttribute('data-expanded', 'true');
      expect(item).toHaveAttribute('data-visible', 'true');
    }
    expect(success).toHaveAttribute('data-front', 'true');
    expect(error).toHaveAttribute('data-front', 'false');
  });

  it('sit below the header, on phones too', async () => {
    render(<AppToaster />);
    act(() => {
      toast.info('Hello');
    });
    const list = (await screen.findByText('Hello')).closest('[data-sonner-toaster]') as HTMLElement;
    expect(list).toHaveAttribute('data-y-position', 'top');
    expect(list.style.getPropertyValue('--offset-top')).toBe(TOAST_TOP_OFFSET);
    expect(list.style.getPropertyValue('--mobile-offset-top')).toBe(TOAST_TOP_OFFSET);
  });

  it('label their region and close buttons in the reader’s language', async () => {
    await i18next.changeLanguage('fr');
    render(<AppToaster />);
    act(() => {
      toast.info('Bonjour');
    });
    expect(await screen.findByRole('button', { name: 'Fermer la notification' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: /Notifications/ })).toBeInTheDocument();
  });
});
