// Usage: tsx src/seed.cli.ts — stores the public starter templates (idempotent; scripts/lib/setup.sh runs it
// after the migrations). Its settings come from the service's config module, like every entry point's.

import { createDb } from '@render/db';
import { loadSeedConfig } from './config.ts';
import { seedStarterTemplates } from './starters/seed.ts';
import { STARTER_TEMPLATES } from './starters/starters.ts';

const { DATABASE_URL } = loadSeedConfig();
const db = createDb(DATABASE_URL, { poolSize: 1 });
try {
  const { written } = await seedStarterTemplates(db);
  console.log(`starter templates: ${STARTER_TEMPLATES.length} present, ${written.length} written`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await db.destroy();
}
