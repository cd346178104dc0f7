import { EmailBody } from '@render/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../components/ui/form-field.tsx';
import { useMessageText } from '../../i18n/use-message.ts';
import { fieldProps, useContractForm } from '../../lib/use-contract-form.ts';
import { authApi } from './auth-api.ts';
import { AuthCard } from './auth-card.tsx';
import { AuthForm, AuthLink } from './auth-form.tsx';
import { useBusyAction } from './use-busy-action.ts';

export function ForgotPasswordPage() {
  const { t } = useTranslation('auth');
  const text = useMessageText();
  const { busy, run } = useBusyAction();
  const [sent, setSent] = useState<string | null>(null);
  const form = useContractForm<{ email: string }>(EmailBody, { defaultValues: { email: '' }, prepare: (v) => ({ email: v.email.trim() }) });

  const submit = form.handleSubmit(({ email }) =>
    run(async () => {
      setSent((await authApi.forgotPassword(email.trim())).message);
    }),
  );

  return (
    <AuthCard title={t('forgot.title')} subtitle={t('forgot.subtitle')} footer={<AuthLink to="/login" label={t('verify.backToLogin')} />}>
      {sent ? (
        <p className="rounded-md border border-green-200 bg-green-50 p-4 text-sm text-green-900" role="status">
          {text(sent)}
        </p>
      ) : (
        <AuthForm onSubmit={submit} busy={busy} submitLabel={t('forgot.submit')}>
          <TextField label={t('fields.email')} type="email" autoComplete="email" {...fieldProps(form, 'email')} />
        </AuthForm>
      )}
    </AuthCard>
  );
}
