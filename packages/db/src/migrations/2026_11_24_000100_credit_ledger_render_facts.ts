import { type Kysely, sql } from 'kysely';

// Migrations take Kysely<any> on purpose: they must keep compiling against the
// schema as it was when they were written, not as `DB` describes it today.

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  // What each billed render was, for the account's usage lists. Nullable: rows recorded before these were
  // kept have none, and size and render time are only known once an image was made (a charge).
  await db.schema
    .alterTable('credit_ledger')
    .addColumn('kind', 'text', (col) => col.check(sql`kind in ('html', 'svg', 'chart', 'code', 'screenshot', 'template')`))
    .addColumn('format', 'text')
    .addColumn('size_bytes', 'integer', (col) => col.check(sql`size_bytes >= 0`))
    .addColumn('render_ms', 'integer', (col) => col.check(sql`render_ms >= 0`))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('credit_ledger')
    .dropColumn('kind')
    .dropColumn('format')
    .dropColumn('size_bytes')
    .dropColumn('render_ms')
    .execute();
}
