import * as Dialog from '@radix-ui/react-dialog';
import { TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogFrame } from './dialog-frame.tsx';
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
    <DialogFrame
      open={open}
      onOpenChange={onOpenChange}
      icon={<TriangleAlert className={`size-5 shrink-0 ${tone === 'danger' ? 'text-red-600' : 'text-amber-600'}`} aria-hidden />}
      title={title}
      closeLabel={t('dialog.close')}
      actions={
        <>
          <Dialog.Close asChild>
            <Button variant="secondary">{cancelLabel ?? t('dialog.cancel')}</Button>
          </Dialog.Close>
          <Button variant={tone} busy={busy} onClick={onConfirm} data-testid="confirm-button">
            {confirmLabel}
          </Button>
        </>
      }
    >
      <Dialog.Description asChild>
        <div className="mt-3 space-y-2 text-sm text-zinc-700">{children}</div>
      </Dialog.Description>
    </DialogFrame>
  );
}
