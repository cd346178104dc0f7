// Usage: tsx src/migrate.cli.ts [--down [--all]]
// Up migrates to latest; --down rolls back the newest migration (--all: every one).
import { parseArgs } from 'node:util';
import { loadDbConfig } from './config.ts';
import { createDb, MigrationError, type MigrationResult, migrateDown, migrateToLatest } from './index.ts';

function report(results: MigrationResult[]): void {
  for (const { migrationName, direction, status } of results) {
    console.log(`${status === 'Success' ? 'ok  ' : 'FAIL'} ${direction.toLowerCase().padEnd(4)} ${migrationName} (${status})`);
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      down: { type: 'boolean', default: false },
      all: { type: 'boolean', default: false },
    },
  });
  const { databaseUrl } = loadDbConfig(process.env);
  const db = createDb(databaseUrl, { poolSize: 1 });
  try {
    const results = values.down ? await migrateDown(db, { all: values.all }) : await migrateToLatest(db);
    report(results);
    if (results.length === 0) console.log(values.down ? 'nothing to roll back' : 'database is up to date');
    return 0;
  } catch (error) {
    if (error instanceof MigrationError) {
      report(error.results);
      console.error(error.message);
      if (error.cause instanceof Error && error.cause.stack) console.error(error.cause.stack);
    } else {
      console.error(error);
    }
    return 1;
  } finally {
    await db.destroy();
  }
}

process.exitCode = await main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  return 1;
});
