import { LoginBody } from '@render/contracts';
import { Link, useSearch } from '@tanstack/react-router';
import { toast } from 'sonner';
import type { Static } from 'typebox';
import { TextField } from '../../components/ui/form-field.tsx';
import { WebMessages } from '../../i18n/message-ids.ts';
import { ApiError } from '../../lib/api-client.ts';
import { useSessionStore } from '../../lib/session/session.context.tsx';
import { fieldProps, useContractForm } from '../../lib/use-contract-form.ts';
import { authApi } from './auth-api.ts';
import { AuthCard } from './auth-card.tsx';
import { AuthForm, AuthLink } from './auth-form.tsx';
import { safeRedirect } from './safe-redirect.ts';
import { useAuthPage } from './use-auth-page.ts';

type LoginValues = Static<typeof LoginBody>;

export function LoginPage() {
  const { t, text, navigate, busy, run } = useAuthPage();
  const session = useSessionStore();
  const search = useSearch({ strict: false }) as { redirect?: string };
  const form = useContractForm<LoginValues>(LoginBody, { defaultValues: { email: '', password: '' } });

  const submit = form.handleSubmit((values) =>
    run(
      async () => {
        const answer = await authApi.login(values);
        session.signIn(answer.token, answer.user);
        toast.success(text(answer.message ?? 'Login successful!'));
        await navigate({ to: safeRedirect(search.redirect) as '/' });
      },
      async (error) => {
        const userId = error instanceof ApiError ? (error.data as { userId?: unknown } | undefined)?.userId : undefined;
        // docs/spec/states.md: an unverified account's answer carries userId: show the server's message, then verify.
        if (typeof userId === 'string') {
          toast.info(text(error));
          await navigate({ to: '/verify', search: { userId, email: values.email } as never });
          return;
        }
        toast.error(text(error instanceof ApiError ? error : WebMessages.loginFailed));
      },
    ),
  );

  return (
    <AuthCard
      title={t('login.title')}
      subtitle={t('login.subtitle')}
      footer={<AuthLink to="/signup" question={t('login.noAccount')} label={t('login.signupLink')} />}
    >
      <AuthForm onSubmit={submit} busy={busy} submitLabel={t('login.submit')}>
        <TextField label={t('fields.email')} type="email" autoComplete="email" {...fieldProps(form, 'email')} />
        <TextField label={t('fields.password')} type="password" autoComplete="current-password" {...fieldProps(form, 'password')} />
        <div className="flex justify-end">
          <Link to="/forgot-password" className="text-sm text-accent-700 hover:underline">
            {t('login.forgot')}
          </Link>
        </div>
      </AuthForm>
    </AuthCard>
  );
}
