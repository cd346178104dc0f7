import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { exceptionFor, type InventoryEntry } from './check.ts';
import type { LicencePolicy } from './policy.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const INVENTORY_FILE = path.join(ROOT, 'THIRD_PARTY_LICENSES.md');

/** `pnpm licenses list --json`: licence → packages (paths are this machine's and left out). */
type PnpmLicences = Record<string, Array<{ name: string; versions: string[]; license?: string; homepage?: string }>>;

/** The production dependencies of every workspace package, from the lockfile, as `pnpm licenses` reads them. */
export async function readInventory(root = ROOT): Promise<InventoryEntry[]> {
  // A user's pnpm: without the npm_*/pnpm_* variables of the pnpm that may be running this.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(npm|pnpm)_/i.test(name)));
  const { stdout } = await promisify(execFile)('pnpm', ['licenses', 'list', '--json', '--prod'], {
    cwd: root,
    env,
    maxBuffer: 64 << 20,
  });
  return fromPnpm(JSON.parse(stdout) as PnpmLicences);
}

export function fromPnpm(report: PnpmLicences): InventoryEntry[] {
  const entries = Object.entries(report).flatMap(([licence, packages]) =>
    packages.map((p) => ({
      name: p.name,
      versions: [...p.versions].sort(),
      licence: p.license ?? licence,
      ...(p.homepage ? { homepage: p.homepage } : {}),
    })),
  );
  return entries.sort((a, b) => a.name.localeCompare(b.name, 'en'));
}

/**
 * Packages the lockfile builds for one platform only (`os`/`cpu`/`libc`, e.g. sharp's libvips for
 * linux-x64): an install holds the ones of its own platform, so the inventory differs by machine there.
 */
export async function platformPackages(root = ROOT): Promise<Set<string>> {
  const lock = parse(await readFile(path.join(root, 'pnpm-lock.yaml'), 'utf8')) as { packages?: Record<string, Record<string, unknown>> };
  const names = new Set<string>();
  for (const [key, entry] of Object.entries(lock.packages ?? {})) {
    if (entry.os || entry.cpu || entry.libc) names.add(key.slice(0, key.lastIndexOf('@')));
  }
  return names;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The inventory as the Markdown file people read (THIRD_PARTY_LICENSES.md). */
export function renderInventory(entries: InventoryEntry[], policy: LicencePolicy): string {
  const byLicence = new Map<string, number>();
  for (const entry of entries) byLicence.set(entry.licence, (byLicence.get(entry.licence) ?? 0) + 1);
  const excepted = entries.filter((entry) => exceptionFor(policy, entry));
  const lines = [
    '# Third-party licences',
    '',
    'Generated from `pnpm-lock.yaml` by `pnpm --filter @render/licences inventory` (`pnpm licenses list --json --prod`):',
    'the production dependencies of every workspace package, i.e. what the services, the web app and the SDK ship.',
    'Do not edit by hand: `infra/licences/test/inventory.test.ts` fails when this file is stale, and when a licence',
    'is neither on the allow-list of `infra/licences/src/policy.ts` nor an exception there with its reason.',
    'Not listed: what the images install from Debian (Chromium, fonts) and download at build (infra/docker/README.md).',
    '',
    'The Render API itself is Apache-2.0 (LICENSE).',
    '',
    '## Exceptions',
    '',
    '| Package | Licence | Why it is accepted |',
    '|---|---|---|',
    ...excepted.map(
      (entry) => `| ${entry.name} ${entry.versions.join(', ')} | ${cell(entry.licence)} | ${cell(exceptionFor(policy, entry)!.reason)} |`,
    ),
    '',
    '## Licences',
    '',
    '| Licence | Packages | Allowed because |',
    '|---|---|---|',
    ...[...byLicence]
      .sort(([a, x], [b, y]) => y - x || a.localeCompare(b, 'en'))
      .map(([licence, count]) => {
        const why = policy.allowed.find((allowed) => allowed.id === licence)?.why;
        return `| ${cell(licence)} | ${count} | ${why ?? (licence.includes(' ') ? 'an expression of allowed licences' : 'exception, above')} |`;
      }),
    '',
    '## Packages',
    '',
    '| Package | Versions | Licence | Homepage |',
    '|---|---|---|---|',
    ...entries.map((entry) => `| ${entry.name} | ${entry.versions.join(', ')} | ${cell(entry.licence)} | ${entry.homepage ?? ''} |`),
    '',
  ];
  return lines.join('\n');
}
