import { type Kysely, sql } from 'kysely';

// Migrations take Kysely<any> on purpose: they must keep compiling against the
// schema as it was when they were written, not as `DB` describes it today.

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  // One row per user who ever started a checkout: the Stripe customer is stored as soon as it is created (so a
  // second upgrade reuses it); the subscription columns stay null until Stripe reports a subscription.
  await db.schema
    .createTable('subscriptions')
    .addColumn('user_id', 'uuid', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('stripe_customer_id', 'text', (col) => col.notNull().unique())
    .addColumn('stripe_subscription_id', 'text', (col) => col.unique())
    .addColumn('status', 'text', (col) => col.check(sql`status in ('active', 'cancelling', 'canceled', 'past_due')`))
    .addColumn('price_id', 'text')
    .addColumn('interval', 'text', (col) => col.check(sql`"interval" in ('month', 'year')`))
    .addColumn('current_period_end', 'timestamptz')
    .addColumn('cancel_at_period_end', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();

  // Stripe delivers at least once (and may deliver concurrently): the primary key makes each event apply once.
  await db.schema
    .createTable('stripe_events')
    .addColumn('event_id', 'text', (col) => col.primaryKey())
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('received_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('stripe_events').execute();
  await db.schema.dropTable('subscriptions').execute();
}
