import { type CreditRules, isUnlimited, type UserPlan, type UserRole } from '@render/db';

/** Spec §9: the free plan gets 50 credits on a rolling 30-day window; Pro is unlimited. */
export const FREE_PLAN_CREDITS = 50;
export const CREDIT_WINDOW_DAYS = 30;

export const creditLimitMessage = `You have used all ${FREE_PLAN_CREDITS} credits of your plan for this ${CREDIT_WINDOW_DAYS}-day window. Upgrade to Pro for unlimited conversions.`;

export interface CreditPolicy {
  launchUnlimited: boolean;
}

/** The limit as the ledger applies it: Pro, administrators and the launch period are unlimited. */
export const creditRules = (policy: CreditPolicy): CreditRules => ({
  limit: FREE_PLAN_CREDITS,
  unlimited: { everyone: policy.launchUnlimited, roles: ['admin'], plans: ['pro'] },
});

/** Credits allowed in the window, or null for unlimited (Pro, administrators, or the launch period). */
export function creditLimit(user: { role: UserRole; plan: UserPlan }, policy: CreditPolicy): number | null {
  const rules = creditRules(policy);
  return isUnlimited(rules, user) ? null : rules.limit;
}

/** Start of the rolling window that ends now. */
export const windowStart = (now: Date = new Date()): Date => new Date(now.getTime() - CREDIT_WINDOW_DAYS * 24 * 60 * 60 * 1000);
