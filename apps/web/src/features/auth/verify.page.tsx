import { AuthMessages, EmailBody, VerifyBody } from '@render/contracts';
import { useSearch } from '@tanstack/react-router';
import { toast } from 'sonner';
import { Type } from 'typebox';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/form-field.tsx';
import { useSessionStore } from '../../lib/session/session.context.tsx';
import { fieldProps, useContractForm } from '../../lib/use-contract-form.ts';
import { authApi } from './auth-api.ts';
import { AuthCard } from './auth-card.tsx';
import { AuthForm, AuthLink } from './auth-form.tsx';
import { useAuthPage } from './use-auth-page.ts';
import { useBusyAction } from './use-busy-action.ts';

// The code field of the verify contract, with the e-mail (for a new code) next to it.
const VerifyForm = Type.Object({
  verificationCode: VerifyBody.properties.verificationCode,
  email: Type.Optional(EmailBody.properties.email),
});

interface VerifyValues {
  verificationCode: string;
  email: string;
}

export function VerifyPage() {
  const { t, text, navigate, busy, run } = useAuthPage();
  const session = useSessionStore();
  const search = useSearch({ strict: false }) as { userId?: string; email?: string };
  const resending = useBusyAction();
  const form = useContractForm<VerifyValues>(VerifyForm, {
    defaultValues: { verificationCode: '', email: search.email ?? '' },
    prepare: (values) => ({ verificationCode: values.verificationCode.trim(), email: values.email.trim() || undefined }),
  });

  const submit = form.handleSubmit(async (values) => {
    if (!search.userId) {
      toast.error(text(AuthMessages.verificationInvalid));
      return;
    }
    const userId = search.userId;
    await run(async () => {
      const answer = await authApi.verify({ userId, verificationCode: values.verificationCode.trim() });
      session.signIn(answer.token, answer.user);
      toast.success(text(answer.message ?? 'Email verified successfully!'));
      await navigate({ to: '/dashboard' });
    });
  });

  const resend = async () => {
    const email = form.getValues('email').trim();
    if (!email) {
      form.setError('email', { message: 'Email is required' });
      return;
    }
    await resending.run(async () => {
      const answer = await authApi.resend(email);
      toast.success(text(answer.message));
    });
  };

  return (
    <AuthCard
      title={t('verify.title')}
      subtitle={search.email ? t('verify.subtitleWithEmail', { email: search.email }) : t('verify.subtitle')}
      footer={<AuthLink to="/login" label={t('verify.backToLogin')} />}
    >
      <AuthForm
        onSubmit={submit}
        busy={busy}
        submitLabel={t('verify.submit')}
        after={
          <div className="border-t border-zinc-200 pt-4">
            <p className="mb-3 text-sm text-zinc-600">{t('verify.noCode')}</p>
            <TextField label={t('fields.email')} type="email" autoComplete="email" {...fieldProps(form, 'email')} />
            <Button variant="secondary" busy={resending.busy} className="mt-3 w-full" onClick={resend}>
              {t('verify.resend')}
            </Button>
          </div>
        }
      >
        <TextField
          label={t('fields.verificationCode')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={16}
          {...fieldProps(form, 'verificationCode')}
        />
      </AuthForm>
    </AuthCard>
  );
}
