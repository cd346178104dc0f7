// Usage: tsx src/seed.cli.ts — stores the public starter templates (idempotent; scripts/lib/setup.sh runs it
// after the migrations). Like the db package's CLIs, this entry point hands the process environment to
// the service's config loader.

import { loadConfig } from '@render/config';
import { createDb } from '@render/db';
import { Type } from '@sinclair/typebox';
import { seedStarterTemplates } from './starters/seed.ts';
import { STARTER_TEMPLATES } from './starters/starters.ts';

const { DATABASE_URL } = loadConfig(Type.Object({ DATABASE_URL: Type.String({ pattern: '^postgres(ql)?://' }) }), process.env);
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
