import { AppError, confirmPasswordProblem, nameProblem, newPasswordProblem, plannedServicesProblem } from '@render/contracts';

// The rules themselves live in contracts (auth-rules.ts), so the web form and this service agree.
const failOn = (problem: string | undefined): void => {
  if (problem) throw new AppError('VALIDATION_ERROR', problem);
};

export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

export function checkName(name: string): string {
  failOn(nameProblem(name));
  return name.trim();
}

/** docs/spec/validation.md password rules, in the order the web form reports them. */
export function checkNewPassword(password: string, confirmPassword: string): void {
  failOn(newPasswordProblem(password));
  failOn(confirmPasswordProblem(password, confirmPassword));
}

export function checkPlannedServices<T extends string>(services: T[]): T[] {
  failOn(plannedServicesProblem(services));
  return [...new Set(services)];
}
