import { type KeyboardEvent, useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { useMessageText } from '../../i18n/use-message.ts';
import { ApiError, ErrorTexts } from '../../lib/api-client.ts';

/** docs/spec/errors.md: the server's message, the connection message when nothing answered, else the page's own failure text. */
export function failureToShow(error: unknown, failureMessage: string): unknown {
  const own = error instanceof ApiError && (error.status === 0 || error.message !== ErrorTexts.generic);
  return own ? error : failureMessage;
}

/**
 * One render at a time: a new run aborts the one before, `busy` holds while the latest runs, and a failure
 * is a toast (an aborted run says nothing). Pending runs are aborted when the component goes away.
 */
export function useRenderRun(failureMessage: string) {
  const message = useMessageText();
  const [busy, setBusy] = useState(false);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const run = useCallback(
    async (work: (current: AbortController) => Promise<void>) => {
      controller.current?.abort();
      const current = new AbortController();
      controller.current = current;
      setBusy(true);
      try {
        await work(current);
      } catch (error) {
        if ((error as Error)?.name === 'AbortError') return;
        toast.error(message(failureToShow(error, failureMessage)));
      } finally {
        if (controller.current === current) setBusy(false);
      }
    },
    [message, failureMessage],
  );
  return { busy, run };
}

/** Ctrl/Cmd+Enter runs `action` (Generate in the playgrounds and the template pages, the API preview in the editor). */
export function onCtrlEnter(action: () => void) {
  return (event: KeyboardEvent) => {
    if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
      event.preventDefault();
      action();
    }
  };
}
