#!/usr/bin/env node
// Bundles the SDK to plain JavaScript under dist/ (`pnpm build`, and `npm pack` through `prepack`), the files
// package.json's `exports` and `bin` point at: dist/index.js, the library for every runtime (platform
// "neutral": a `node:` import anywhere in its graph fails the build); dist/mcp.js, the `./mcp` entry (Node);
// and dist/cli.js, the CLI, which bin/renderapi.mjs loads when the TypeScript sources are not there (a packed
// package). Only the package's own dependencies stay external; workspace code (@render/mcp and the
// @render/contracts schemas its tools use) is compiled in. Declarations go to dist/types
// (tsconfig.build.json), with relative specifiers ending in .js, so a consumer's TypeScript resolves them in
// any module mode.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(path.join(DIR, 'package.json'), 'utf8'));
// Workspace packages (private, never published) are compiled in; npm dependencies stay external.
const external = Object.entries(pkg.dependencies ?? {})
  .filter(([, range]) => !String(range).startsWith('workspace:'))
  .map(([name]) => name);

/** tsc's declarations for the library entry, their `./x.ts` specifiers rewritten to `./x.js`. */
function emitDeclarations() {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', path.join(DIR, 'tsconfig.build.json')], { stdio: 'inherit' });
  const typesDir = path.join(DIR, 'dist/types');
  for (const entry of readdirSync(typesDir, { recursive: true, encoding: 'utf8' })) {
    if (!entry.endsWith('.d.ts')) continue;
    const file = path.join(typesDir, entry);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/(from\s+'\.{1,2}\/[^']+)\.ts'/g, "$1.js'"));
  }
}

/** The library bundle's options: also used by the test that holds the entry to fetch and Web Crypto only. */
export const libraryOptions = {
  entryPoints: [path.join(DIR, 'src/index.ts')],
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  external,
  logLevel: 'silent',
};

/** A Node bundle (the CLI, the MCP entry): workspace code compiled in, the package's npm dependencies external. */
const nodeBundle = (entry, outfile) =>
  build({
    entryPoints: [path.join(DIR, entry)],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    external,
    outfile: path.join(DIR, outfile),
    logLevel: 'warning',
  });

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  rmSync(path.join(DIR, 'dist'), { recursive: true, force: true });
  await build({ ...libraryOptions, outfile: path.join(DIR, 'dist/index.js'), logLevel: 'warning' });
  await nodeBundle('src/mcp/index.ts', 'dist/mcp.js');
  await nodeBundle('src/cli/main.ts', 'dist/cli.js');
  emitDeclarations();
  console.log(`${pkg.name}: dist/index.js, dist/mcp.js, dist/cli.js, dist/types/{index,mcp/index}.d.ts`);
}
