/**
 * The house rule "no function over 120 lines" (DEVELOPERS.md; ~80 is the aim), checked the same way in every
 * workspace: the TypeScript parser counts a function's lines, including the functions it holds.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { repoRoot } from './repo-root.ts';

export const MAX_FUNCTION_LINES = 120;

const SOURCE_FILE = /\.(?:[cm]?[jt]s|[jt]sx)$/;
const TEST_FILE = /\.(?:test|spec)\.[^.]+$/;
/** Tests, dependencies and what a build or a tool writes: not source a developer keeps short. */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'coverage', 'generated', 'e2e-artifacts', 'test', 'tests', 'e2e', '__tests__']);

const skippedDir = (name: string) => SKIPPED_DIRS.has(name) || name.startsWith('dist-') || name.startsWith('.');

/** Every TypeScript/JavaScript source file under `root` (default: the checkout), as `/`-separated paths relative to it. */
export function sourceFiles(root: string = repoRoot): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const relative = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!skippedDir(entry.name)) walk(relative);
      } else if (entry.isFile() && SOURCE_FILE.test(entry.name) && !TEST_FILE.test(entry.name)) found.push(relative);
    }
  };
  walk('');
  return found.sort();
}

/** `file:line (n lines)` for each function in `text` longer than `max` lines; the file name picks the parser's dialect. */
export function longFunctions(file: string, text: string, max: number = MAX_FUNCTION_LINES): string[] {
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

/** The long functions of every source file under `root`, except the `exempt` paths (relative, as sourceFiles gives them). */
export function longFunctionsIn(root: string = repoRoot, exempt: ReadonlySet<string> = new Set()): string[] {
  return sourceFiles(root)
    .filter((file) => !exempt.has(file))
    .flatMap((file) => longFunctions(file, readFileSync(path.join(root, file), 'utf8')));
}
