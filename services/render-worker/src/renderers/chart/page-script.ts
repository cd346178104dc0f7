import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/** Where a host page's code comes from: TypeScript (`page/`) compiled into one classic script (an IIFE: the page has no modules). */
export interface PageScriptBuild {
  /**
   * The page's build file: its entry, output name and esbuild options, shared with
   * `scripts/build-services.mjs`, which compiles it into the worker's dist/ for production.
   */
  config: URL;
  /** The script that build puts next to the bundle (the caller's `new URL(…, import.meta.url)`). */
  built: URL;
  /** What the error says did not compile. */
  name: string;
}

/**
 * The compiled page code: the file the build put next to the bundle (production), else compiled from
 * source now with esbuild (a root devDependency, present wherever the TypeScript source runs).
 */
export function compiledPageScript({ config, built, name }: PageScriptBuild): string {
  const builtFile = fileURLToPath(built);
  if (existsSync(builtFile)) return readFileSync(builtFile, 'utf8');
  const build = JSON.parse(readFileSync(config, 'utf8')) as { entry: string; esbuild: import('esbuild').BuildOptions };
  const esbuild = require('esbuild') as typeof import('esbuild');
  const entry = fileURLToPath(new URL(build.entry, config));
  const [output] = esbuild.buildSync({ ...build.esbuild, entryPoints: [entry], write: false, logLevel: 'silent' }).outputFiles;
  if (!output) throw new Error(`${name} did not compile`);
  return output.text;
}
