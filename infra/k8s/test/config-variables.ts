import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    // packages/test-stack validates what tunes a test run (TEST_DATABASE_URL…): no deployment ever sets it.
    if (name === 'node_modules' || name === 'test' || name === 'dist' || name === 'test-stack') return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(name) && !/\.(test|d)\.ts$/.test(name) ? [path] : [];
  });
}

/**
 * Every environment variable the code validates through packages/config: the UPPER_CASE keys of each
 * `Type.Object({ … })` in a module that imports `@render/config` (the services' and packages' config schemas,
 * which `loadConfig` reads), found with the TypeScript parser. Maps each name to the files that declare it.
 */
export function configVariables(roots: string[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of roots.flatMap(sourceFiles)) {
    const text = readFileSync(file, 'utf8');
    if (!text.includes("from '@render/config'")) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        node.expression.expression.getText(source) === 'Type' &&
        node.expression.name.text === 'Object'
      ) {
        const [arg] = node.arguments;
        if (arg && ts.isObjectLiteralExpression(arg))
          for (const p of arg.properties) {
            const name = p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? p.name.text : undefined;
            if (name && /^[A-Z][A-Z0-9_]+$/.test(name)) found.set(name, [...(found.get(name) ?? []), file]);
          }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}
