import type { Repositories } from '@render/db';
import type { FastifyBaseLogger } from 'fastify';
import type Stripe from 'stripe';
import { applySubscription, idOf, stripeCall } from './billing.ts';

/** Applies an event's effect to the database (inside the event's transaction). */
type Effect = (repositories: Repositories) => Promise<void>;

/**
 * What an event changes. Anything that needs Stripe (fetching the subscription a checkout created) happens
 * here, before the transaction, so no database transaction is held open across a network call.
 */
async function effectOf(stripe: Stripe, log: FastifyBaseLogger, event: Stripe.Event): Promise<Effect | undefined> {
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object;
      const subscriptionId = idOf(session.subscription);
      if (session.mode !== 'subscription' || !subscriptionId) return undefined;
      // The session only names the subscription; its current state comes from Stripe.
      const sub = await stripeCall(log, 'subscriptions.retrieve', () => stripe.subscriptions.retrieve(subscriptionId));
      return async (repositories) => {
        await applySubscription(repositories, log, sub, session.client_reference_id);
      };
    }
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      // Stripe does not deliver in order: the payload is a snapshot that a later change may already have
      // superseded (e.g. an old "active" arriving after our own cancel), so the current state is fetched.
      const snapshot = event.data.object;
      const sub = await stripeCall(log, 'subscriptions.retrieve', () => stripe.subscriptions.retrieve(snapshot.id));
      return async (repositories) => {
        await applySubscription(repositories, log, sub);
      };
    }
    case 'invoice.payment_failed': {
      const subscriptionId = idOf(event.data.object.parent?.subscription_details?.subscription);
      if (!subscriptionId) return undefined;
      return async ({ subscriptions }) => {
        const row = await subscriptions.findBySubscriptionId(subscriptionId);
        // Access stays while Stripe retries; it ends with customer.subscription.deleted if the retries fail.
        if (row && row.status !== 'canceled') await subscriptions.setStatus(subscriptionId, 'past_due');
      };
    }
    default:
      return undefined;
  }
}

/**
 * Processes a verified event once. The event id is inserted first, in the same transaction as the effect:
 * a redelivery (or a concurrent delivery, which waits on the row lock) finds it and changes nothing, and a
 * failed effect rolls the id back so Stripe's retry is processed. Returns false for a duplicate.
 */
export async function processStripeEvent(
  repositories: Repositories,
  stripe: Stripe,
  log: FastifyBaseLogger,
  event: Stripe.Event,
): Promise<boolean> {
  // Cheap early exit for redeliveries, so they cost no Stripe call; the insert below is what guarantees once.
  if (await repositories.stripeEvents.exists(event.id)) return false;
  const effect = await effectOf(stripe, log, event);
  return repositories.transaction(async (trx) => {
    if (!(await trx.stripeEvents.record(event.id, event.type))) return false;
    await effect?.(trx);
    return true;
  });
}
