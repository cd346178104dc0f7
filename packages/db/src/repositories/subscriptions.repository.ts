import { type Kysely, type Selectable, sql } from 'kysely';
import type { BillingInterval, DB, SubscriptionStatus, SubscriptionsTable, UserPlan } from '../schema.ts';
import { inTransaction } from './transaction.ts';

export type SubscriptionRow = Selectable<SubscriptionsTable>;

/** A subscription's state as Stripe last reported it, already mapped to ours. */
export interface SubscriptionState {
  userId: string;
  stripeCustomerId: string;
  stripeSubscriptionId: string;
  status: SubscriptionStatus;
  priceId: string | null;
  interval: BillingInterval | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  /** The plan this state grants the user. */
  plan: UserPlan;
}

const columns = [
  'user_id',
  'stripe_customer_id',
  'stripe_subscription_id',
  'status',
  'price_id',
  'interval',
  'current_period_end',
  'cancel_at_period_end',
  'updated_at',
] as const;

export class SubscriptionsRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async findByUserId(userId: string): Promise<SubscriptionRow | undefined> {
    return this.db.selectFrom('subscriptions').select(columns).where('user_id', '=', userId).executeTakeFirst();
  }

  async findByCustomerId(customerId: string): Promise<SubscriptionRow | undefined> {
    return this.db.selectFrom('subscriptions').select(columns).where('stripe_customer_id', '=', customerId).executeTakeFirst();
  }

  async findBySubscriptionId(subscriptionId: string): Promise<SubscriptionRow | undefined> {
    return this.db.selectFrom('subscriptions').select(columns).where('stripe_subscription_id', '=', subscriptionId).executeTakeFirst();
  }

  /** Stores the user's Stripe customer; when a concurrent request stored one first, that one is kept and returned. */
  async saveCustomer(userId: string, customerId: string): Promise<SubscriptionRow> {
    await this.db
      .insertInto('subscriptions')
      .values({ user_id: userId, stripe_customer_id: customerId })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
    return this.db.selectFrom('subscriptions').select(columns).where('user_id', '=', userId).executeTakeFirstOrThrow();
  }

  /** Writes the subscription and the plan it grants in one transaction, so the two never disagree. */
  async apply(state: SubscriptionState): Promise<SubscriptionRow> {
    return inTransaction(this.db, async (trx) => {
      const values = {
        stripe_customer_id: state.stripeCustomerId,
        stripe_subscription_id: state.stripeSubscriptionId,
        status: state.status,
        price_id: state.priceId,
        interval: state.interval,
        current_period_end: state.currentPeriodEnd,
        cancel_at_period_end: state.cancelAtPeriodEnd,
        updated_at: sql<Date>`now()`,
      };
      const row = await trx
        .insertInto('subscriptions')
        .values({ user_id: state.userId, ...values })
        .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
        .returning(columns)
        .executeTakeFirstOrThrow();
      await trx.updateTable('users').set({ plan: state.plan, updated_at: sql<Date>`now()` }).where('id', '=', state.userId).execute();
      return row;
    });
  }

  /** Sets the status of a known subscription (e.g. past_due after a failed invoice); undefined when unknown. */
  async setStatus(subscriptionId: string, status: SubscriptionStatus): Promise<SubscriptionRow | undefined> {
    return this.db
      .updateTable('subscriptions')
      .set({ status, updated_at: sql<Date>`now()` })
      .where('stripe_subscription_id', '=', subscriptionId)
      .returning(columns)
      .executeTakeFirst();
  }
}
