import { type Kysely, sql } from 'kysely';

// Migrations take Kysely<any> on purpose: they must keep compiling against the
// schema as it was when they were written, not as `DB` describes it today.

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('templates')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('width', 'integer', (col) => col.notNull().check(sql`width between 50 and 4000`))
    .addColumn('height', 'integer', (col) => col.notNull().check(sql`height between 50 and 4000`))
    .addColumn('svg', 'text', (col) => col.notNull())
    .addColumn('variables', 'jsonb', (col) => col.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('is_public', 'boolean', (col) => col.notNull().defaultTo(false))
    // Kept in step with template_stars by the same statement that adds or removes a star.
    .addColumn('star_count', 'integer', (col) => col.notNull().defaultTo(0).check(sql`star_count >= 0`))
    // Provenance of a duplicate; the copy outlives its source.
    .addColumn('source_template_id', 'uuid', (col) => col.references('templates.id').onDelete('set null'))
    .addColumn('published_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    // Public is irreversible: a published template always has its publication time.
    .addCheckConstraint('templates_published_check', sql`is_public = (published_at is not null)`)
    .execute();
  await db.schema.createIndex('templates_user_created_idx').on('templates').columns(['user_id', 'created_at']).execute();
  await sql`create index templates_public_created_idx on templates (created_at desc) where is_public`.execute(db);
  await sql`create index templates_public_stars_idx on templates (star_count desc, created_at desc) where is_public`.execute(db);

  await db.schema
    .createTable('template_stars')
    .addColumn('template_id', 'uuid', (col) => col.notNull().references('templates.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('template_stars_pkey', ['template_id', 'user_id'])
    .execute();
  await db.schema.createIndex('template_stars_user_idx').on('template_stars').columns(['user_id', 'created_at']).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('template_stars').execute();
  await db.schema.dropTable('templates').execute();
}
