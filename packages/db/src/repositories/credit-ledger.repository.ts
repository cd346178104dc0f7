import { type Kysely, type Selectable, sql } from 'kysely';
import type { CreditLedgerTable, CreditStatus, DB, UserPlan, UserRole } from '../schema.ts';
import { inTransaction } from './transaction.ts';
import { toWindowCounts, type WindowCounts, windowCountSelections } from './window-counts.ts';

export type CreditLedgerRow = Selectable<CreditLedgerTable>;

export type ReserveResult =
  | { ok: true; reservationId: string; replayed: boolean }
  | { ok: false; reason: 'limit_reached' | 'unknown_user'; used: number };

const columns = ['id', 'user_id', 'request_id', 'status', 'created_at', 'settled_at'] as const;

const usedQuery = (db: Kysely<DB>, userId: string, since: Date) =>
  db
    .selectFrom('credit_ledger')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('created_at', '>=', since)
    .where('status', 'in', ['charged', 'reserved']);

export class CreditLedgerRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Credits that count against a limit: charged, plus reserved ones still in flight. Released ones cost nothing. */
  async countUsed(userId: string, since: Date): Promise<number> {
    const row = await usedQuery(this.db, userId, since).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Reserves one credit for `requestId`, in four round trips on the usual path. The user's row is locked
   * FOR UPDATE first, so concurrent reserves for one user run one after another and cannot overshoot the
   * limit; the plan the limit comes from (`limitOf`, null for unlimited: the row is still written, for
   * usage figures) is read under that lock. The insert is a new statement, so its count sees every
   * reservation committed before the lock was ours. A requestId seen before returns its existing
   * reservation instead of charging again.
   */
  async reserve(
    userId: string,
    requestId: string,
    limitOf: (user: { role: UserRole; plan: UserPlan }) => number | null,
    since: Date,
  ): Promise<ReserveResult> {
    return inTransaction(this.db, async (trx) => {
      const user = await trx.selectFrom('users').select(['id', 'role', 'plan']).where('id', '=', userId).forUpdate().executeTakeFirst();
      if (!user) return { ok: false, reason: 'unknown_user', used: 0 };
      const limit = limitOf(user);
      const inserted = await trx
        .insertInto('credit_ledger')
        .columns(['user_id', 'request_id'])
        .expression(
          trx
            .selectNoFrom((eb) => [eb.val(userId).as('user_id'), eb.val(requestId).as('request_id')])
            .where((eb) => eb.not(eb.exists(eb.selectFrom('credit_ledger').select('id').where('request_id', '=', requestId))))
            .where(limit === null ? sql<boolean>`true` : sql<boolean>`(${usedQuery(trx, userId, since)}) < ${limit}`),
        )
        .returning('id')
        .executeTakeFirst();
      if (inserted) return { ok: true, reservationId: inserted.id, replayed: false };
      // Nothing inserted: a replay of this requestId, or the limit reached (one more query tells which).
      const existing = await trx
        .selectFrom('credit_ledger')
        .select(['id', 'user_id'])
        .where('request_id', '=', requestId)
        .executeTakeFirst();
      if (existing) {
        if (existing.user_id !== userId) throw new Error('requestId already belongs to another user');
        return { ok: true, reservationId: existing.id, replayed: true };
      }
      return { ok: false, reason: 'limit_reached', used: await new CreditLedgerRepository(trx).countUsed(userId, since) };
    });
  }

  /**
   * Settles a reservation once: only a 'reserved' row changes, so repeating the call (or settling an
   * unknown requestId) is a harmless no-op. Returns the row as it is now, if any.
   */
  async settle(requestId: string, outcome: Exclude<CreditStatus, 'reserved'>): Promise<CreditLedgerRow | undefined> {
    const updated = await this.db
      .updateTable('credit_ledger')
      .set({ status: outcome, settled_at: new Date() })
      .where('request_id', '=', requestId)
      .where('status', '=', 'reserved')
      .returning(columns)
      .executeTakeFirst();
    return updated ?? this.db.selectFrom('credit_ledger').select(columns).where('request_id', '=', requestId).executeTakeFirst();
  }

  /**
   * Releases reservations left 'reserved' since before `before`: their gateway stopped between reserving
   * and settling, so whether an image was delivered is unknown, and the customer gets the benefit of the
   * doubt. Safe to run from every replica at once (a row changes only while it is still reserved).
   */
  async releaseStale(before: Date): Promise<number> {
    const result = await this.db
      .updateTable('credit_ledger')
      .set({ status: 'released', settled_at: new Date() })
      .where('status', '=', 'reserved')
      .where('created_at', '<', before)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Successful generations (charged rows) in total and per window, for the admin overview. */
  async generationCounts(now: Date = new Date()): Promise<WindowCounts> {
    const row = await this.db
      .selectFrom('credit_ledger')
      .where('status', '=', 'charged')
      .select((eb) => windowCountSelections(eb, now))
      .executeTakeFirstOrThrow();
    return toWindowCounts(row);
  }
}
