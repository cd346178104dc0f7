import * as Dialog from '@radix-ui/react-dialog';
import { TriangleAlert, X } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './ui/button.tsx';

interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  /** What happens and what cannot be undone. */
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  /** The button that leaves things as they are ("Cancel" unless given). */
  cancelLabel?: string;
  busy?: boolean;
  /** danger: deletes or ends something; primary: irreversible but wanted (make public). */
  tone?: 'danger' | 'primary';
}

/**
 * Every action that cannot be undone asks first (design brief), saying what it does. Radix: focus
 * trapped, Escape closes, focus returns to the trigger.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  children,
  confirmLabel,
  onConfirm,
  cancelLabel,
  busy,
  tone = 'danger',
}: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-zinc-950/50" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl border border-zinc-200 bg-white p-6 shadow-xl">
          <div className="flex items-start justify-between gap-4">
            <Dialog.Title className="flex items-center gap-2 text-lg font-semibold text-zinc-900">
              <TriangleAlert className={`size-5 shrink-0 ${tone === 'danger' ? 'text-red-600' : 'text-amber-600'}`} aria-hidden />
              {title}
            </Dialog.Title>
            <Dialog.Close className="rounded-md p-1 text-zinc-500 hover:bg-zinc-100" aria-label={t('dialog.close')}>
              <X className="size-4" aria-hidden />
            </Dialog.Close>
          </div>
          <Dialog.Description asChild>
            <div className="mt-3 space-y-2 text-sm text-zinc-700">{children}</div>
          </Dialog.Description>
          <div className="mt-6 flex flex-wrap justify-end gap-2">
            <Dialog.Close asChild>
              <Button variant="secondary">{cancelLabel ?? t('dialog.cancel')}</Button>
            </Dialog.Close>
            <Button variant={tone} busy={busy} onClick={onConfirm} data-testid="confirm-button">
              {confirmLabel}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
