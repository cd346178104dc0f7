import { type Kysely, sql } from 'kysely';

// Migrations take Kysely<any> on purpose: they must keep compiling against the
// schema as it was when they were written, not as `DB` describes it today.

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  // Named keys live beside the account's default key in the same table, so the one lookup by hash (the
  // gateway's verification and reservation) finds either. The default key is the one without a name; only it
  // keeps a ciphertext (signed template URLs are HMACs made with it). A named key is kept as its SHA-256 only.
  await db.schema
    .alterTable('api_keys')
    .addColumn('name', 'text', (col) => col.check(sql`name is null or char_length(name) between 1 and 60`))
    .addColumn('scope', 'text', (col) => col.notNull().defaultTo('full').check(sql`scope in ('render', 'templates', 'full')`))
    .addColumn('expires_at', 'timestamptz')
    .addColumn('last_used_at', 'timestamptz')
    .execute();
  await db.schema
    .alterTable('api_keys')
    .alterColumn('key_ciphertext', (col) => col.dropNotNull())
    .execute();
  await sql`alter table api_keys add constraint api_keys_default_has_ciphertext check (name is not null or key_ciphertext is not null)`.execute(
    db,
  );
  // One active default key per user, as before; named keys are not bound by it.
  await db.schema.dropIndex('api_keys_one_active_per_user').execute();
  await db.schema
    .createIndex('api_keys_one_active_per_user')
    .on('api_keys')
    .column('user_id')
    .unique()
    .where(sql<boolean>`revoked_at is null and name is null`)
    .execute();
  await db.schema.createIndex('api_keys_user_named_idx').on('api_keys').column('user_id').where(sql<boolean>`name is not null`).execute();

  // Which key reserved each credit (null: a session, or rows older than this), for usage filtered by key.
  await db.schema
    .alterTable('credit_ledger')
    .addColumn('key_id', 'uuid', (col) => col.references('api_keys.id').onDelete('set null'))
    .execute();
  await db.schema
    .createIndex('credit_ledger_key_created_idx')
    .on('credit_ledger')
    .columns(['key_id', 'created_at'])
    .where(sql<boolean>`key_id is not null`)
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('credit_ledger_key_created_idx').execute();
  await db.schema.alterTable('credit_ledger').dropColumn('key_id').execute();
  // Named keys cannot be kept under the old shape (no ciphertext, several active per user).
  await db.deleteFrom('api_keys').where('name', 'is not', null).execute();
  await db.schema.dropIndex('api_keys_user_named_idx').execute();
  await db.schema.dropIndex('api_keys_one_active_per_user').execute();
  await db.schema
    .createIndex('api_keys_one_active_per_user')
    .on('api_keys')
    .column('user_id')
    .unique()
    .where(sql.ref('revoked_at'), 'is', null)
    .execute();
  await sql`alter table api_keys drop constraint api_keys_default_has_ciphertext`.execute(db);
  await db.schema
    .alterTable('api_keys')
    .alterColumn('key_ciphertext', (col) => col.setNotNull())
    .execute();
  await db.schema
    .alterTable('api_keys')
    .dropColumn('name')
    .dropColumn('scope')
    .dropColumn('expires_at')
    .dropColumn('last_used_at')
    .execute();
}
