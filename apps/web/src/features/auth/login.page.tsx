import { LoginBody } from '@render/contracts';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { TextField } from '../../components/ui/form-field.tsx';
import { WebMessages } from '../../i18n/message-ids.ts';
import { useMessageText } from '../../i18n/use-message.ts';
import { ApiError } from '../../lib/api-client.ts';
import { useSessionStore } from '../../lib/session/session.context.tsx';
import { useContractForm } from '../../lib/use-contract-form.ts';
import { authApi } from './auth-api.ts';
import { AuthCard } from './auth-card.tsx';
import { AuthForm, AuthLink } from './auth-form.tsx';
import { safeRedirect } from './safe-redirect.ts';
import { useBusyAction } from './use-busy-action.ts';

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
  const { busy, run } = useBusyAction();
  const form = useContractForm<LoginValues>(LoginBody, { defaultValues: { email: '', password: '' } });
  const { errors } = form.formState;

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
      </AuthForm>
    </AuthCard>
  );
}
