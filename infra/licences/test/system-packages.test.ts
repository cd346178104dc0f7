import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { INVENTORY_FILE, ROOT } from '../src/inventory.ts';
import { dockerfileAptPackages, SYSTEM_PACKAGES } from '../src/system-packages.ts';

describe('the worker image’s Debian packages', () => {
  it('each have their licence and use in THIRD_PARTY_LICENSES.md, and nothing is listed that the image does not install', async () => {
    const installed = await dockerfileAptPackages(ROOT);
    expect(installed).toContain('chromium-headless-shell');
    expect(installed).toContain('ffmpeg');
    expect([...installed].sort()).toEqual(Object.keys(SYSTEM_PACKAGES).sort());
    const inventory = await readFile(INVENTORY_FILE, 'utf8');
    for (const name of installed) expect(inventory).toMatch(new RegExp(`^\\| ${name} \\| [^|]+ \\|`, 'm'));
    // ffmpeg is GPL as Debian builds it: the line says it is run beside the worker, not linked into it.
    expect(inventory).toMatch(/^\| ffmpeg \| GPL-2\.0-or-later[^|]*\| [^|]*separate program/m);
  });

  it('are read from the Dockerfile’s apt-get lines, continuations and options left out', async () => {
    const installed = await dockerfileAptPackages(ROOT);
    expect(installed.some((name) => name.startsWith('-') || name.includes('\\') || name === '')).toBe(false);
  });
});
