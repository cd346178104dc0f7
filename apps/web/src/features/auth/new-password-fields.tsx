import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../components/ui/form-field.tsx';
import { fieldProps } from '../../lib/use-contract-form.ts';

interface PasswordValues extends FieldValues {
  password: string;
  confirmPassword: string;
}

/** A new password with its hint, then its confirmation (signup, reset); changing the first checks the second again. */
export function NewPasswordFields<T extends PasswordValues>({ form, label }: { form: UseFormReturn<T>; label: string }) {
  const { t } = useTranslation('auth');
  const passwordForm = form as unknown as UseFormReturn<PasswordValues>;
  return (
    <>
      <TextField
        label={label}
        type="password"
        autoComplete="new-password"
        hint={t('fields.passwordHint')}
        {...fieldProps(passwordForm, 'password', { deps: ['confirmPassword'] })}
      />
      <TextField
        label={t('fields.confirmPassword')}
        type="password"
        autoComplete="new-password"
        {...fieldProps(passwordForm, 'confirmPassword')}
      />
    </>
  );
}
