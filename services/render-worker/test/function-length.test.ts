// The project's hard limit: no function over 120 lines (DEVELOPERS.md; ~80 is the aim). Counted by the
// TypeScript parser, a function's lines including the functions it holds.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');
const MAX_LINES = 120;

function longFunctions(file: string, text: string, max: number): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.end).line;
      if (last - first + 1 > max) found.push(`${file}:${first + 1} (${last - first + 1} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('function length', () => {
  it('finds a function over the limit (the check can fail)', () => {
    const body = Array.from({ length: 130 }, (_, i) => `  const v${i} = ${i};`).join('\n');
    expect(longFunctions('x.ts', `export function long() {\n${body}\n}\nconst short = () => 1;`, MAX_LINES)).toEqual([
      'x.ts:1 (132 lines)',
    ]);
  });

  it(`no function in the worker's source is over ${MAX_LINES} lines`, () => {
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => /\.(?:ts|js)$/.test(f));
    expect(files.length).toBeGreaterThan(50);
    const offending = files.flatMap((file) => longFunctions(file, readFileSync(path.join(src, file), 'utf8'), MAX_LINES));
    expect(offending).toEqual([]);
  });
});
