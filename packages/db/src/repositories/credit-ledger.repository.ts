import type { Kysely, Selectable } from 'kysely';
import { preparedStatement } from '../prepared.ts';
import type { CreditLedgerTable, CreditStatus, DB, UserPlan, UserRole } from '../schema.ts';
import { inTransaction } from './transaction.ts';
import { toWindowCounts, type WindowCounts, windowCountSelections } from './window-counts.ts';

export type CreditLedgerRow = Selectable<CreditLedgerTable>;

/** Who a credit is reserved for: an account by its id, or by the SHA-256 of its active API key. */
export type CreditAccount = { userId: string } | { apiKeyHash: string };

export interface CreditOwner {
  userId: string;
  role: UserRole;
  plan: UserPlan;
}

/** The credit limit: `limit` per window, except for the accounts `unlimited` names (whose use is still recorded). */
export interface CreditRules {
  limit: number;
  unlimited: { everyone: boolean; roles: readonly UserRole[]; plans: readonly UserPlan[] };
}

export const isUnlimited = (rules: CreditRules, user: { role: UserRole; plan: UserPlan }): boolean =>
  rules.unlimited.everyone || rules.unlimited.roles.includes(user.role) || rules.unlimited.plans.includes(user.plan);

export type ReserveResult =
  /** `remaining`: credits left in the window after this one; null when the account has no limit. */
  | { ok: true; reservationId: string; replayed: boolean; owner: CreditOwner; remaining: number | null }
  | { ok: false; reason: 'limit_reached'; used: number; owner: CreditOwner }
  | { ok: false; reason: 'unknown_user'; used: 0 };

const columns = ['id', 'user_id', 'request_id', 'status', 'created_at', 'settled_at'] as const;

const usedQuery = (db: Kysely<DB>, userId: string, since: Date) =>
  db
    .selectFrom('credit_ledger')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('created_at', '>=', since)
    .where('status', 'in', ['charged', 'reserved']);

// The statements every billed render runs, prepared once per connection (see preparedStatement).

/** The owner found, and the reservation if the owner has no limit to enforce (else null: the locked path). */
type FoundOwner = { id: string; role: UserRole; plan: UserPlan; reservationId: string | null };
// $1 the account, $2 the request id; $3–$5 the unlimited accounts (everyone, roles, plans); $6 earlier
// reservations to charge meanwhile, $7 when.
const reserveUnlimited = (owner: string) => `with owner as (${owner}),
charged as (
  update credit_ledger set status = 'charged', settled_at = $7::timestamptz
  where request_id = any($6::text[]) and status = 'reserved'
),
inserted as (
  insert into credit_ledger (user_id, request_id)
  select id, $2::text from owner where $3::boolean or role = any($4::text[]) or plan = any($5::text[])
  on conflict (request_id) do nothing
  returning id
)
select owner.id, owner.role, owner.plan, (select id from inserted) as "reservationId" from owner`;
const reserveByKey = preparedStatement<FoundOwner>(
  'credits_reserve_by_key',
  reserveUnlimited(`select users.id, users.role, users.plan from api_keys join users on users.id = api_keys.user_id
    where api_keys.key_hash = $1::text and api_keys.revoked_at is null`),
);
const reserveByUser = preparedStatement<FoundOwner>(
  'credits_reserve_by_user',
  reserveUnlimited('select id, role, plan from users where id = $1::uuid'),
);
const lockUser = preparedStatement<{ id: string; role: UserRole; plan: UserPlan }>(
  'credits_lock_user',
  'select id, role, plan from users where id = $1::uuid for update',
);
// $1 user, $2 request id, $3 the limit (null: none), $4 the window's start. A replayed request id inserts
// nothing. Answers the credits used before this one.
const insertWithinLimit = preparedStatement<{ id: string; used: number }>(
  'credits_insert_within_limit',
  `with used as (
    select count(*)::integer as n from credit_ledger
    where user_id = $1::uuid and created_at >= $4::timestamptz and status in ('charged', 'reserved')
  )
  insert into credit_ledger (user_id, request_id)
  select $1::uuid, $2::text from used where $3::integer is null or used.n < $3::integer
  on conflict (request_id) do nothing
  returning id, (select n from used) as used`,
);
const settleAll = preparedStatement<never>(
  'credits_settle_many',
  `update credit_ledger set status = $1::text, settled_at = $2::timestamptz
  where request_id = any($3::text[]) and status = 'reserved'`,
);

export class CreditLedgerRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Credits that count against a limit: charged, plus reserved ones still in flight. Released ones cost nothing. */
  async countUsed(userId: string, since: Date): Promise<number> {
    const row = await usedQuery(this.db, userId, since).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Reserves one credit for `requestId` and answers whom for (the owner of the API key, when the account
   * is named by one: a revoked key finds nobody). One statement finds the account and, if it has no limit
   * to enforce, records the reservation there and then. A limited account takes the locked path: its user
   * row is locked FOR UPDATE, so concurrent reserves for one user run one after another and cannot
   * overshoot the limit; the plan is read again under that lock, and the insert is a new statement, so its
   * count sees every reservation committed before the lock was ours. A requestId seen before returns its
   * existing reservation instead of charging again. `charged` rows (any account's) are settled by the first
   * statement, whatever becomes of this reservation.
   */
  async reserve(
    account: CreditAccount,
    requestId: string,
    rules: CreditRules,
    since: Date,
    charged: readonly string[] = [],
  ): Promise<ReserveResult> {
    const { everyone, roles, plans } = rules.unlimited;
    const values = [requestId, everyone, roles, plans, charged, new Date()];
    const { rows } =
      'apiKeyHash' in account
        ? await reserveByKey(this.db, [account.apiKeyHash, ...values])
        : await reserveByUser(this.db, [account.userId, ...values]);
    const found = rows[0];
    if (!found) return { ok: false, reason: 'unknown_user', used: 0 };
    const owner: CreditOwner = { userId: found.id, role: found.role, plan: found.plan };
    if (found.reservationId) return { ok: true, reservationId: found.reservationId, replayed: false, owner, remaining: null };
    if (!isUnlimited(rules, owner)) return this.reserveLimited(owner.userId, requestId, rules, since);
    const replay = await this.replayOf(this.db, owner, requestId, null);
    if (!replay) throw new Error('reservation neither recorded nor found');
    return replay;
  }

  /** The locked path of `reserve` (see there). */
  private reserveLimited(userId: string, requestId: string, rules: CreditRules, since: Date): Promise<ReserveResult> {
    return inTransaction(this.db, async (trx) => {
      const user = (await lockUser(trx, [userId])).rows[0];
      if (!user) return { ok: false, reason: 'unknown_user', used: 0 };
      const owner: CreditOwner = { userId: user.id, role: user.role, plan: user.plan };
      const limit = isUnlimited(rules, user) ? null : rules.limit;
      const inserted = (await insertWithinLimit(trx, [userId, requestId, limit, since])).rows[0];
      if (inserted) {
        const remaining = limit === null ? null : Math.max(0, limit - inserted.used - 1);
        return { ok: true, reservationId: inserted.id, replayed: false, owner, remaining };
      }
      // Nothing inserted: a replay of this requestId, or the limit reached (one more query tells which).
      const used = await new CreditLedgerRepository(trx).countUsed(userId, since);
      const replay = await this.replayOf(trx, owner, requestId, limit === null ? null : Math.max(0, limit - used));
      if (replay) return replay;
      return { ok: false, reason: 'limit_reached', used, owner };
    });
  }

  /** The reservation already made under `requestId` (a retried call), if any. */
  private async replayOf(
    db: Kysely<DB>,
    owner: CreditOwner,
    requestId: string,
    remaining: number | null,
  ): Promise<ReserveResult | undefined> {
    const existing = await db.selectFrom('credit_ledger').select(['id', 'user_id']).where('request_id', '=', requestId).executeTakeFirst();
    if (!existing) return undefined;
    if (existing.user_id !== owner.userId) throw new Error('requestId already belongs to another user');
    return { ok: true, reservationId: existing.id, replayed: true, owner, remaining };
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
   * Settles several reservations the same way in one UPDATE (a gateway's charges of a few milliseconds);
   * like `settle`, only rows still 'reserved' change. Answers how many did.
   */
  async settleMany(requestIds: readonly string[], outcome: Exclude<CreditStatus, 'reserved'>): Promise<number> {
    if (requestIds.length === 0) return 0;
    const result = await settleAll(this.db, [outcome, new Date(), requestIds]);
    return Number(result.numAffectedRows ?? 0);
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
