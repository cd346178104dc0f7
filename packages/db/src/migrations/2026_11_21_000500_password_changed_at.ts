import type { Kysely } from 'kysely';

// Migrations take Kysely<any> on purpose: they must keep compiling against the
// schema as it was when they were written, not as `DB` describes it today.

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  // When the password last changed: session tokens carry it, and one issued before a change is refused.
  await db.schema.alterTable('users').addColumn('password_changed_at', 'timestamptz').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('password_changed_at').execute();
}
