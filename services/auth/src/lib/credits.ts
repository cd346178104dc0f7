import { CREDIT_WINDOW_DAYS, FREE_PLAN_CREDITS, type PlanRulesResponse } from '@render/contracts';
import { type CreditRules, isUnlimited, type UserPlan, type UserRole } from '@render/db';

export { CREDIT_WINDOW_DAYS, FREE_PLAN_CREDITS };

const WINDOW_MS = CREDIT_WINDOW_DAYS * 24 * 60 * 60 * 1000;

/** When a credit taken at `takenAt` leaves the rolling window, i.e. comes back. */
export const creditReturnsAt = (takenAt: Date): Date => new Date(takenAt.getTime() + WINDOW_MS);

/** "3 December 2026 at 14:05 UTC": a date every reader parses the same way, whatever their locale. */
const utcDate = (at: Date) =>
  `${at.toLocaleDateString('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'long', year: 'numeric' })} at ${at.toISOString().slice(11, 16)} UTC`;

/** The 402 of a used-up window: when the next credit comes back (the oldest one leaves it), and how to get more. */
export function creditLimitMessage(returnsAt: Date | null): string {
  const back = returnsAt ? ` Your next credit comes back on ${utcDate(returnsAt)}, when the oldest one leaves the window.` : '';
  return `You have used all ${FREE_PLAN_CREDITS} credits of your plan for this rolling ${CREDIT_WINDOW_DAYS}-day window.${back} Upgrade to Pro for unlimited conversions.`;
}

/**
 * The 402 of a batch that needs more credits than the window has left (all of them or none are reserved):
 * how many it needs and how many are left; with none left, the used-up window's message.
 */
export function creditsShortMessage(needed: number, left: number, returnsAt: Date | null): string {
  if (left <= 0) return creditLimitMessage(returnsAt);
  return `This batch needs ${needed} credits but your plan has ${left} left in this rolling ${CREDIT_WINDOW_DAYS}-day window: nothing was reserved. Send fewer items, or upgrade to Pro for unlimited conversions.`;
}

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
export const windowStart = (now: Date = new Date()): Date => new Date(now.getTime() - WINDOW_MS);

/** The rules as GET /internal/plan-rules tells the gateway (and, through GET /api/limits, the web app). */
export const planRules = (policy: CreditPolicy): PlanRulesResponse => ({
  launchPeriod: policy.launchUnlimited,
  freeCredits: policy.launchUnlimited ? null : FREE_PLAN_CREDITS,
  windowDays: CREDIT_WINDOW_DAYS,
});
