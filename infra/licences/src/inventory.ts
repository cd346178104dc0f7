import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { exceptionFor, type InventoryEntry } from './check.ts';
import type { LicencePolicy } from './policy.ts';
import { renderSystemPackages } from './system-packages.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const INVENTORY_FILE = path.join(ROOT, 'THIRD_PARTY_LICENSES.md');

interface LockDependencies {
  dependencies?: Record<string, string | { version: string }>;
  optionalDependencies?: Record<string, string | { version: string }>;
}
interface Lockfile {
  importers?: Record<string, LockDependencies>;
  snapshots?: Record<string, LockDependencies>;
}
interface Manifest {
  name?: string;
  version?: string;
  license?: string | { type?: string };
  licenses?: Array<{ type?: string }>;
  homepage?: string;
  repository?: string | { url?: string };
}

/** `1.2.3(peer@4)` → `1.2.3`; `link:../x` stays as it is (a workspace package, not listed). */
const bareVersion = (version: string) => version.replace(/\(.*$/, '');
const versionOf = (entry: string | { version: string }) => (typeof entry === 'string' ? entry : entry.version);

/**
 * The production dependencies of every workspace package: the lockfile's importers' `dependencies` and
 * `optionalDependencies`, followed through its snapshots. Walked here rather than with `pnpm licenses list`,
 * which was seen to leave out a package now and then (tldts-core, a dependency of two packages).
 */
export async function lockfilePackages(root = ROOT): Promise<{ found: Map<string, Set<string>>; required: Set<string> }> {
  const lock = parse(await readFile(path.join(root, 'pnpm-lock.yaml'), 'utf8')) as Lockfile;
  const found = new Map<string, Set<string>>();
  // Reached through non-optional edges only from an importer: what an install may skip (an optional
  // dependency, and what only it needs, such as sharp's wasm build) is not required.
  const required = new Set<string>();
  const seen = new Map<string, boolean>();
  const queue: Array<[string, boolean]> = [];
  const visit = (deps: LockDependencies, parentRequired: boolean) => {
    for (const field of ['dependencies', 'optionalDependencies'] as const) {
      for (const [name, entry] of Object.entries(deps[field] ?? {})) {
        const spec = versionOf(entry);
        if (spec.startsWith('link:')) continue;
        // An alias (`autoconsent-filterlist: '@duckduckgo/autoconsent@15.1.0'`) names the real package.
        const alias = /^(@?[^@(]+)@(.+)$/.exec(spec);
        const [realName, version] = alias ? [alias[1] as string, alias[2] as string] : [name, spec];
        const key = `${realName}@${version}`;
        const isRequired = parentRequired && field === 'dependencies';
        if (isRequired) required.add(realName);
        const before = seen.get(key);
        if (before === true || (before === false && !isRequired)) continue;
        seen.set(key, isRequired);
        queue.push([key, isRequired]);
        const versions = found.get(realName) ?? new Set<string>();
        versions.add(bareVersion(version));
        found.set(realName, versions);
      }
    }
  };
  for (const importer of Object.values(lock.importers ?? {})) visit(importer, true);
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) visit(lock.snapshots?.[next[0]] ?? {}, next[1]);
  return { found, required };
}

/** Every installed package's manifest under node_modules/.pnpm, by `name@version`. */
async function installedManifests(root: string): Promise<Map<string, Manifest>> {
  const store = path.join(root, 'node_modules/.pnpm');
  const manifests = new Map<string, Manifest>();
  const read = async (dir: string) => {
    try {
      const manifest = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as Manifest;
      if (manifest.name && manifest.version) manifests.set(`${manifest.name}@${manifest.version}`, manifest);
    } catch {
      // Not a package (a .bin folder, a broken link): nothing to list.
    }
  };
  for (const entry of await readdir(store)) {
    const modules = path.join(store, entry, 'node_modules');
    const names = await readdir(modules).catch(() => [] as string[]);
    for (const name of names) {
      if (name.startsWith('@')) {
        for (const scoped of await readdir(path.join(modules, name)).catch(() => [] as string[]))
          await read(path.join(modules, name, scoped));
      } else if (!name.startsWith('.')) await read(path.join(modules, name));
    }
  }
  return manifests;
}

const licenceOf = (manifest: Manifest): string | undefined => {
  if (typeof manifest.license === 'string') return manifest.license;
  if (manifest.license?.type) return manifest.license.type;
  const old = manifest.licenses?.map((l) => l.type).filter(Boolean);
  return old && old.length > 0 ? (old.length === 1 ? old[0] : `(${old.join(' OR ')})`) : undefined;
};

/** The package's homepage, else its repository as a web address (`user/repo`, `git://`, `git+ssh://` forms). */
const homepageOf = (manifest: Manifest): string | undefined => {
  if (manifest.homepage) return manifest.homepage;
  const url = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
  if (!url) return undefined;
  if (/^[\w.-]+\/[\w.-]+$/.test(url)) return `https://github.com/${url}`;
  return url
    .replace(/^(git\+)?(ssh:\/\/git@|git:\/\/|https?:\/\/)/, 'https://')
    .replace(/^github:/, 'https://github.com/')
    .replace(/\.git$/, '');
};

/** The production dependencies of every workspace package, from the lockfile, with their installed licences. */
export async function readInventory(root = ROOT): Promise<InventoryEntry[]> {
  const [{ found: packages, required }, manifests, platform] = await Promise.all([
    lockfilePackages(root),
    installedManifests(root),
    platformPackages(root),
  ]);
  const entries: InventoryEntry[] = [];
  for (const [name, versions] of packages) {
    const installed = [...versions].filter((version) => manifests.has(`${name}@${version}`)).sort();
    // Another platform's build (sharp's libvips for macOS, say) is in the lockfile but not installed here.
    // Optional ones an install skipped are not shipped either.
    if (installed.length === 0 && (platform.has(name) || !required.has(name))) continue;
    if (installed.length < versions.size)
      throw new Error(`${name}@${[...versions].join(', ')} is in the lockfile but not installed: run pnpm install`);
    // Versions of one package may carry different licences (lru-cache 7 is ISC, 11 BlueOak): one entry each.
    const byLicence = new Map<string, { versions: string[]; homepage?: string }>();
    for (const version of installed) {
      const manifest = manifests.get(`${name}@${version}`) as Manifest;
      const licence = licenceOf(manifest) ?? 'UNKNOWN';
      const entry = byLicence.get(licence) ?? { versions: [] };
      entry.versions.push(version);
      entry.homepage = homepageOf(manifest) ?? entry.homepage;
      byLicence.set(licence, entry);
    }
    for (const [licence, { versions: listed, homepage }] of byLicence) {
      entries.push({ name, versions: listed, licence, ...(homepage ? { homepage } : {}) });
    }
  }
  return entries.sort((a, b) => a.name.localeCompare(b.name, 'en') || a.licence.localeCompare(b.licence, 'en'));
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
    "Generated from `pnpm-lock.yaml` by `pnpm --filter @render/licences inventory` (the importers' production dependencies, followed through the snapshots):",
    'the production dependencies of every workspace package, i.e. what the services, the web app and the SDK ship.',
    'Do not edit by hand: `infra/licences/test/inventory.test.ts` fails when this file is stale, and when a licence',
    'is neither on the allow-list of `infra/licences/src/policy.ts` nor an exception there with its reason.',
    'What the worker image installs from Debian is in its own section below; what the images download at build is in infra/docker/README.md.',
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
    ...renderSystemPackages(),
    '## Packages',
    '',
    '| Package | Versions | Licence | Homepage |',
    '|---|---|---|---|',
    ...entries.map((entry) => `| ${entry.name} | ${entry.versions.join(', ')} | ${cell(entry.licence)} | ${entry.homepage ?? ''} |`),
    '',
  ];
  return lines.join('\n');
}
