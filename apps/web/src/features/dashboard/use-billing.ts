import { BillingMessages } from '@render/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { WebMessages } from '../../i18n/message-ids.ts';
import { useMessageText } from '../../i18n/use-message.ts';
import { useSessionStore } from '../../lib/session/session.context.tsx';
import { useBillingErrorText } from './billing-errors.ts';
import { dashboardApi, dashboardKeys, externalNavigation, FRESH } from './dashboard-api.ts';

/** docs/spec/errors.md texts the billing card shows. */
export const BillingTexts = {
  loadError: WebMessages.paymentInfoUnavailable,
  loadFailed: WebMessages.paymentInfoFailed,
  portalFailed: WebMessages.portalFailed,
  cancelFailed: WebMessages.cancelFailed,
  reactivateFailed: WebMessages.reactivateFailed,
  cancelled: BillingMessages.cancelled,
  reactivated: BillingMessages.reactivated,
} as const;

/**
 * The billing card's server state: the payment information (a toast once per failed load), the billing
 * portal, cancelling (asked first) and reactivating; each change refreshes the account's plan and usage.
 */
export function useBilling() {
  const message = useMessageText();
  const queryClient = useQueryClient();
  const store = useSessionStore();
  const info = useQuery({ queryKey: dashboardKeys.paymentInfo, queryFn: dashboardApi.paymentInfo, ...FRESH });
  const [confirmCancel, setConfirmCancel] = useState(false);

  // The spec's toast for a failed load, once per failure; the card says it inline too.
  const failedAt = info.isError ? info.errorUpdatedAt : 0;
  // biome-ignore lint/correctness/useExhaustiveDependencies: one toast per failed load, not per render.
  useEffect(() => {
    if (failedAt) toast.error(message(BillingTexts.loadFailed), { id: 'payment-info-error' });
  }, [failedAt]);

  const explain = useBillingErrorText();
  const failure = (text: string) => (error: unknown) => toast.error(message(text), { description: explain(error) });
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: dashboardKeys.paymentInfo });
    await queryClient.invalidateQueries({ queryKey: dashboardKeys.usage });
    await store.reloadUser().catch(() => undefined);
  };

  const portal = useMutation({
    mutationFn: dashboardApi.manageBilling,
    onSuccess: (url) => externalNavigation.go(url),
    onError: failure(BillingTexts.portalFailed),
  });
  const cancel = useMutation({
    mutationFn: dashboardApi.cancelSubscription,
    onSuccess: async () => {
      setConfirmCancel(false);
      toast.success(message(BillingTexts.cancelled));
      await refresh();
    },
    onError: failure(BillingTexts.cancelFailed),
  });
  const reactivate = useMutation({
    mutationFn: dashboardApi.reactivateSubscription,
    onSuccess: async () => {
      toast.success(message(BillingTexts.reactivated));
      await refresh();
    },
    onError: failure(BillingTexts.reactivateFailed),
  });

  return { info, explain, portal, cancel, reactivate, confirmCancel, setConfirmCancel };
}

export type Billing = ReturnType<typeof useBilling>;
