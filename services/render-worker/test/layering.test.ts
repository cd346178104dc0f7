// browser/ (Chromium, page pools) sits below renderers/: renderers use pools, and what a pool's pages hold
// comes in from render.worker.ts, the composition root. An import the other way would make the pools
// depend on every renderer's libraries and let renderer code reach into pool internals.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');
const browserDir = path.join(src, 'browser');
/** What browser/ must not import: the renderers, and the composition root that wires them in. */
const forbidden = [path.join(src, 'renderers'), path.join(src, 'render.worker.ts'), path.join(src, 'index.ts')];

/** Module specifiers of static imports, re-exports, side-effect imports, dynamic imports and require calls. */
function importSpecifiers(source: string): string[] {
  const patterns = [
    /\b(?:import|export)\s+(?:type\s+)?[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"`]([^'"`]+)['"`]\s*\)/g,
    /\brequire(?:\.resolve)?\s*\(\s*['"`]([^'"`]+)['"`]\s*\)/g,
  ];
  return patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((m) => m[1]!));
}

const tsFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(?:ts|js|mjs|cjs)$/.test(file))
    .map((file) => path.join(dir, file));

const isForbidden = (target: string) => forbidden.some((f) => target === f || target.startsWith(`${f}${path.sep}`));

describe('render-worker layering', () => {
  it('finds every kind of import it is meant to catch', () => {
    const source = [
      "import { a } from '../renderers/a.ts';",
      "import type { B } from '../renderers/b.ts';",
      "export { c } from '../renderers/c.ts';",
      "import '../renderers/d.ts';",
      "const e = await import('../renderers/e.ts');",
      "const f = require('../renderers/f.js');",
      'import {\n  g,\n  h,\n} from "../renderers/g.ts";',
    ].join('\n');
    expect(importSpecifiers(source).sort()).toEqual(
      ['a.ts', 'b.ts', 'c.ts', 'd.ts', 'e.ts', 'f.js', 'g.ts'].map((f) => `../renderers/${f}`),
    );
  });

  it('browser/ imports nothing from renderers/ (nor the composition root)', () => {
    const files = tsFiles(browserDir);
    expect(files.length).toBeGreaterThan(3);
    const offending: string[] = [];
    for (const file of files) {
      for (const specifier of importSpecifiers(readFileSync(file, 'utf8'))) {
        if (!specifier.startsWith('.')) continue; // packages
        const target = path.resolve(path.dirname(file), specifier);
        if (isForbidden(target)) offending.push(`${path.relative(src, file)} imports ${specifier}`);
      }
    }
    expect(offending).toEqual([]);
  });
});
