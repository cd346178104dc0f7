import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Eye, EyeOff, RefreshCw, Webhook } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { CopyButton } from '../../components/copy-button.tsx';
import { Button } from '../../components/ui/button.tsx';
import { useMessageText } from '../../i18n/use-message.ts';
import { dashboardApi, dashboardKeys, FRESH, type WebhookDelivery } from './dashboard-api.ts';
import { Badge, Card, ErrorNote, LoadingBlock } from './dashboard-ui.tsx';
import { formatDateTime } from './format.ts';

/** The secret's prefix stays readable; the rest is hidden until revealed. */
const maskSecret = (secret: string) => `${secret.slice(0, 6)}${'•'.repeat(16)}`;

/**
 * Webhooks of async renders: the signing secret (shown, copied, rotated after a confirmation) and the
 * latest delivery attempts with what each webhook answered.
 */
export function WebhooksCard() {
  const { t, i18n } = useTranslation('dashboard');
  const message = useMessageText();
  const queryClient = useQueryClient();
  const [revealed, setRevealed] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const secret = useQuery({ queryKey: dashboardKeys.webhookSecret, queryFn: dashboardApi.webhookSecret });
  const deliveries = useQuery({ queryKey: dashboardKeys.webhookDeliveries, queryFn: dashboardApi.webhookDeliveries, ...FRESH });

  const rotate = useMutation({
    mutationFn: dashboardApi.rotateWebhookSecret,
    onSuccess: (next) => {
      queryClient.setQueryData(dashboardKeys.webhookSecret, next);
      setConfirming(false);
      setRevealed(true);
      toast.success(t('webhooks.rotated'));
    },
    onError: (error) => toast.error(message(error)),
  });

  return (
    <Card title={t('webhooks.title')} icon={<Webhook className="size-4 text-zinc-500" aria-hidden />} testId="webhooks-card">
      <p className="mb-3 text-sm text-zinc-600">{t('webhooks.intro')}</p>
      {secret.isPending ? (
        <LoadingBlock label={t('loading')} lines={1} />
      ) : secret.isError ? (
        <ErrorNote>{t('webhooks.secretError')}</ErrorNote>
      ) : (
        <div className="flex min-w-0 items-center gap-2 rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2.5">
          <code className="min-w-0 flex-1 break-all font-mono text-sm text-zinc-900" data-testid="webhook-secret" aria-live="polite">
            {revealed ? secret.data : maskSecret(secret.data)}
          </code>
          <button
            type="button"
            onClick={() => setRevealed((r) => !r)}
            className="shrink-0 rounded-md p-1.5 text-zinc-600 hover:bg-zinc-200 hover:text-zinc-900"
            aria-label={revealed ? t('webhooks.hide') : t('webhooks.reveal')}
            aria-pressed={revealed}
            title={revealed ? t('webhooks.hide') : t('webhooks.reveal')}
          >
            {revealed ? <EyeOff className="size-4" aria-hidden /> : <Eye className="size-4" aria-hidden />}
          </button>
          <CopyButton text={secret.data} toastMessage={t('webhooks.copied')} tone="light" />
        </div>
      )}
      <div className="mt-4 flex flex-wrap gap-2">
        <Button variant="secondary" onClick={() => setConfirming(true)} disabled={!secret.isSuccess}>
          <RefreshCw className="size-4" aria-hidden />
          {t('webhooks.rotate')}
        </Button>
      </div>

      <h3 className="mt-6 mb-2 text-sm font-medium text-zinc-900">{t('webhooks.deliveriesTitle')}</h3>
      {deliveries.isPending ? (
        <LoadingBlock label={t('loading')} lines={3} />
      ) : deliveries.isError ? (
        <ErrorNote>{t('webhooks.deliveriesError')}</ErrorNote>
      ) : deliveries.data.length === 0 ? (
        <p className="text-sm text-zinc-600">{t('webhooks.empty')}</p>
      ) : (
        <ul className="divide-y divide-zinc-100" data-testid="webhook-deliveries">
          {deliveries.data.map((delivery) => (
            <DeliveryItem key={`${delivery.renderId}-${delivery.attempt}`} delivery={delivery} language={i18n.language} />
          ))}
        </ul>
      )}

      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t('webhooks.confirmTitle')}
        confirmLabel={t('webhooks.confirmAction')}
        cancelLabel={t('confirm.keep')}
        onConfirm={() => rotate.mutate()}
        busy={rotate.isPending}
      >
        <p>{t('webhooks.confirmBody')}</p>
        <p className="font-medium text-zinc-900">{t('apiKey.confirmUndo')}</p>
      </ConfirmDialog>
    </Card>
  );
}

function DeliveryItem({ delivery, language }: { delivery: WebhookDelivery; language: string }) {
  const { t } = useTranslation('dashboard');
  const outcome = delivery.ok
    ? t('webhooks.delivered', { status: delivery.statusCode })
    : delivery.statusCode !== undefined
      ? t('webhooks.answered', { status: delivery.statusCode })
      : delivery.errorCode
        ? t(`webhooks.errors.${delivery.errorCode}`)
        : (delivery.error ?? t('webhooks.noAnswer'));
  return (
    <li className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2 text-sm">
      <span className="min-w-0 flex-1">
        <span className="block truncate font-mono text-xs text-zinc-900" title={delivery.url}>
          {delivery.url}
        </span>
        <span className="block text-xs text-zinc-600">
          {formatDateTime(delivery.at, language)} · {t('webhooks.attempt', { n: delivery.attempt })} · {outcome}
        </span>
      </span>
      <Badge tone={delivery.ok ? 'success' : delivery.final ? 'neutral' : 'warning'}>
        {delivery.ok ? t('webhooks.ok') : delivery.final ? t('webhooks.failed') : t('webhooks.retrying')}
      </Badge>
    </li>
  );
}
