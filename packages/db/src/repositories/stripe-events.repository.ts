import type { Kysely } from 'kysely';
import type { DB } from '../schema.ts';

export class StripeEventsRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * Records an event id; false when it was already recorded. Run inside the transaction that applies the
   * event: a concurrent delivery's insert waits on this row's lock and then finds the conflict, so an event
   * is applied once, and a failed apply rolls the record back so Stripe's retry is processed.
   */
  async record(eventId: string, type: string): Promise<boolean> {
    const row = await this.db
      .insertInto('stripe_events')
      .values({ event_id: eventId, type })
      .onConflict((oc) => oc.column('event_id').doNothing())
      .returning('event_id')
      .executeTakeFirst();
    return row !== undefined;
  }

  async exists(eventId: string): Promise<boolean> {
    const row = await this.db.selectFrom('stripe_events').select('event_id').where('event_id', '=', eventId).executeTakeFirst();
    return row !== undefined;
  }
}
