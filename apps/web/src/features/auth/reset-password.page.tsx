import { confirmPasswordProblem, newPasswordProblem, ResetPasswordBody } from '@render/contracts';
import { Link, useSearch } from '@tanstack/react-router';
import { toast } from 'sonner';
import { useContractForm } from '../../lib/use-contract-form.ts';
import { authApi } from './auth-api.ts';
import { AuthCard } from './auth-card.tsx';
import { AuthForm } from './auth-form.tsx';
import { NewPasswordFields } from './new-password-fields.tsx';
import { useAuthPage } from './use-auth-page.ts';

interface ResetValues {
  token: string;
  password: string;
  confirmPassword: string;
}

export function ResetPasswordPage() {
  const { t, text, navigate, busy, run } = useAuthPage();
  const search = useSearch({ strict: false }) as { token?: string };
  const form = useContractForm<ResetValues>(ResetPasswordBody, {
    defaultValues: { token: search.token ?? '', password: '', confirmPassword: '' },
    rules: (values) => ({
      password: newPasswordProblem(values.password),
      confirmPassword: confirmPasswordProblem(values.password, values.confirmPassword),
    }),
  });

  const submit = form.handleSubmit((values) =>
    run(async () => {
      const answer = await authApi.resetPassword(values);
      toast.success(text(answer.message));
      await navigate({ to: '/login' });
    }),
  );

  if (!search.token) {
    return (
      <AuthCard title={t('reset.title')}>
        <p className="text-sm text-zinc-700">{text('This password reset link is invalid or has expired. Please request a new one.')}</p>
        <Link to="/forgot-password" className="mt-4 inline-block text-sm font-medium text-accent-700 hover:underline">
          {t('reset.requestNew')}
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('reset.title')} subtitle={t('reset.subtitle')}>
      <AuthForm onSubmit={submit} busy={busy} submitLabel={t('reset.submit')}>
        <input type="hidden" {...form.register('token')} />
        <NewPasswordFields form={form} label={t('fields.newPassword')} />
      </AuthForm>
    </AuthCard>
  );
}
