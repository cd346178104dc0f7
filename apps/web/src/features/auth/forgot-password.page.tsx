import { EmailBody } from '@render/contracts';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/form-field.tsx';
import { useMessageText } from '../../i18n/use-message.ts';
import { useContractForm } from '../../lib/use-contract-form.ts';
import { authApi } from './auth-api.ts';
import { AuthCard } from './auth-card.tsx';

export function ForgotPasswordPage() {
  const { t } = useTranslation('auth');
  const text = useMessageText();
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const form = useContractForm<{ email: string }>(EmailBody, { defaultValues: { email: '' }, prepare: (v) => ({ email: v.email.trim() }) });

  const submit = form.handleSubmit(async ({ email }) => {
    setBusy(true);
    try {
      setSent((await authApi.forgotPassword(email.trim())).message);
    } catch (error) {
      toast.error(text(error));
    } finally {
      setBusy(false);
    }
  });

  return (
    <AuthCard
      title={t('forgot.title')}
      subtitle={t('forgot.subtitle')}
      footer={
        <Link to="/login" className="font-medium text-accent-700 hover:underline">
          {t('verify.backToLogin')}
        </Link>
      }
    >
      {sent ? (
        <p className="rounded-md border border-green-200 bg-green-50 p-4 text-sm text-green-900" role="status">
          {text(sent)}
        </p>
      ) : (
        <form onSubmit={submit} noValidate className="space-y-4">
          <TextField
            label={t('fields.email')}
            type="email"
            autoComplete="email"
            error={form.formState.errors.email?.message}
            {...form.register('email')}
          />
          <Button type="submit" busy={busy} className="w-full">
            {t('forgot.submit')}
          </Button>
        </form>
      )}
    </AuthCard>
  );
}
