import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkInventory, type InventoryEntry } from '../src/check.ts';
import { INVENTORY_FILE, platformPackages, ROOT, readInventory, renderInventory } from '../src/inventory.ts';
import { policy } from '../src/policy.ts';

// The real inventory: regenerated from this checkout's lockfile, held to the policy, and compared with the
// committed THIRD_PARTY_LICENSES.md.

const entries = await readInventory();

describe('the production dependencies', () => {
  it('are read from the lockfile (the services, the web app and the SDK)', () => {
    const names = entries.map((e) => e.name);
    for (const name of ['fastify', 'bullmq', 'react', 'highcharts', '@modelcontextprotocol/sdk']) expect(names).toContain(name);
    expect(names.filter((name) => name.startsWith('@render/') || name === 'render-api-sdk')).toEqual([]);
  });

  it('carry only licences on the allow-list, or are exceptions with their reason', () => {
    const violations = checkInventory(entries, policy);
    expect(violations, violations.map((v) => `${v.package} (${v.licence}): ${v.problem}`).join('\n')).toEqual([]);
    // The same policy refuses a copyleft package slipped into this very inventory.
    const withGpl = [...entries, { name: 'some-gpl-lib', versions: ['1.0.0'], licence: 'GPL-3.0-only' }];
    expect(checkInventory(withGpl, policy).map((v) => v.package)).toEqual(['some-gpl-lib@1.0.0']);
  });

  it('are listed in THIRD_PARTY_LICENSES.md as the lockfile has them (pnpm --filter @render/licences inventory)', async () => {
    const committed = await readFile(INVENTORY_FILE, 'utf8');
    // The committed file is made on linux-x64 (the images, CI, scripts/dev); another machine installs other
    // builds of the platform-specific packages (sharp's libvips), so those are compared only there.
    const here = process.platform === 'linux' && process.arch === 'x64';
    const platform = here ? new Set<string>() : await platformPackages();
    const portable = (list: InventoryEntry[]) => list.filter((e) => !platform.has(e.name));
    const regenerated = renderInventory(portable(entries), policy);
    const fromFile = here ? committed : renderInventory(portable(parseCommitted(committed)), policy);
    expect(fromFile, 'THIRD_PARTY_LICENSES.md is stale: run pnpm --filter @render/licences inventory').toBe(regenerated);
    // What another platform compares: the file read back gives the file again.
    expect(renderInventory(parseCommitted(committed), policy)).toBe(committed);
  });
});

/** The package table of the committed file, back as entries. */
function parseCommitted(text: string): InventoryEntry[] {
  const table = text.slice(text.indexOf('## Packages'));
  return [...table.matchAll(/^\| (\S+) \| ([^|]+) \| ((?:[^|\\]|\\\|)+) \| ([^|]*) \|$/gm)]
    .filter(([, name]) => name !== 'Package' && name !== '---')
    .map(([, name, versions, licence, homepage]) => ({
      name: name!,
      versions: versions!.split(', '),
      licence: licence!.replace(/\\\|/g, '|'),
      ...(homepage ? { homepage } : {}),
    }));
}

describe('the Highcharts notice', () => {
  it('is in the README, ARCHITECTURE and the docs page (en, fr)', async () => {
    const read = (file: string) => readFile(path.join(ROOT, file), 'utf8');
    expect(await read('README.md')).toMatch(/Highcharts is not free for commercial use\.\*\*[\s\S]*commercial\s+Highcharts licence/);
    expect(await read('ARCHITECTURE.md')).toMatch(/Highcharts is not free for commercial use[\s\S]*Highcharts licence from Highsoft/);
    const en = JSON.parse(await read('apps/web/src/i18n/locales/en/docs.json')).sections.chart.intro;
    const fr = JSON.parse(await read('apps/web/src/i18n/locales/fr/docs.json')).sections.chart.intro;
    expect(en).toMatch(/Highcharts is not free for commercial use.*licence from Highsoft/);
    expect(fr).toMatch(/Highcharts n’est pas gratuit pour un usage commercial.*licence de Highsoft/);
  });
});
