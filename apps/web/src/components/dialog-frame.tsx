import * as Dialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { ReactNode } from 'react';

interface DialogFrameProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The icon before the title, marked aria-hidden by the caller. */
  icon: ReactNode;
  title: ReactNode;
  closeLabel: string;
  /** The description, under the title. */
  children: ReactNode;
  /** The buttons at the bottom right. */
  actions: ReactNode;
}

/** The app's modal dialog (Radix: focus trapped, Escape closes, focus returns to the trigger): title and close button, text, actions. */
export function DialogFrame({ open, onOpenChange, icon, title, closeLabel, children, actions }: DialogFrameProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-zinc-950/50" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl border border-zinc-200 bg-white p-6 shadow-xl">
          <div className="flex items-start justify-between gap-4">
            <Dialog.Title className="flex items-center gap-2 text-lg font-semibold text-zinc-900">
              {icon}
              {title}
            </Dialog.Title>
            <Dialog.Close className="rounded-md p-1 text-zinc-500 hover:bg-zinc-100" aria-label={closeLabel}>
              <X className="size-4" aria-hidden />
            </Dialog.Close>
          </div>
          {children}
          <div className="mt-6 flex flex-wrap justify-end gap-2">{actions}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
