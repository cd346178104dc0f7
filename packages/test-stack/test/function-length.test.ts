import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { longFunctions, longFunctionsIn, MAX_FUNCTION_LINES, sourceFiles } from '../src/function-length.ts';

const longBody = (lines: number) => Array.from({ length: lines }, (_, i) => `  const v${i} = ${i};`).join('\n');

describe('longFunctions', () => {
  it('finds a function over the limit, nested or not, and passes one at it (the check can fail)', () => {
    const text = [
      `export function long() {\n${longBody(130)}\n}`,
      `const short = () => 1;`,
      // Exactly at the limit: 120 lines, not reported.
      `class A {\n  method() {\n${longBody(MAX_FUNCTION_LINES - 2)}\n  }\n}`,
      `const outer = () => {\n  return [1].map(() => {\n${longBody(125)}\n  });\n};`,
    ].join('\n');
    expect(longFunctions('x.ts', text)).toEqual(['x.ts:1 (132 lines)', 'x.ts:256 (129 lines)', 'x.ts:257 (127 lines)']);
  });

  it('reads TSX and plain JavaScript', () => {
    const component = `export function Big() {\n${longBody(125)}\n  return <div>{v0}</div>;\n}`;
    expect(longFunctions('big.tsx', component)).toEqual(['big.tsx:1 (128 lines)']);
    expect(longFunctions('page.browser.js', `window.f = function () {\n${longBody(125)}\n};`)).toEqual(['page.browser.js:1 (127 lines)']);
  });
});

describe('sourceFiles', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'function-length-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('lists source files and leaves out tests, dependencies, built and generated output', () => {
    const files = [
      'src/a.ts',
      'src/b.test.ts',
      'src/view.tsx',
      'scripts/tool.mjs',
      'test/helper.ts',
      'e2e/flow.ts',
      'node_modules/dep/index.js',
      'dist/a.js',
      'dist-ssr/a.js',
      'src/generated/api.ts',
      '.turbo/x.js',
      'README.md',
    ];
    for (const file of files) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), '');
    }
    expect(sourceFiles(root)).toEqual(['scripts/tool.mjs', 'src/a.ts', 'src/view.tsx']);
  });
});

describe('function length across the repository', () => {
  it('covers every workspace kind', () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(400);
    expect(files).toEqual(
      expect.arrayContaining([
        'apps/web/src/main.tsx',
        'services/gateway/src/app.ts',
        'packages/test-stack/src/function-length.ts',
        'bench/lib/stack.ts',
        'infra/licences/src/check.ts',
        'scripts/build-services.mjs',
      ]),
    );
  });

  it(`no source function is over ${MAX_FUNCTION_LINES} lines`, () => {
    expect(longFunctionsIn()).toEqual([]);
  });
});
