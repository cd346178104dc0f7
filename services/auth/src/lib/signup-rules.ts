import { AppError, AuthMessages, NAME_MIN, PASSWORD_MIN } from '@render/contracts';

const fail = (message: string): never => {
  throw new AppError('VALIDATION_ERROR', message);
};

export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

export function checkName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) fail(AuthMessages.nameRequired);
  if ([...trimmed].length < NAME_MIN) fail(AuthMessages.nameTooShort);
  return trimmed;
}

/** Spec §5 password rules, in the order the web form reports them. */
export function checkNewPassword(password: string, confirmPassword: string): void {
  if (password.length < PASSWORD_MIN) fail(AuthMessages.passwordTooShort);
  if (!/[A-Z]/.test(password) || !/[a-z]/.test(password) || !/[0-9]/.test(password)) fail(AuthMessages.passwordWeak);
  if (password !== confirmPassword) fail(AuthMessages.passwordsMismatch);
}

export function checkPlannedServices<T extends string>(services: T[]): T[] {
  const unique = [...new Set(services)];
  if (unique.length === 0) fail(AuthMessages.plannedServices);
  return unique;
}
