// `pnpm --filter @render/licences inventory`: rewrites THIRD_PARTY_LICENSES.md from the lockfile, and says
// which packages the policy does not accept (exit 1), so a dependency change and its licence review go
// together.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { checkInventory } from './check.ts';
import { INVENTORY_FILE, ROOT, readInventory, renderInventory } from './inventory.ts';
import { policy } from './policy.ts';

const entries = await readInventory();
await writeFile(INVENTORY_FILE, renderInventory(entries, policy));
console.log(`${path.relative(ROOT, INVENTORY_FILE)}: ${entries.length} production dependencies`);
const violations = checkInventory(entries, policy);
for (const v of violations) console.error(`✗ ${v.package} (${v.licence}): ${v.problem}`);
process.exitCode = violations.length > 0 ? 1 : 0;
