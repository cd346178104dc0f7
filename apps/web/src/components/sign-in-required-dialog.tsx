import * as Dialog from '@radix-ui/react-dialog';
import { LogIn } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { DialogFrame } from './dialog-frame.tsx';
import { LinkButtons } from './ui/link-buttons.tsx';

/** docs/spec/screens.md, roles.md: generating with an API key needs an account; sign in or sign up (focus trapped, Escape closes). */
export function SignInRequiredDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation();
  return (
    <DialogFrame
      open={open}
      onOpenChange={onOpenChange}
      icon={<LogIn className="size-5 text-accent-600" aria-hidden />}
      title={t('signInRequired.title')}
      closeLabel={t('signInRequired.close')}
      actions={
        <LinkButtons
          links={[
            { to: '/login', label: t('signInRequired.login'), variant: 'secondary' },
            { to: '/signup', label: t('signInRequired.signup'), variant: 'primary' },
          ]}
        />
      }
    >
      <Dialog.Description className="mt-3 text-sm text-zinc-600">{t('signInRequired.body')}</Dialog.Description>
    </DialogFrame>
  );
}
