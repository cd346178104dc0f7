import {
  confirmPasswordProblem,
  nameProblem,
  newPasswordProblem,
  PLANNED_SERVICES,
  plannedServicesProblem,
  REFERRAL_SOURCES,
  SignupBody,
  USAGE_SOURCES,
} from '@render/contracts';
import { Link, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Checkbox, FieldError, SelectField, TextField } from '../../components/ui/form-field.tsx';
import { currentLanguage } from '../../i18n/i18n.ts';
import { WebMessages } from '../../i18n/message-ids.ts';
import { useMessageText } from '../../i18n/use-message.ts';
import { ApiError } from '../../lib/api-client.ts';
import { useContractForm } from '../../lib/use-contract-form.ts';
import { authApi } from './auth-api.ts';
import { AuthCard } from './auth-card.tsx';
import { AuthForm, AuthLink } from './auth-form.tsx';
import { useBusyAction } from './use-busy-action.ts';

export interface SignupValues {
  name: string;
  email: string;
  password: string;
  confirmPassword: string;
  company: string;
  usageSource: string;
  referralSource: string;
  plannedServices: string[];
  acceptTerms: boolean;
}

/** Form values → the signup body: an empty company is left out, an unticked box is `false`. */
export const signupBody = (values: SignupValues) => ({
  ...values,
  company: values.company.trim() || undefined,
  usageSource: values.usageSource || undefined,
  referralSource: values.referralSource || undefined,
  plannedServices: values.plannedServices ?? [],
  acceptTerms: values.acceptTerms === true,
});

const signupRules = (values: SignupValues) => ({
  name: nameProblem(values.name),
  password: newPasswordProblem(values.password),
  confirmPassword: confirmPasswordProblem(values.password, values.confirmPassword),
  plannedServices: plannedServicesProblem(values.plannedServices ?? []),
});

export function SignupPage() {
  const { t } = useTranslation('auth');
  const text = useMessageText();
  const navigate = useNavigate();
  const { busy, run } = useBusyAction();
  const form = useContractForm<SignupValues>(SignupBody, {
    rules: signupRules,
    prepare: signupBody,
    defaultValues: {
      name: '',
      email: '',
      password: '',
      confirmPassword: '',
      company: '',
      usageSource: '',
      referralSource: '',
      plannedServices: [],
      acceptTerms: false,
    },
  });
  const { errors } = form.formState;

  const submit = form.handleSubmit((values) =>
    run(
      async () => {
        // The account's mails (the code, later a reset link) are written in the language the app is shown in.
        // The form's resolver checked the prepared body against SignupBody (`useContractForm`) before this runs.
        const answer = await authApi.signup({ ...signupBody(values), language: currentLanguage() } as SignupBody);
        toast.success(text(answer.message));
        await navigate({ to: '/verify', search: { userId: answer.userId, email: values.email.trim() } as never });
      },
      (error) => {
        toast.error(text(error instanceof ApiError ? error : WebMessages.registrationFailed));
      },
    ),
  );

  return (
    <AuthCard
      title={t('signup.title')}
      subtitle={t('signup.subtitle')}
      footer={<AuthLink to="/login" question={t('signup.haveAccount')} label={t('signup.loginLink')} />}
    >
      <AuthForm onSubmit={submit} busy={busy} submitLabel={t('signup.submit')}>
        <TextField label={t('fields.name')} autoComplete="name" error={errors.name?.message} {...form.register('name')} />
        <TextField label={t('fields.email')} type="email" autoComplete="email" error={errors.email?.message} {...form.register('email')} />
        <TextField
          label={t('fields.password')}
          type="password"
          autoComplete="new-password"
          hint={t('fields.passwordHint')}
          error={errors.password?.message}
          {...form.register('password', { deps: ['confirmPassword'] })}
        />
        <TextField
          label={t('fields.confirmPassword')}
          type="password"
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
          {...form.register('confirmPassword')}
        />
        <TextField label={t('fields.company')} autoComplete="organization" error={errors.company?.message} {...form.register('company')} />
        <SelectField
          label={t('fields.usageSource')}
          placeholder={t('fields.choose')}
          options={USAGE_SOURCES.map((value) => ({ value, label: t(`usageSources.${value}`) }))}
          error={errors.usageSource?.message}
          {...form.register('usageSource')}
        />
        <SelectField
          label={t('fields.referralSource')}
          placeholder={t('fields.choose')}
          options={REFERRAL_SOURCES.map((value) => ({ value, label: t(`referralSources.${value}`) }))}
          error={errors.referralSource?.message}
          {...form.register('referralSource')}
        />
        <fieldset aria-describedby={errors.plannedServices ? 'plannedServices-error' : undefined}>
          <legend className="mb-2 text-sm font-medium text-zinc-800">{t('fields.plannedServices')}</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {PLANNED_SERVICES.map((value) => (
              <Checkbox
                key={value}
                id={`plannedServices-${value}`}
                value={value}
                label={t(`plannedServices.${value}`)}
                {...form.register('plannedServices')}
              />
            ))}
          </div>
          <FieldError id="plannedServices-error" message={errors.plannedServices?.message} />
        </fieldset>
        <div>
          <Checkbox
            id="acceptTerms"
            label={
              <>
                {t('fields.acceptTermsBefore')}{' '}
                <Link to={'/terms' as '/'} className="text-accent-700 underline">
                  {t('fields.termsLink')}
                </Link>
              </>
            }
            {...form.register('acceptTerms')}
          />
          <FieldError id="acceptTerms-error" message={errors.acceptTerms?.message} />
        </div>
      </AuthForm>
    </AuthCard>
  );
}
