import type { Kysely } from 'kysely';
import { type MigrationResult, type MigrationResultSet, Migrator, NO_MIGRATIONS } from 'kysely/migration';
import { migrations } from './migrations/index.ts';

export type { MigrationResult };

// The migrator only touches its own bookkeeping tables, so it accepts a Kysely
// typed with any schema (and the untyped one migrations themselves get).
// biome-ignore lint/suspicious/noExplicitAny: see above
type AnyKysely = Kysely<any>;

export class MigrationError extends Error {
  constructor(
    override readonly cause: unknown,
    readonly results: MigrationResult[],
  ) {
    super(`migration failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'MigrationError';
  }
}

function migratorFor(db: AnyKysely): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    // Work developed in parallel lands migrations whose timestamps interleave with ones a database has
    // already run; each migration stands alone, so apply whatever is missing instead of refusing.
    allowUnorderedMigrations: true,
  });
}

function unwrap({ error, results = [] }: MigrationResultSet): MigrationResult[] {
  if (error !== undefined) throw new MigrationError(error, results);
  return results;
}

export async function migrateToLatest(db: AnyKysely): Promise<MigrationResult[]> {
  return unwrap(await migratorFor(db).migrateToLatest());
}

/** Rolls back the newest migration, or every migration with `{ all: true }`. */
export async function migrateDown(db: AnyKysely, { all = false }: { all?: boolean } = {}): Promise<MigrationResult[]> {
  const migrator = migratorFor(db);
  return unwrap(await (all ? migrator.migrateTo(NO_MIGRATIONS) : migrator.migrateDown()));
}
