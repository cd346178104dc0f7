import * as Dialog from '@radix-ui/react-dialog';
import { Link } from '@tanstack/react-router';
import { LogIn, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { buttonClass } from './ui/button.tsx';

/** docs/spec/screens.md, roles.md: generating with an API key needs an account; sign in or sign up (focus trapped, Escape closes). */
export function SignInRequiredDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation();
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-zinc-950/50" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl border border-zinc-200 bg-white p-6 shadow-xl">
          <div className="flex items-start justify-between gap-4">
            <Dialog.Title className="flex items-center gap-2 text-lg font-semibold text-zinc-900">
              <LogIn className="size-5 text-accent-600" aria-hidden />
              {t('signInRequired.title')}
            </Dialog.Title>
            <Dialog.Close className="rounded-md p-1 text-zinc-500 hover:bg-zinc-100" aria-label={t('signInRequired.close')}>
              <X className="size-4" aria-hidden />
            </Dialog.Close>
          </div>
          <Dialog.Description className="mt-3 text-sm text-zinc-600">{t('signInRequired.body')}</Dialog.Description>
          <div className="mt-6 flex flex-wrap justify-end gap-2">
            <Link to="/login" className={buttonClass('secondary')}>
              {t('signInRequired.login')}
            </Link>
            <Link to="/signup" className={buttonClass('primary')}>
              {t('signInRequired.signup')}
            </Link>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
