import { describe, expect, it } from 'vitest';
import { checkInventory, type InventoryEntry, licenceAllowed } from '../src/check.ts';
import { renderInventory } from '../src/inventory.ts';
import type { LicencePolicy } from '../src/policy.ts';

// The checker on fabricated inventories: it must fail for real when a licence outside the policy appears.

const policy: LicencePolicy = {
  allowed: [
    { id: 'MIT', why: 'permissive' },
    { id: 'Apache-2.0', why: 'permissive' },
  ],
  exceptions: [
    { package: 'chart-lib', licence: 'https://example.com/commercial', reason: 'needs a commercial licence for commercial use' },
    { package: '@img/native-*', licence: 'LGPL-3.0-or-later', reason: 'dynamically linked, unmodified' },
  ],
};

const entry = (name: string, licence: string, versions = ['1.0.0']): InventoryEntry => ({ name, versions, licence });
const clean = [
  entry('a', 'MIT'),
  entry('chart-lib', 'https://example.com/commercial'),
  entry('@img/native-linux-x64', 'LGPL-3.0-or-later'),
];

describe('licenceAllowed', () => {
  const allowed = new Set(['MIT', 'Apache-2.0']);
  it.each([
    ['MIT', true],
    ['GPL-3.0-only', false],
    ['(MIT OR GPL-3.0-only)', true],
    ['(GPL-3.0-only OR AGPL-3.0-only)', false],
    ['(Apache-2.0 AND MIT)', true],
    ['(MIT AND GPL-3.0-only)', false],
    ['MIT OR (GPL-2.0-only AND Apache-2.0)', true],
    ['GPL-2.0-only OR (GPL-3.0-only AND MIT)', false],
    ['Apache-2.0 WITH LLVM-exception', false],
    ['https://www.highcharts.com/license', false],
    ['SEE LICENSE IN LICENSE.md', false],
    ['Unknown', false],
    ['', false],
    ['(MIT', false],
    ['MIT OR', false],
    ['MIT MIT', false],
  ])('%s → %s', (expression, expected) => {
    expect(licenceAllowed(expression, allowed)).toBe(expected);
  });
});

describe('checkInventory', () => {
  it('passes an inventory of allowed licences and listed exceptions', () => {
    expect(checkInventory(clean, policy)).toEqual([]);
  });

  it('fails on a production dependency under a licence outside the allow-list', () => {
    const violations = checkInventory([...clean, entry('copyleft', 'AGPL-3.0-only', ['2.1.0'])], policy);
    expect(violations).toEqual([
      { package: 'copyleft@2.1.0', licence: 'AGPL-3.0-only', problem: expect.stringContaining('not on the allow-list') },
    ]);
  });

  it('fails on a package that declares no licence, or only a pointer to a file', () => {
    expect(checkInventory([...clean, entry('mystery', 'Unknown'), entry('pointer', 'SEE LICENSE IN LICENSE')], policy)).toHaveLength(2);
  });

  it('fails when an excepted package changes its licence (the exception named another)', () => {
    const changed = clean.map((e) => (e.name === 'chart-lib' ? entry('chart-lib', 'CC-BY-NC-4.0') : e));
    const violations = checkInventory(changed, policy);
    expect(violations.map((v) => v.problem)).toEqual([
      expect.stringContaining('its exception is for https://example.com/commercial'),
      expect.stringContaining('no longer used'),
    ]);
  });

  it('does not let an exception cover another package, and a prefix covers only its family', () => {
    expect(checkInventory([...clean, entry('chart-lib-fork', 'https://example.com/commercial')], policy)).toHaveLength(1);
    expect(checkInventory([...clean, entry('@img/native-darwin-arm64', 'LGPL-3.0-or-later')], policy)).toEqual([]);
    expect(checkInventory([...clean, entry('@img/other', 'LGPL-3.0-or-later')], policy)).toHaveLength(1);
  });

  it('fails on an exception no package needs any more', () => {
    expect(checkInventory([entry('a', 'MIT'), entry('@img/native-linux-x64', 'LGPL-3.0-or-later')], policy)).toEqual([
      { package: 'chart-lib', licence: 'https://example.com/commercial', problem: expect.stringContaining('no longer used') },
    ]);
  });
});

describe('renderInventory', () => {
  it('lists every package with its licence, and each exception with its reason', () => {
    const text = renderInventory(clean, policy);
    expect(text).toContain('| chart-lib 1.0.0 | https://example.com/commercial | needs a commercial licence for commercial use |');
    expect(text).toContain('| a | 1.0.0 | MIT |  |');
    expect(text).toContain('| MIT | 1 | permissive |');
  });
});
