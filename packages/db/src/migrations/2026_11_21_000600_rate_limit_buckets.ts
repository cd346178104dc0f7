import type { Kysely } from 'kysely';

// Migrations take Kysely<any> on purpose: they must keep compiling against the
// schema as it was when they were written, not as `DB` describes it today.

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  // Token buckets every auth replica shares (login and mail limits): one row per limit and key.
  await db.schema
    .createTable('rate_limit_buckets')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('tokens', 'double precision', (col) => col.notNull())
    .addColumn('allowed', 'boolean', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('rate_limit_buckets_updated_idx').on('rate_limit_buckets').column('updated_at').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rate_limit_buckets').execute();
}
