import { useMutation } from '@tanstack/react-query';
import { CreditCard, ExternalLink, Sparkles } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { useMessageText } from '../../i18n/use-message.ts';
import { usePlanLimits } from '../../lib/plan-limits.ts';
import { FREE_CREDITS_PER_30_DAYS, formatPrice, PRO_MONTHLY_PRICE } from '../pricing/plans.ts';
import { useBillingErrorText } from './billing-errors.ts';
import { dashboardApi, externalNavigation, type PaymentInfo } from './dashboard-api.ts';
import { Badge, Card, ErrorNote, LoadingBlock, Stat } from './dashboard-ui.tsx';
import { formatDate, formatMoney } from './format.ts';
import { type Billing, BillingTexts, useBilling } from './use-billing.ts';

type Interval = 'month' | 'year';

/** docs/spec/entities.md, states.md subscription: plan and status, price, period, next billing date, payment methods; upgrade, manage, cancel, reactivate. */
export function BillingCard() {
  const { t } = useTranslation('dashboard');
  const message = useMessageText();
  const billing = useBilling();
  const { info, explain } = billing;
  const data = info.data;
  return (
    <Card
      title={t('billing.title')}
      icon={<CreditCard className="size-4 text-zinc-500" aria-hidden />}
      action={data?.testMode ? <TestModeBadge /> : undefined}
      testId="billing-card"
    >
      {info.isPending ? (
        <LoadingBlock label={t('loading')} lines={4} />
      ) : info.isError ? (
        <ErrorNote testId="billing-error">
          <span className="block font-medium">{message(BillingTexts.loadError)}</span>
          <span className="mt-1 block" data-testid="billing-error-detail">
            {explain(info.error)}
          </span>
        </ErrorNote>
      ) : data && (data.plan === 'free' || !data.status || data.status === 'canceled') ? (
        <FreePlan data={data} />
      ) : (
        data && <PaidPlan data={data} billing={billing} />
      )}
    </Card>
  );
}

/** A paid subscription: plan, price, period and next date, its status and notices, payment methods, and what can be done with it. */
function PaidPlan({ data, billing }: { data: PaymentInfo; billing: Billing }) {
  const { t, i18n } = useTranslation('dashboard');
  const lng = i18n.language;
  const { portal, reactivate, cancel, confirmCancel, setConfirmCancel } = billing;
  return (
    <div className="space-y-6">
      <dl className="grid grid-cols-2 gap-x-4 gap-y-5 md:grid-cols-4">
        <Stat label={t('billing.plan')} value={t(`plans.${data.plan}`)} testId="billing-plan" />
        <Stat
          label={t('billing.price')}
          value={data.price !== null && data.currency ? formatMoney(data.price, data.currency, lng) : '—'}
          testId="billing-price"
        />
        <Stat
          label={t('billing.period')}
          size="md"
          value={data.interval ? t(`billing.intervals.${data.interval}`) : '—'}
          testId="billing-period"
        />
        <Stat
          label={data.status === 'cancelling' ? t('billing.endsOn') : t('billing.nextBilling')}
          size="md"
          value={data.nextBillingDate ? formatDate(data.nextBillingDate, lng) : '—'}
          testId="billing-next"
        />
      </dl>
      <div className="flex flex-wrap items-center gap-2 text-sm text-zinc-700">
        <span>{t('billing.status')}</span>
        <span data-testid="billing-status">
          <Badge tone={data.status === 'active' ? 'success' : 'warning'}>{t(`billing.statuses.${data.status}`)}</Badge>
        </span>
      </div>
      {data.status === 'cancelling' && (
        <p className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900" data-testid="billing-cancel-notice">
          {data.nextBillingDate
            ? t('billing.cancellingNotice', { date: formatDate(data.nextBillingDate, lng) })
            : t('billing.cancellingNoticeNoDate')}
        </p>
      )}
      {data.status === 'past_due' && (
        <p className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">{t('billing.pastDueNotice')}</p>
      )}
      <PaymentMethods methods={data.paymentMethods} />
      <div className="flex flex-wrap gap-2 border-t border-zinc-100 pt-5">
        <Button variant="secondary" onClick={() => portal.mutate()} busy={portal.isPending}>
          <ExternalLink className="size-4" aria-hidden />
          {t('billing.manage')}
        </Button>
        {data.status === 'cancelling' ? (
          <Button onClick={() => reactivate.mutate()} busy={reactivate.isPending}>
            {t('billing.reactivate')}
          </Button>
        ) : (
          <button
            type="button"
            className="inline-flex items-center justify-center gap-2 rounded-md px-4 py-2 text-sm font-medium text-red-700 transition-colors hover:bg-red-50"
            onClick={() => setConfirmCancel(true)}
          >
            {t('billing.cancel')}
          </button>
        )}
      </div>
      <ConfirmDialog
        open={confirmCancel}
        onOpenChange={setConfirmCancel}
        title={t('billing.cancelTitle')}
        confirmLabel={t('billing.cancelConfirm')}
        cancelLabel={t('confirm.keep')}
        onConfirm={() => cancel.mutate()}
        busy={cancel.isPending}
      >
        <p>
          {data.nextBillingDate ? t('billing.cancelBody', { date: formatDate(data.nextBillingDate, lng) }) : t('billing.cancelBodyNoDate')}
        </p>
        <p className="font-medium text-zinc-900">{t('billing.cancelUndo')}</p>
      </ConfirmDialog>
    </div>
  );
}

/** Billing against Stripe's test mode or the development stand-in: nothing here charges a real card. */
function TestModeBadge() {
  const { t } = useTranslation('dashboard');
  return (
    <span className="flex items-center gap-2 text-xs text-zinc-600" data-testid="billing-test-mode">
      <Badge tone="warning">{t('billing.testMode')}</Badge>
      <span className="hidden sm:inline">{t('billing.testModeHint')}</span>
    </span>
  );
}

function PaymentMethods({ methods }: { methods: PaymentInfo['paymentMethods'] }) {
  const { t } = useTranslation('dashboard');
  return (
    <div>
      <h3 className="mb-2 text-xs font-medium uppercase tracking-wide text-zinc-600">{t('billing.paymentMethods')}</h3>
      {methods.length === 0 ? (
        <p className="text-sm text-zinc-600">{t('billing.noPaymentMethods')}</p>
      ) : (
        <ul className="divide-y divide-zinc-100 rounded-md border border-zinc-200">
          {methods.map((method) => (
            <li
              key={`${method.brand}-${method.last4}-${method.expMonth}-${method.expYear}`}
              className="flex flex-wrap items-center justify-between gap-2 px-3 py-2.5 text-sm"
              data-testid="payment-method"
            >
              <span className="flex items-center gap-2 font-medium text-zinc-900">
                <CreditCard className="size-4 text-zinc-500" aria-hidden />
                <span className="capitalize">{method.brand}</span>
                <span className="font-mono">•••• {method.last4}</span>
              </span>
              <span className="flex items-center gap-2 text-zinc-600">
                {t('billing.expires', { date: `${String(method.expMonth).padStart(2, '0')}/${method.expYear}` })}
                {method.isDefault && <Badge tone="accent">{t('billing.default')}</Badge>}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The free plan and the way to Pro: monthly or yearly, paid in the reader's currency (USD en, EUR fr). */
function FreePlan({ data }: { data: PaymentInfo }) {
  const { t, i18n } = useTranslation('dashboard');
  const explain = useBillingErrorText();
  const [interval, setChosen] = useState<Interval>('month');
  const name = useId();
  // The launch period lifts the Free plan's limit: say what the gateway says, the plan's rule until it has.
  const { data: limits } = usePlanLimits();
  const freeCredits = limits ? limits.plans.free.credits : FREE_CREDITS_PER_30_DAYS;
  const upgrade = useMutation({
    mutationFn: () => dashboardApi.upgrade({ interval, currency: i18n.language.startsWith('fr') ? 'eur' : 'usd' }),
    onSuccess: ({ url }) => externalNavigation.go(url),
    onError: (error) => toast.error(t('billing.upgradeFailed'), { description: explain(error) }),
  });
  const options: Array<{ value: Interval; label: string; hint: string }> = [
    {
      value: 'month',
      label: t('billing.intervals.month'),
      hint: t('billing.monthlyHint', { price: formatPrice(PRO_MONTHLY_PRICE, i18n.language) }),
    },
    { value: 'year', label: t('billing.intervals.year'), hint: t('billing.yearlyHint') },
  ];
  return (
    <div className="space-y-6">
      <dl className="grid grid-cols-2 gap-x-4 gap-y-5 md:grid-cols-4">
        <Stat label={t('billing.plan')} value={t(`plans.${data.plan}`)} testId="billing-plan" />
        <Stat label={t('billing.price')} value={data.plan === 'free' ? formatPrice(0, i18n.language) : '—'} testId="billing-price" />
        <Stat
          label={t('billing.credits')}
          value={data.plan === 'free' && freeCredits !== null ? freeCredits : t('usage.unlimited')}
          hint={t('billing.creditsHint')}
          testId="billing-credits"
        />
      </dl>
      {data.status === 'canceled' && <p className="text-sm text-zinc-600">{t('billing.endedNotice')}</p>}
      {data.plan === 'free' && (
        <div className="rounded-lg border border-accent-100 bg-accent-50/50 p-4 sm:p-5">
          <h3 className="flex items-center gap-2 font-semibold text-zinc-900">
            <Sparkles className="size-4 text-accent-600" aria-hidden />
            {t('billing.upgradeTitle')}
          </h3>
          <p className="mt-1 text-sm text-zinc-700">{t('billing.upgradeBody')}</p>
          <fieldset className="mt-4">
            <legend className="sr-only">{t('billing.period')}</legend>
            <div className="grid gap-2 sm:grid-cols-2">
              {options.map((option) => (
                <label
                  key={option.value}
                  className="flex cursor-pointer items-start gap-3 rounded-md border border-zinc-200 bg-white p-3 has-[:checked]:border-accent-600 has-[:checked]:ring-1 has-[:checked]:ring-accent-600"
                >
                  <input
                    type="radio"
                    name={name}
                    value={option.value}
                    checked={interval === option.value}
                    onChange={() => setChosen(option.value)}
                    className="mt-1 accent-accent-600"
                  />
                  <span>
                    <span className="block text-sm font-medium text-zinc-900">{option.label}</span>
                    <span className="block text-xs text-zinc-600">{option.hint}</span>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          <Button className="mt-4" onClick={() => upgrade.mutate()} busy={upgrade.isPending}>
            {t('billing.upgrade')}
          </Button>
        </div>
      )}
    </div>
  );
}
