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
import { Link } from '@tanstack/react-router';
import { toast } from 'sonner';
import { Checkbox, FieldError, SelectField, TextField } from '../../components/ui/form-field.tsx';
import { currentLanguage } from '../../i18n/i18n.ts';
import { WebMessages } from '../../i18n/message-ids.ts';
import { ApiError } from '../../lib/api-client.ts';
import { fieldProps, useContractForm } from '../../lib/use-contract-form.ts';
import { authApi } from './auth-api.ts';
import { AuthCard } from './auth-card.tsx';
import { AuthForm, AuthLink } from './auth-form.tsx';
import { NewPasswordFields } from './new-password-fields.tsx';
import { useAuthPage } from './use-auth-page.ts';

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

// How the signup form asks where a user comes from: the field, its choices and their catalog keys.
const SOURCE_FIELDS = [
  { name: 'usageSource', values: USAGE_SOURCES, labels: 'usageSources' },
  { name: 'referralSource', values: REFERRAL_SOURCES, labels: 'referralSources' },
] as const;

const signupRules = (values: SignupValues) => ({
  name: nameProblem(values.name),
  password: newPasswordProblem(values.password),
  confirmPassword: confirmPasswordProblem(values.password, values.confirmPassword),
  plannedServices: plannedServicesProblem(values.plannedServices ?? []),
});

export function SignupPage() {
  const { t, text, navigate, busy, run } = useAuthPage();
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
        <TextField label={t('fields.name')} autoComplete="name" {...fieldProps(form, 'name')} />
        <TextField label={t('fields.email')} type="email" autoComplete="email" {...fieldProps(form, 'email')} />
        <NewPasswordFields form={form} label={t('fields.password')} />
        <TextField label={t('fields.company')} autoComplete="organization" {...fieldProps(form, 'company')} />
        {SOURCE_FIELDS.map(({ name, values, labels }) => (
          <SelectField
            key={name}
            label={t(`fields.${name}`)}
            placeholder={t('fields.choose')}
            options={values.map((value) => ({ value, label: t(`${labels}.${value}`) }))}
            {...fieldProps(form, name)}
          />
        ))}
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
