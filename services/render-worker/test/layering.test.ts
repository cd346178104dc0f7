// The worker's layers, bottom up: egress/ (the proxy and the fetcher) and browser/ (Chromium, page pools);
// renderers/page/ (what every format shares: page operations, encoder, diagnostics, PDF printing, errors,
// the renderer contract); one folder per format (html/, svg/, chart/, code/, screenshot/); the renderers'
// own composition (renderers/index.ts, pools.ts, payload-diagnostics.ts); render.worker.ts, the composition
// root; webhooks/ stands beside the renderers and uses neither them nor the pools. An import may only run
// down. browser/ importing a renderer would make the pools depend on every renderer's libraries; page/
// importing a format, or one format another, would tie together formats that are meant to change alone.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');
const at = (...parts: string[]) => path.join(src, ...parts);
const FORMATS = ['html', 'svg', 'chart', 'code', 'screenshot'] as const;
/** The composition: the worker's root and the renderers' own wiring of the formats. */
const compositionRoot = [at('render.worker.ts'), at('index.ts'), at('main.ts')];
const renderersComposition = [at('renderers/index.ts'), at('renderers/pools.ts'), at('renderers/payload-diagnostics.ts')];

interface LayerRule {
  layer: string;
  dir: string;
  /** Files or folders this layer must not import. */
  forbidden: string[];
}

const rules: LayerRule[] = [
  { layer: 'browser/', dir: at('browser'), forbidden: [at('renderers'), ...compositionRoot] },
  { layer: 'egress/', dir: at('egress'), forbidden: [at('renderers'), at('browser'), at('webhooks'), ...compositionRoot] },
  // Webhook deliveries ride in the render worker's process but use only the egress policy.
  { layer: 'webhooks/', dir: at('webhooks'), forbidden: [at('renderers'), at('browser'), ...compositionRoot] },
  {
    layer: 'renderers/page/',
    dir: at('renderers/page'),
    forbidden: [...FORMATS.map((f) => at('renderers', f)), ...renderersComposition, ...compositionRoot],
  },
  ...FORMATS.map((format) => ({
    layer: `renderers/${format}/`,
    dir: at('renderers', format),
    forbidden: [...FORMATS.filter((f) => f !== format).map((f) => at('renderers', f)), ...renderersComposition, ...compositionRoot],
  })),
];

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

const isUnder = (target: string, place: string) => target === place || target.startsWith(`${place}${path.sep}`);

/** Relative imports of the files under `rule.dir` that reach something the rule forbids. */
function violations(rule: LayerRule): string[] {
  const offending: string[] = [];
  for (const file of tsFiles(rule.dir)) {
    for (const specifier of importSpecifiers(readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.')) continue; // packages
      const target = path.resolve(path.dirname(file), specifier);
      if (rule.forbidden.some((place) => isUnder(target, place))) offending.push(`${path.relative(src, file)} imports ${specifier}`);
    }
  }
  return offending;
}

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

  it('catches an import that runs back up a layer', () => {
    const page = rules.find((r) => r.layer === 'renderers/page/')!;
    const screenshot = rules.find((r) => r.layer === 'renderers/screenshot/')!;
    // The import this layout removed: the shared contract reading a screenshot type.
    expect(page.forbidden.some((place) => isUnder(at('renderers/screenshot/full-page-capture.ts'), place))).toBe(true);
    expect(screenshot.forbidden.some((place) => isUnder(at('renderers/chart/chart-host.ts'), place))).toBe(true);
    expect(screenshot.forbidden.some((place) => isUnder(at('renderers/page/page-ops.ts'), place))).toBe(false);
  });

  it.each(rules.map((rule) => [rule.layer, rule] as const))('%s imports nothing from a layer above it', (_, rule) => {
    expect(tsFiles(rule.dir).length).toBeGreaterThan(0);
    expect(violations(rule)).toEqual([]);
  });

  it('every folder of src/ and of renderers/ has a rule', () => {
    const folders = (dir: string) =>
      readdirSync(dir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => path.join(dir, entry.name));
    const ruled = new Set(rules.map((rule) => rule.dir));
    // renderers/ itself is split into the folders below it.
    const unruled = [...folders(src), ...folders(at('renderers'))].filter((dir) => !ruled.has(dir) && dir !== at('renderers'));
    expect(unruled.map((dir) => path.relative(src, dir))).toEqual([]);
  });
});
