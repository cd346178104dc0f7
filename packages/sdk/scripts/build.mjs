#!/usr/bin/env node
// Bundles the SDK to plain JavaScript under dist/ (`pnpm build`): dist/index.js, the library for every
// runtime (platform "neutral": a `node:` import anywhere in its graph fails the build), and dist/cli.js, the
// CLI for Node, which bin/render.mjs loads when the TypeScript sources are not there (a published package).
// Only the package's own dependencies stay external; workspace code the CLI reaches (@render/contracts, via
// the MCP tools) is compiled in. Declarations are not emitted yet (README "Development").
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(path.join(DIR, 'package.json'), 'utf8'));
const external = Object.keys(pkg.dependencies ?? {});

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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  rmSync(path.join(DIR, 'dist'), { recursive: true, force: true });
  await build({ ...libraryOptions, outfile: path.join(DIR, 'dist/index.js'), logLevel: 'warning' });
  await build({
    entryPoints: [path.join(DIR, 'src/cli/main.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external,
    outfile: path.join(DIR, 'dist/cli.js'),
    logLevel: 'warning',
  });
  console.log('@render/sdk: dist/index.js, dist/cli.js');
}
