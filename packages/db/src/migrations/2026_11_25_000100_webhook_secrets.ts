import { type Kysely, sql } from 'kysely';

// Migrations take Kysely<any> on purpose: they must keep compiling against the
// schema as it was when they were written, not as `DB` describes it today.

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  // One webhook signing secret per account, AES-256-GCM encrypted like API keys (the dashboard shows it
  // again, and the worker needs it in clear to sign). A rotation replaces it in place: deliveries are
  // signed at delivery time, so there is no old secret to keep.
  await db.schema
    .createTable('webhook_secrets')
    .addColumn('user_id', 'uuid', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret_ciphertext', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_secrets').execute();
}
