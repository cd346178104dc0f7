import { type Kysely, sql } from 'kysely';

// Migrations take Kysely<any> on purpose: they must keep compiling against the
// schema as it was when they were written, not as `DB` describes it today.

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  // QuickChart short URLs (POST /chart/create → GET /chart/render/{id}): the chart request as validated, kept
  // until it expires. The id is random (not guessable: the URL is the only key); the owner is the account whose
  // credentials created it, null for an anonymous creator, and the row goes with the account.
  await db.schema
    .createTable('chart_short_urls')
    .addColumn('id', 'text', (col) => col.primaryKey().check(sql`id ~ '^[A-Za-z0-9_-]{16,40}$'`))
    .addColumn('request', 'jsonb', (col) => col.notNull())
    .addColumn('user_id', 'uuid', (col) => col.references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('chart_short_urls_expires_idx').on('chart_short_urls').column('expires_at').execute();
  await db.schema
    .createIndex('chart_short_urls_user_idx')
    .on('chart_short_urls')
    .column('user_id')
    .where('user_id', 'is not', null)
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('chart_short_urls').execute();
}
