import { type Kysely, type Selectable, sql } from 'kysely';
import { preparedStatement } from '../prepared.ts';
import type { ApiKeyScope, CreditLedgerTable, CreditStatus, DB, LedgerRenderKind, UserPlan, UserRole } from '../schema.ts';
import { inTransaction } from './transaction.ts';
import { toWindowCounts, type WindowCounts, windowCountSelections } from './window-counts.ts';

export type CreditLedgerRow = Selectable<CreditLedgerTable>;

/** Who a credit is reserved for: an account by its id, or by the SHA-256 of its active API key. */
export type CreditAccount = { userId: string } | { apiKeyHash: string };

/** The render a credit is reserved for: its request id, and what is known of it yet (for the usage lists). */
export interface CreditRequest {
  requestId: string;
  kind?: LedgerRenderKind | null;
  /** Known when the body was read before the reservation (not for an API key's, made in onRequest). */
  format?: string | null;
}

/** A reservation to settle, with what its render made, when known (recorded with the charge). */
export interface SettledRender {
  requestId: string;
  /** What the render was: a leased spare learns it only when a render takes it. */
  kind?: LedgerRenderKind | null;
  format?: string | null;
  sizeBytes?: number | null;
  renderMs?: number | null;
}

/** A bare request id settles with nothing known of its render (what callers sent before these were kept). */
export const toSettledRender = (render: string | SettledRender): SettledRender =>
  typeof render === 'string' ? { requestId: render } : render;

/** The settle statements' parameters: parallel arrays that `unnest` turns back into rows. */
const settledArrays = (renders: readonly SettledRender[]) => [
  renders.map((r) => r.requestId),
  renders.map((r) => r.kind ?? null),
  renders.map((r) => r.format ?? null),
  renders.map((r) => r.sizeBytes ?? null),
  renders.map((r) => r.renderMs ?? null),
];
/** The statuses a settle changes: a reservation, or a leased spare (taken by a render, or given back unused). */
const UNSETTLED = "('reserved', 'leased')";
// The settle of each row named in `renders` (`$status`, `$at` and the five arrays of settledArrays): only a
// row still unsettled changes, and a fact not sent keeps what the reservation recorded.
const settleSql = (status: string, at: string, arrays: readonly [string, string, string, string, string]) =>
  `update credit_ledger set status = ${status}, settled_at = ${at},
    kind = coalesce(settled.kind, credit_ledger.kind),
    format = coalesce(settled.format, credit_ledger.format),
    size_bytes = coalesce(settled.size_bytes, credit_ledger.size_bytes),
    render_ms = coalesce(settled.render_ms, credit_ledger.render_ms)
  from unnest(${arrays[0]}::text[], ${arrays[1]}::text[], ${arrays[2]}::text[], ${arrays[3]}::integer[], ${arrays[4]}::integer[])
    as settled(request_id, kind, format, size_bytes, render_ms)
  where credit_ledger.request_id = settled.request_id and credit_ledger.status in ${UNSETTLED}`;

/** Renders of one UTC day (`date`: YYYY-MM-DD). */
export interface DailyRenders {
  date: string;
  renders: number;
}

/** One render as the account's recent list shows it. */
export interface RecentRenderRow {
  id: string;
  createdAt: Date;
  kind: LedgerRenderKind;
  format: string;
  sizeBytes: number | null;
  renderMs: number | null;
  /** Never 'leased': a spare nobody took was no render. */
  status: Exclude<CreditStatus, 'leased'>;
  /** The API key that made it (null: a session, or a key since deleted). */
  keyId: string | null;
}

export interface CreditOwner {
  userId: string;
  role: UserRole;
  plan: UserPlan;
  /** The API key the account was named by (its reservation is recorded with its id), when it was. */
  key?: ReservingKey;
}

/** The key a reservation by key hash found: its id, what it may call, and until when (null: no end). */
export interface ReservingKey {
  keyId: string;
  scope: ApiKeyScope;
  expiresAt: Date | null;
}

/** The credit limit: `limit` per window, except for the accounts `unlimited` names (whose use is still recorded). */
export interface CreditRules {
  limit: number;
  unlimited: { everyone: boolean; roles: readonly UserRole[]; plans: readonly UserPlan[] };
}

export const isUnlimited = (rules: CreditRules, user: { role: UserRole; plan: UserPlan }): boolean =>
  rules.unlimited.everyone || rules.unlimited.roles.includes(user.role) || rules.unlimited.plans.includes(user.plan);

/** The outcome of `reserveMany`: all the credits reserved, or none (`needed` more than the window has left). */
export type ReserveManyResult =
  | { ok: true; owner: CreditOwner; reserved: number; remaining: number | null; limit: number | null }
  | { ok: false; reason: 'limit_reached'; used: number; needed: number; limit: number; owner: CreditOwner; oldestAt: Date | null }
  | { ok: false; reason: 'unknown_user'; used: 0 }
  | { ok: false; reason: 'taken'; used: 0 };

export type ReserveResult =
  /**
   * `remaining`: credits left in the window after this one and its spares; null when the account has no
   * limit. `spares`: the request ids leased ahead (see `reserve`).
   */
  | { ok: true; reservationId: string; replayed: boolean; owner: CreditOwner; remaining: number | null; spares: string[] }
  /** `oldestAt`: when the oldest credit counted in the window was taken (it comes back when that leaves the window). */
  | { ok: false; reason: 'limit_reached'; used: number; owner: CreditOwner; oldestAt: Date | null }
  | { ok: false; reason: 'unknown_user'; used: 0 };

const columns = [
  'id',
  'user_id',
  'request_id',
  'status',
  'created_at',
  'settled_at',
  'kind',
  'format',
  'size_bytes',
  'render_ms',
  'key_id',
] as const;

/**
 * What counts as used: charged, and reserved (in flight). Against the limit, leased spares count too, so no
 * lease overshoots it; in the usage the account sees they do not, until a render takes one.
 */
const usedStatuses = (against: 'limit' | 'usage'): CreditStatus[] =>
  against === 'limit' ? ['charged', 'reserved', 'leased'] : ['charged', 'reserved'];

const usedQuery = (db: Kysely<DB>, userId: string, since: Date, against: 'limit' | 'usage', keyId?: string) =>
  db
    .selectFrom('credit_ledger')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('created_at', '>=', since)
    .where('status', 'in', usedStatuses(against))
    .$if(keyId !== undefined, (qb) => qb.where('key_id', '=', keyId as string));

// The statements every billed render runs, prepared once per connection (see preparedStatement).

/** The owner found, and the reservation if the owner has no limit to enforce (else null: the locked path). */
type FoundOwner = {
  id: string;
  role: UserRole;
  plan: UserPlan;
  reservationId: string | null;
  spares: string[];
  /** The key's, when the account was named by one (null otherwise). */
  keyId: string | null;
  scope: ApiKeyScope | null;
  expiresAt: Date | null;
};
// $1 the account, $2 the request id; $3–$5 the unlimited accounts (everyone, roles, plans); $6 earlier
// reservations to charge meanwhile (request ids), $7 when, $8–$11 their renders' kinds, formats, sizes and
// times; $12 the render's kind, $13 its format; $14 the request ids of spares to lease. The owner query
// answers id, role, plan and the key's key_id, scope and expires_at (nulls when named by account id).
const reserveUnlimited = (owner: string) => `with owner as (${owner}),
charged as (
  ${settleSql("'charged'", '$7::timestamptz', ['$6', '$8', '$9', '$10', '$11'])}
),
unlimited as (
  select id, key_id from owner where $3::boolean or role = any($4::text[]) or plan = any($5::text[])
),
inserted as (
  insert into credit_ledger (user_id, request_id, kind, format, key_id)
  select id, $2::text, $12::text, $13::text, key_id from unlimited
  on conflict (request_id) do nothing
  returning id
),
leased as (
  insert into credit_ledger (user_id, request_id, status, kind, key_id)
  select unlimited.id, spare, 'leased', $12::text, unlimited.key_id from unlimited, unnest($14::text[]) as spare
  on conflict (request_id) do nothing
  returning request_id
)
select owner.id, owner.role, owner.plan, (select id from inserted) as "reservationId",
  coalesce((select array_agg(request_id) from leased), '{}') as spares,
  owner.key_id as "keyId", owner.scope, owner.expires_at as "expiresAt"
from owner`;
const reserveByKey = preparedStatement<FoundOwner>(
  'credits_reserve_by_key',
  // A revoked or expired key finds nobody: the reservation is its verification.
  reserveUnlimited(`select users.id, users.role, users.plan, api_keys.id as key_id, api_keys.scope, api_keys.expires_at
    from api_keys join users on users.id = api_keys.user_id
    where api_keys.key_hash = $1::text and api_keys.revoked_at is null
      and (api_keys.expires_at is null or api_keys.expires_at > now())`),
);
const reserveByUser = preparedStatement<FoundOwner>(
  'credits_reserve_by_user',
  reserveUnlimited(
    'select id, role, plan, null::uuid as key_id, null::text as scope, null::timestamptz as expires_at from users where id = $1::uuid',
  ),
);
const lockUser = preparedStatement<{ id: string; role: UserRole; plan: UserPlan }>(
  'credits_lock_user',
  'select id, role, plan from users where id = $1::uuid for update',
);
const LIMIT_STATUSES = "('charged', 'reserved', 'leased')";
// $1 user, $2 request id, $3 the limit (null: none), $4 the window's start, $5 the render's kind, $6 its
// format, $7 the reserving key (null: none). A replayed request id inserts nothing. Answers the credits used
// before this one.
const insertWithinLimit = preparedStatement<{ id: string; used: number }>(
  'credits_insert_within_limit',
  `with used as (
    select count(*)::integer as n from credit_ledger
    where user_id = $1::uuid and created_at >= $4::timestamptz and status in ${LIMIT_STATUSES}
  )
  insert into credit_ledger (user_id, request_id, kind, format, key_id)
  select $1::uuid, $2::text, $5::text, $6::text, $7::uuid from used where $3::integer is null or used.n < $3::integer
  on conflict (request_id) do nothing
  returning id, (select n from used) as used`,
);
// $1 user, $2 the spares' request ids, $3 the limit (null: none), $4 the window's start, $5 the kind, $6 the
// reserving key. As many
// as fit under the limit, counted after the reservation they come with (same transaction, so it sees it).
const leaseWithinLimit = preparedStatement<{ request_id: string }>(
  'credits_lease_within_limit',
  `with used as (
    select count(*)::integer as n from credit_ledger
    where user_id = $1::uuid and created_at >= $4::timestamptz and status in ${LIMIT_STATUSES}
  )
  insert into credit_ledger (user_id, request_id, status, kind, key_id)
  select $1::uuid, spare.id, 'leased', $5::text, $6::uuid from used, unnest($2::text[]) with ordinality as spare(id, n)
  where $3::integer is null or used.n + spare.n <= $3::integer
  on conflict (request_id) do nothing
  returning request_id`,
);
const settleAll = preparedStatement<never>('credits_settle_many', settleSql('$1::text', '$2::timestamptz', ['$3', '$4', '$5', '$6', '$7']));

export class CreditLedgerRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * Credits used: charged, plus reserved ones still in flight (released ones cost nothing). Against the
   * limit (`limit`), spares leased ahead count too; in the usage the account sees (`usage`), not yet.
   */
  async countUsed(userId: string, since: Date, against: 'limit' | 'usage' = 'usage', keyId?: string): Promise<number> {
    const row = await usedQuery(this.db, userId, since, against, keyId).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** When the oldest credit counted against the limit since `since` was taken (null: none is). */
  async oldestUsedAt(userId: string, since: Date): Promise<Date | null> {
    const row = await this.db
      .selectFrom('credit_ledger')
      .select((eb) => eb.fn.min('created_at').as('oldest'))
      .where('user_id', '=', userId)
      .where('created_at', '>=', since)
      .where('status', 'in', usedStatuses('limit'))
      .executeTakeFirst();
    return row?.oldest ? new Date(row.oldest as unknown as string | Date) : null;
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
   *
   * `spares` are request ids to lease ahead with it (a gateway's next renders for this account): each is
   * recorded 'leased', as many as fit under the limit; the answer names those that were.
   */
  async reserve(
    account: CreditAccount,
    request: CreditRequest,
    rules: CreditRules,
    since: Date,
    charged: readonly SettledRender[] = [],
    spares: readonly string[] = [],
  ): Promise<ReserveResult> {
    const { everyone, roles, plans } = rules.unlimited;
    const [chargedIds, ...chargedFacts] = settledArrays(charged);
    const { requestId } = request;
    const facts = [request.kind ?? null, request.format ?? null];
    const values = [requestId, everyone, roles, plans, chargedIds, new Date(), ...chargedFacts, ...facts, spares];
    const { rows } =
      'apiKeyHash' in account
        ? await reserveByKey(this.db, [account.apiKeyHash, ...values])
        : await reserveByUser(this.db, [account.userId, ...values]);
    const found = rows[0];
    if (!found) return { ok: false, reason: 'unknown_user', used: 0 };
    const key = found.keyId && found.scope ? { keyId: found.keyId, scope: found.scope, expiresAt: found.expiresAt } : undefined;
    const owner: CreditOwner = { userId: found.id, role: found.role, plan: found.plan, ...(key ? { key } : {}) };
    if (found.reservationId) {
      return { ok: true, reservationId: found.reservationId, replayed: false, owner, remaining: null, spares: found.spares };
    }
    if (!isUnlimited(rules, owner)) return this.reserveLimited(owner.userId, request, rules, since, spares, key);
    const replay = await this.replayOf(this.db, owner, requestId, null);
    if (!replay) throw new Error('reservation neither recorded nor found');
    return replay;
  }

  /**
   * Reserves a credit under each of `requests` for `userId`, all or none, in one transaction: the user row is
   * locked FOR UPDATE (as `reserve`'s locked path: the two cannot overshoot the limit between them), the
   * credits used in the window counted without this call's own ids (a replayed call's are already there),
   * and every row inserted by one statement when they all fit. `charged` rows (any account's) are settled
   * in the same transaction, whatever the answer.
   */
  async reserveMany(
    userId: string,
    requests: readonly CreditRequest[],
    rules: CreditRules,
    since: Date,
    charged: readonly SettledRender[] = [],
  ): Promise<ReserveManyResult> {
    const ids = requests.map((r) => r.requestId);
    if (ids.length === 0) throw new Error('reserveMany needs at least one request');
    return inTransaction(this.db, async (trx) => {
      if (charged.length > 0) await settleAll(trx, ['charged', new Date(), ...settledArrays(charged)]);
      const user = (await lockUser(trx, [userId])).rows[0];
      if (!user) return { ok: false, reason: 'unknown_user', used: 0 };
      const owner: CreditOwner = { userId: user.id, role: user.role, plan: user.plan };
      const limit = isUnlimited(rules, user) ? null : rules.limit;
      const counted = await usedQuery(trx, userId, since, 'limit').where('request_id', 'not in', ids).executeTakeFirstOrThrow();
      const used = Number(counted.n);
      if (limit !== null && used + ids.length > limit) {
        const oldestAt = await new CreditLedgerRepository(trx).oldestUsedAt(userId, since);
        return { ok: false, reason: 'limit_reached', used, needed: ids.length, limit, owner, oldestAt };
      }
      // An id already another account's (never, with the gateway's random ids) refuses the whole call.
      const theirs = await trx
        .selectFrom('credit_ledger')
        .select('request_id')
        .where('request_id', 'in', ids)
        .where('user_id', '!=', userId)
        .executeTakeFirst();
      if (theirs) return { ok: false, reason: 'taken', used: 0 };
      // Ids already this account's (a replayed call) are left as they are.
      await sql`insert into credit_ledger (user_id, request_id, kind, format)
        select ${userId}::uuid, r.request_id, r.kind, r.format
        from unnest(${ids}::text[], ${requests.map((r) => r.kind ?? null)}::text[], ${requests.map((r) => r.format ?? null)}::text[])
          as r(request_id, kind, format)
        on conflict (request_id) do nothing`.execute(trx);
      const remaining = limit === null ? null : Math.max(0, limit - used - ids.length);
      return { ok: true, owner, reserved: ids.length, remaining, limit };
    });
  }

  /** The locked path of `reserve` (see there). */
  private reserveLimited(
    userId: string,
    request: CreditRequest,
    rules: CreditRules,
    since: Date,
    spares: readonly string[],
    key: ReservingKey | undefined,
  ): Promise<ReserveResult> {
    const { requestId } = request;
    const keyId = key?.keyId ?? null;
    return inTransaction(this.db, async (trx) => {
      const user = (await lockUser(trx, [userId])).rows[0];
      if (!user) return { ok: false, reason: 'unknown_user', used: 0 };
      const owner: CreditOwner = { userId: user.id, role: user.role, plan: user.plan, ...(key ? { key } : {}) };
      const limit = isUnlimited(rules, user) ? null : rules.limit;
      const facts = [request.kind ?? null, request.format ?? null];
      const inserted = (await insertWithinLimit(trx, [userId, requestId, limit, since, ...facts, keyId])).rows[0];
      if (inserted) {
        const leaseValues = [userId, spares, limit, since, request.kind ?? null, keyId];
        const leased = spares.length === 0 ? [] : (await leaseWithinLimit(trx, leaseValues)).rows;
        const remaining = limit === null ? null : Math.max(0, limit - inserted.used - 1 - leased.length);
        return { ok: true, reservationId: inserted.id, replayed: false, owner, remaining, spares: leased.map((row) => row.request_id) };
      }
      // Nothing inserted: a replay of this requestId, or the limit reached (one more query tells which).
      const used = await new CreditLedgerRepository(trx).countUsed(userId, since, 'limit');
      const replay = await this.replayOf(trx, owner, requestId, limit === null ? null : Math.max(0, limit - used));
      if (replay) return replay;
      const oldestAt = await new CreditLedgerRepository(trx).oldestUsedAt(userId, since);
      return { ok: false, reason: 'limit_reached', used, owner, oldestAt };
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
    return { ok: true, reservationId: existing.id, replayed: true, owner, remaining, spares: [] };
  }

  /**
   * Settles a reservation once: only a 'reserved' row changes, so repeating the call (or settling an
   * unknown requestId) is a harmless no-op. Returns the row as it is now, if any.
   */
  async settle(render: SettledRender, outcome: 'charged' | 'released'): Promise<CreditLedgerRow | undefined> {
    const { requestId } = render;
    const updated = await this.db
      .updateTable('credit_ledger')
      .set((eb) => ({
        status: outcome,
        settled_at: new Date(),
        kind: eb.fn.coalesce(eb.val(render.kind ?? null), eb.ref('kind')),
        // What the render made, when told; else what the reservation recorded stays.
        format: eb.fn.coalesce(eb.val(render.format ?? null), eb.ref('format')),
        size_bytes: eb.fn.coalesce(eb.val(render.sizeBytes ?? null), eb.ref('size_bytes')),
        render_ms: eb.fn.coalesce(eb.val(render.renderMs ?? null), eb.ref('render_ms')),
      }))
      .where('request_id', '=', requestId)
      .where('status', 'in', ['reserved', 'leased'])
      .returning(columns)
      .executeTakeFirst();
    return updated ?? this.db.selectFrom('credit_ledger').select(columns).where('request_id', '=', requestId).executeTakeFirst();
  }

  /**
   * Settles several reservations the same way in one UPDATE (a gateway's charges of a few milliseconds),
   * with what each render made; like `settle`, only rows still 'reserved' change. Answers how many did.
   */
  async settleMany(renders: readonly SettledRender[], outcome: 'charged' | 'released'): Promise<number> {
    if (renders.length === 0) return 0;
    const result = await settleAll(this.db, [outcome, new Date(), ...settledArrays(renders)]);
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
      .where('status', 'in', ['reserved', 'leased'])
      .where('created_at', '<', before)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /**
   * The account's renders since `since` per UTC day (YYYY-MM-DD), days without any left out: counted like
   * `countUsed` (charged, or reserved and in flight), so the days add up to the credits used.
   */
  async dailyRenders(userId: string, since: Date, keyId?: string): Promise<DailyRenders[]> {
    const day = sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')`;
    const rows = await this.db
      .selectFrom('credit_ledger')
      .select([day.as('date'), (eb) => eb.fn.countAll<string>().as('renders')])
      .where('user_id', '=', userId)
      .where('created_at', '>=', since)
      .where('status', 'in', ['charged', 'reserved'])
      .$if(keyId !== undefined, (qb) => qb.where('key_id', '=', keyId as string))
      .groupBy(day)
      .orderBy(day)
      .execute();
    return rows.map((row) => ({ date: row.date, renders: Number(row.renders) }));
  }

  /**
   * The account's latest `limit` renders, newest first, whatever became of them. Rows without a kind or a
   * format are left out: recorded before these were kept, or a call refused before its body was read.
   */
  async recentRenders(userId: string, limit: number, keyId?: string): Promise<RecentRenderRow[]> {
    const rows = await this.db
      .selectFrom('credit_ledger')
      .select(['id', 'created_at', 'kind', 'format', 'size_bytes', 'render_ms', 'status', 'key_id'])
      .where('user_id', '=', userId)
      .$if(keyId !== undefined, (qb) => qb.where('key_id', '=', keyId as string))
      .where('kind', 'is not', null)
      .where('format', 'is not', null)
      .where('status', '!=', 'leased')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      id: row.id,
      createdAt: row.created_at,
      kind: row.kind as LedgerRenderKind,
      format: row.format as string,
      sizeBytes: row.size_bytes,
      renderMs: row.render_ms,
      status: row.status as Exclude<CreditStatus, 'leased'>,
      keyId: row.key_id,
    }));
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
