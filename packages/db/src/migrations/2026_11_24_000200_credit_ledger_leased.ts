import { type Kysely, sql } from 'kysely';

// Migrations take Kysely<any> on purpose: they must keep compiling against the
// schema as it was when they were written, not as `DB` describes it today.

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  // 'leased': a credit a gateway reserved ahead for an account's next renders (a lease of spares), not yet
  // taken by any. It counts against the account's limit, so no lease can overshoot it, but not as used in
  // the usage the account sees: it becomes a charge (or a release) like a reservation once a render took it.
  await sql`alter table credit_ledger drop constraint if exists credit_ledger_status_check`.execute(db);
  await sql`alter table credit_ledger add constraint credit_ledger_status_check
    check (status in ('reserved', 'charged', 'released', 'leased'))`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function down(db: Kysely<any>): Promise<void> {
  // Spares nobody took cost nothing.
  await sql`update credit_ledger set status = 'released', settled_at = now() where status = 'leased'`.execute(db);
  await sql`alter table credit_ledger drop constraint if exists credit_ledger_status_check`.execute(db);
  await sql`alter table credit_ledger add constraint credit_ledger_status_check
    check (status in ('reserved', 'charged', 'released'))`.execute(db);
}
