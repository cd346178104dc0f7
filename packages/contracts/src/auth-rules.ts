import { AuthMessages, NAME_MIN, PASSWORD_MIN } from './auth.ts';

/**
 * Signup rules a JSON schema cannot word well (trimmed emptiness, strength in the form's order, the
 * confirmation match, an empty service list): the account service refuses with them and the web form
 * shows them before sending. Each answers the spec's message, or undefined when the value is fine.
 */
export function nameProblem(name: string): string | undefined {
  const trimmed = name.trim();
  if (!trimmed) return AuthMessages.nameRequired;
  if ([...trimmed].length < NAME_MIN) return AuthMessages.nameTooShort;
  return undefined;
}

export function newPasswordProblem(password: string): string | undefined {
  if (!password) return AuthMessages.passwordRequired;
  if (password.length < PASSWORD_MIN) return AuthMessages.passwordTooShort;
  if (!/[A-Z]/.test(password) || !/[a-z]/.test(password) || !/[0-9]/.test(password)) return AuthMessages.passwordWeak;
  return undefined;
}

export function confirmPasswordProblem(password: string, confirmPassword: string): string | undefined {
  if (!confirmPassword) return AuthMessages.confirmRequired;
  return password === confirmPassword ? undefined : AuthMessages.passwordsMismatch;
}

export function plannedServicesProblem(services: readonly string[]): string | undefined {
  return new Set(services).size === 0 ? AuthMessages.plannedServices : undefined;
}
