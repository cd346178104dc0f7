import { useTranslation } from 'react-i18next';
import { useMessageText } from '../../i18n/use-message.ts';
import { ApiError, errorText } from '../../lib/api-client.ts';

/** Server error codes the billing screens explain in their own words (`billing.errors.<code>` in the dashboard catalog). */
const EXPLAINED = ['BILLING_NOT_CONFIGURED', 'SERVICE_UNAVAILABLE', 'UNAUTHORIZED', 'RATE_LIMITED'] as const;

/** The `code` of a failed call's problem body, or `NO_RESPONSE` when nothing answered. */
export function errorCode(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (error.status === 0) return 'NO_RESPONSE';
  const code = (error.data as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * What a billing failure means for the reader, chosen by the answer's `code` rather than its English text:
 * "billing is not configured" says who can fix it and how, an outage says to come back later. Other answers
 * keep the server's message (translated when the catalog knows it).
 */
export function useBillingErrorText(): (error: unknown) => string {
  const { t } = useTranslation('dashboard');
  const message = useMessageText();
  return (error) => {
    const code = errorCode(error);
    if (code && (EXPLAINED as readonly string[]).includes(code)) return t(`billing.errors.${code}`);
    return message(errorText(error));
  };
}

/** Whether a failure is the deployment having no billing at all (nothing to retry; the operator must act). */
export const billingNotConfigured = (error: unknown) => errorCode(error) === 'BILLING_NOT_CONFIGURED';
