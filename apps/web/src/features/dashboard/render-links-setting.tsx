import { useMutation } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { useMessageText } from '../../i18n/use-message.ts';
import { errorText } from '../../lib/api-client.ts';
import { useSession, useSessionStore } from '../../lib/session/session.context.tsx';
import { dashboardApi } from './dashboard-api.ts';

/**
 * The account's "signed render links only" setting (PUT /api/auth/render-links): with it on, a render link
 * carrying only `key` (no `sig`) is refused. Saved as soon as it is toggled.
 */
export function RenderLinksSetting() {
  const { t } = useTranslation('dashboard');
  const message = useMessageText();
  const session = useSession();
  const store = useSessionStore();
  const id = useId();
  const save = useMutation({
    mutationFn: (signedOnly: boolean) => dashboardApi.renderLinkSettings({ signedOnly }),
    onSuccess: (updated) => {
      // The answer is the updated user: the session keeps it, so the toggle shows what the server stored.
      const token = store.getState().token;
      if (token) store.signIn(token, updated);
      toast.success(t('apiKey.signedLinksSaved'));
    },
    onError: (error) => toast.error(t('apiKey.signedLinksFailed'), { description: message(errorText(error)) }),
  });
  if (session.status !== 'signedIn') return null;
  const checked = save.isPending && save.variables !== undefined ? save.variables : Boolean(session.user.renderLinksSignedOnly);
  return (
    <div className="mt-4 flex items-start gap-3 border-t border-zinc-200 pt-4">
      <input
        id={id}
        type="checkbox"
        role="switch"
        aria-checked={checked}
        data-testid="render-links-signed-only"
        className="mt-0.5 size-4 accent-zinc-900"
        checked={checked}
        disabled={save.isPending}
        onChange={(event) => save.mutate(event.target.checked)}
      />
      <label htmlFor={id} className="text-sm">
        <span className="font-medium text-zinc-900">{t('apiKey.signedLinksOnly')}</span>
        <span className="block text-zinc-600">{t('apiKey.signedLinksOnlyHint')}</span>
      </label>
    </div>
  );
}
