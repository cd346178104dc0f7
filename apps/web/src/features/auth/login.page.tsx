import { LoginBody } from '@render/contracts';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/form-field.tsx';
import { useMessageText } from '../../i18n/use-message.ts';
import { ApiError } from '../../lib/api-client.ts';
import { useSessionStore } from '../../lib/session/session.context.tsx';
import { useContractForm } from '../../lib/use-contract-form.ts';
import { authApi } from './auth-api.ts';
import { AuthCard } from './auth-card.tsx';
import { safeRedirect } from './safe-redirect.ts';

interface LoginValues {
  email: string;
  password: string;
}

export function LoginPage() {
  const { t } = useTranslation('auth');
  const text = useMessageText();
  const navigate = useNavigate();
  const session = useSessionStore();
  const search = useSearch({ strict: false }) as { redirect?: string };
  const [busy, setBusy] = useState(false);
  const form = useContractForm<LoginValues>(LoginBody, { defaultValues: { email: '', password: '' } });
  const { errors } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    setBusy(true);
    try {
      const answer = await authApi.login(values);
      session.signIn(answer.token, answer.user);
      toast.success(text(answer.message ?? 'Login successful!'));
      await navigate({ to: safeRedirect(search.redirect) as '/' });
    } catch (error) {
      const userId = error instanceof ApiError ? (error.data as { userId?: unknown } | undefined)?.userId : undefined;
      // docs/spec/states.md: an unverified account's answer carries userId: show the server's message, then verify.
      if (typeof userId === 'string') {
        toast.info(text(error));
        await navigate({ to: '/verify', search: { userId, email: values.email } as never });
        return;
      }
      toast.error(text(error instanceof ApiError ? error : 'An error occurred during login'));
    } finally {
      setBusy(false);
    }
  });

  return (
    <AuthCard
      title={t('login.title')}
      subtitle={t('login.subtitle')}
      footer={
        <>
          {t('login.noAccount')}{' '}
          <Link to="/signup" className="font-medium text-accent-700 hover:underline">
            {t('login.signupLink')}
          </Link>
        </>
      }
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        <TextField label={t('fields.email')} type="email" autoComplete="email" error={errors.email?.message} {...form.register('email')} />
        <TextField
          label={t('fields.password')}
          type="password"
          autoComplete="current-password"
          error={errors.password?.message}
          {...form.register('password')}
        />
        <div className="flex justify-end">
          <Link to="/forgot-password" className="text-sm text-accent-700 hover:underline">
            {t('login.forgot')}
          </Link>
        </div>
        <Button type="submit" busy={busy} className="w-full">
          {t('login.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}
