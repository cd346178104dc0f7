import type { Kysely } from 'kysely';

// Migrations take Kysely<any> on purpose: they must keep compiling against the
// schema as it was when they were written, not as `DB` describes it today.

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  // Whether the account refuses render links without sig (GET /api/render/{kind}); existing accounts accept both.
  await db.schema
    .alterTable('users')
    .addColumn('render_links_signed_only', 'boolean', (col) => col.notNull().defaultTo(false))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('render_links_signed_only').execute();
}
