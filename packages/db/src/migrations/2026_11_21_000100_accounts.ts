import { type Kysely, sql } from 'kysely';

// Migrations take Kysely<any> on purpose: they must keep compiling against the
// schema as it was when they were written, not as `DB` describes it today.

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('name', 'text', (col) => col.notNull())
    // Stored lowercased so the unique index also rejects case variants of one address.
    .addColumn('email', 'text', (col) => col.notNull().unique().check(sql`email = lower(email)`))
    .addColumn('password_hash', 'text', (col) => col.notNull())
    .addColumn('company', 'text')
    .addColumn('usage_source', 'text', (col) => col.notNull())
    .addColumn('referral_source', 'text', (col) => col.notNull())
    .addColumn('planned_services', sql`text[]`, (col) => col.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('role', 'text', (col) => col.notNull().defaultTo('user').check(sql`role in ('user', 'admin')`))
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('pending').check(sql`status in ('pending', 'verified')`))
    .addColumn('plan', 'text', (col) => col.notNull().defaultTo('free').check(sql`plan in ('free', 'pro')`))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  // Admin stats count sign-ups per window.
  await db.schema.createIndex('users_created_at_idx').on('users').column('created_at').execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key_hash', 'text', (col) => col.notNull().unique())
    .addColumn('key_ciphertext', 'text', (col) => col.notNull())
    .addColumn('prefix', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  // At most one active key per user, enforced by the database rather than by the regenerate code path.
  await db.schema
    .createIndex('api_keys_one_active_per_user')
    .on('api_keys')
    .column('user_id')
    .unique()
    .where(sql.ref('revoked_at'), 'is', null)
    .execute();

  await db.schema
    .createTable('email_codes')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (col) => col.notNull().check(sql`purpose in ('verify')`))
    .addColumn('code_hash', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('consumed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('email_codes_user_purpose_idx').on('email_codes').columns(['user_id', 'purpose']).execute();

  await db.schema
    .createTable('password_resets')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('consumed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('password_resets').execute();
  await db.schema.dropTable('email_codes').execute();
  await db.schema.dropTable('api_keys').execute();
  await db.schema.dropTable('users').execute();
}
