import { AppError, BillingMessages } from '@render/contracts';
import type { BillingInterval, Repositories, SubscriptionRow, SubscriptionState, SubscriptionStatus, UserPlan } from '@render/db';
import type { FastifyBaseLogger } from 'fastify';
import Stripe from 'stripe';
import { languageFromAcceptLanguage } from './languages.ts';

export type Currency = 'usd' | 'eur';

/** Stripe Price ids per interval and currency; a missing one means that combination cannot be bought. */
export type BillingPrices = Record<BillingInterval, Record<Currency, string | undefined>>;

// The texts live in the contracts (the message catalog gives each an id); re-exported for the service's callers.
export { BillingMessages };

/** French speakers pay in euros, everyone else in dollars (docs/spec/limits.md); the browser's top language decides. */
export const currencyFromAcceptLanguage = (header: string | undefined): Currency =>
  languageFromAcceptLanguage(header) === 'fr' ? 'eur' : 'usd';

/** Turns Stripe failures (network, outage, rejected request) into a 503 the user can retry; the cause is logged. */
export async function stripeCall<T>(log: FastifyBaseLogger, action: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeError)) throw error;
    log.warn({ err: error.message, type: error.type, code: error.code, action }, 'stripe call failed');
    // Stripe being away is usually brief.
    throw new AppError('SERVICE_UNAVAILABLE', BillingMessages.providerUnavailable, undefined, { retryAfterSeconds: 30 });
  }
}

export const idOf = (value: string | { id: string } | null | undefined): string | undefined =>
  typeof value === 'string' ? value : (value?.id ?? undefined);

/** Our status and the plan it grants, from Stripe's subscription status. */
export function mapStatus(sub: Stripe.Subscription): { status: SubscriptionStatus; plan: UserPlan } {
  // The billing portal may schedule the end with `cancel_at` rather than `cancel_at_period_end`.
  const ending = sub.cancel_at_period_end || sub.cancel_at !== null;
  switch (sub.status) {
    case 'active':
    case 'trialing':
      return { status: ending ? 'cancelling' : 'active', plan: 'pro' };
    case 'past_due':
      // Stripe is retrying the payment; access is kept until it gives up and deletes the subscription.
      return { status: 'past_due', plan: 'pro' };
    case 'canceled':
    case 'incomplete_expired':
      return { status: 'canceled', plan: 'free' };
    default:
      // incomplete, unpaid, paused: nothing was paid for the current period.
      return { status: 'past_due', plan: 'free' };
  }
}

export function subscriptionState(sub: Stripe.Subscription, userId: string): SubscriptionState {
  // Since API version 2025-03-31 the billing period lives on the subscription items, not the subscription.
  // Optional chaining: an event rendered for an older API version can lack fields the types promise.
  const item = sub.items?.data?.[0];
  const interval: string | undefined = item?.price.recurring?.interval;
  const periodEnd = item?.current_period_end;
  return {
    userId,
    stripeCustomerId: idOf(sub.customer) ?? '',
    stripeSubscriptionId: sub.id,
    ...mapStatus(sub),
    priceId: item?.price.id ?? null,
    interval: interval === 'month' || interval === 'year' ? interval : null,
    currentPeriodEnd: periodEnd ? new Date(periodEnd * 1000) : null,
    cancelAtPeriodEnd: sub.cancel_at_period_end || sub.cancel_at !== null,
  };
}

/**
 * Stores a subscription as Stripe reports it and sets the user's plan. The user is found by the subscription,
 * then by the customer we created for them, then by `userIdHint` (checkout's client_reference_id or the
 * subscription's metadata). Returns undefined when the event is for nobody we know or is stale.
 */
export async function applySubscription(
  { subscriptions, users }: Repositories,
  log: FastifyBaseLogger,
  sub: Stripe.Subscription,
  userIdHint?: string | null,
): Promise<SubscriptionRow | undefined> {
  const customerId = idOf(sub.customer);
  const existing =
    (await subscriptions.findBySubscriptionId(sub.id)) ?? (customerId ? await subscriptions.findByCustomerId(customerId) : undefined);
  const userId = existing?.user_id ?? userIdHint ?? sub.metadata?.userId;
  if (!userId || !customerId || !(await users.findById(userId).catch(() => undefined))) {
    log.warn({ subscription: sub.id, customer: customerId }, 'stripe subscription for an unknown user ignored');
    return undefined;
  }
  const state = subscriptionState(sub, userId);
  if (existing?.stripe_subscription_id === sub.id && existing.status === 'canceled' && state.status !== 'canceled') {
    // A late or replayed update must not bring an ended subscription back to life.
    return existing;
  }
  if (
    existing?.stripe_subscription_id &&
    existing.stripe_subscription_id !== sub.id &&
    existing.status !== 'canceled' &&
    state.status === 'canceled'
  ) {
    // An older subscription ending must not take away a newer one that is still running.
    return existing;
  }
  return subscriptions.apply(state);
}
