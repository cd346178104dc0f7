import { useMutation } from '@tanstack/react-query';
import { Check, Copy, Eye, EyeOff, KeyRound, RefreshCw, Terminal } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { CopyButton } from '../../components/copy-button.tsx';
import { Button } from '../../components/ui/button.tsx';
import { WebMessages } from '../../i18n/message-ids.ts';
import { useMessageText } from '../../i18n/use-message.ts';
import { useSession, useSessionStore } from '../../lib/session/session.context.tsx';
import { dashboardApi } from './dashboard-api.ts';
import { Card } from './dashboard-ui.tsx';
import { RenderLinksSetting } from './render-links-setting.tsx';

/** The key's public prefix stays readable; the secret part is hidden until revealed. */
export const maskKey = (key: string) => `${key.slice(0, 8)}${'•'.repeat(16)}`;

/**
 * The API key (docs/spec/entities.md): masked, revealed on demand, copied with a toast, regenerated after a
 * confirmation that says the old key stops working at once.
 */
export function ApiKeyCard({ title }: { title?: string }) {
  const { t } = useTranslation('dashboard');
  const common = useTranslation().t;
  const message = useMessageText();
  const session = useSession();
  const store = useSessionStore();
  const apiKey = session.status === 'signedIn' ? session.user.apiKey : null;
  const [revealed, setRevealed] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [copied, setCopied] = useState(false);
  const [rotated, setRotated] = useState(false);

  const regenerate = useMutation({
    mutationFn: dashboardApi.regenerateKey,
    onSuccess: (newKey) => {
      const state = store.getState();
      if (state.status === 'signedIn') store.signIn(state.token, { ...state.user, apiKey: newKey });
      setConfirming(false);
      setRevealed(true);
      setRotated(true);
      toast.success(t('apiKey.regenerated'));
    },
    onError: (error) => toast.error(message(error)),
  });

  const copy = async () => {
    if (!apiKey) return;
    try {
      await navigator.clipboard.writeText(apiKey);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
      toast.success(t('apiKey.copied'));
    } catch {
      toast.error(common('copy.failed'));
    }
  };

  return (
    <Card title={title ?? t('apiKey.title')} icon={<KeyRound className="size-4 text-zinc-500" aria-hidden />} testId="api-key-card">
      <p className="mb-3 text-sm text-zinc-600">{t('apiKey.intro')}</p>
      <div className="flex min-w-0 items-center gap-2 rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2.5">
        <code className="min-w-0 flex-1 break-all font-mono text-sm text-zinc-900" data-testid="api-key" aria-live="polite">
          {apiKey ? (revealed ? apiKey : maskKey(apiKey)) : t('noApiKey')}
        </code>
        {apiKey && (
          <button
            type="button"
            onClick={() => setRevealed((r) => !r)}
            className="shrink-0 rounded-md p-1.5 text-zinc-600 hover:bg-zinc-200 hover:text-zinc-900"
            aria-label={revealed ? t('apiKey.hide') : t('apiKey.reveal')}
            aria-pressed={revealed}
            title={revealed ? t('apiKey.hide') : t('apiKey.reveal')}
          >
            {revealed ? <EyeOff className="size-4" aria-hidden /> : <Eye className="size-4" aria-hidden />}
          </button>
        )}
      </div>
      {rotated && (
        <p
          className="mt-3 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
          role="status"
          data-testid="api-key-rotated"
        >
          {t('apiKey.rotatedNotice')}
        </p>
      )}
      <div className="mt-4 flex flex-wrap gap-2">
        <Button variant="secondary" onClick={copy} disabled={!apiKey}>
          {copied ? <Check className="size-4" aria-hidden /> : <Copy className="size-4" aria-hidden />}
          {t('apiKey.copy')}
        </Button>
        <Button variant="secondary" onClick={() => setConfirming(true)}>
          <RefreshCw className="size-4" aria-hidden />
          {t('apiKey.regenerate')}
        </Button>
      </div>
      <RenderLinksSetting />
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t('apiKey.confirmTitle')}
        confirmLabel={t('apiKey.confirmAction')}
        cancelLabel={t('confirm.keep')}
        onConfirm={() => regenerate.mutate()}
        busy={regenerate.isPending}
      >
        <p>{t('apiKey.confirmBody')}</p>
        <p className="font-medium text-zinc-900">{t('apiKey.confirmUndo')}</p>
      </ConfirmDialog>
    </Card>
  );
}

/** How to send the key: one curl call, copyable. */
export function ApiKeyUsageCard() {
  const { t } = useTranslation('dashboard');
  const snippet = `curl -sS --fail-with-body -X POST ${typeof window === 'undefined' ? '' : window.location.origin}/api/html-to-img/convert \\
  -H "X-API-Key: $RENDER_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"html":"<h1>Hello</h1>","format":"png"}' -o hello.png`;
  return (
    <Card
      title={t('apiKey.howToTitle')}
      icon={<Terminal className="size-4 text-zinc-500" aria-hidden />}
      action={<CopyButton text={snippet} toastMessage={WebMessages.codeCopied} tone="light" />}
    >
      <p className="mb-3 text-sm text-zinc-600">{t('apiKey.howToBody')}</p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe) */}
      <pre className="overflow-x-auto rounded-md bg-zinc-900 p-4 font-mono text-xs leading-relaxed text-zinc-100" tabIndex={0}>
        <code>{snippet}</code>
      </pre>
    </Card>
  );
}
