import { useState } from 'react';
import { toast } from 'sonner';
import { useMessageText } from '../../i18n/use-message.ts';

/**
 * An account call with its progress: `busy` from the start of `work` until it and what follows (the
 * navigation) are done; a failure goes to `onError`, else it is a toast with the server's message.
 */
export function useBusyAction() {
  const text = useMessageText();
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<void>, onError?: (error: unknown) => void | Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch (error) {
      if (onError) await onError(error);
      else toast.error(text(error));
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}
