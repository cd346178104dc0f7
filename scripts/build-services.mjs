#!/usr/bin/env node
// Compiles the Node services to plain JavaScript: one esbuild bundle per entry point under the package's
// dist/, runnable with `node dist/<entry>.js` (no tsx, no TypeScript loader). Used by each service's
// `build` script and by the production images (infra/docker/*.Dockerfile).
//
//   node scripts/build-services.mjs                 every target
//   node scripts/build-services.mjs gateway db      only these (names: see TARGETS)
//   node scripts/build-services.mjs --deploy OUT gateway auth templates
//       also a production folder: OUT holds the workspace's package.json files, a production-only
//       install of those services (`pnpm install --prod --frozen-lockfile --offline`, from the store
//       `pnpm install`/`pnpm fetch` filled) and each one's dist/, so `cd OUT/services/gateway && node
//       dist/server.js` runs exactly as in the image (infra/docker/*.Dockerfile copy OUT to /app).
//
// What goes in the bundle: the package's own source and the workspace packages it imports (@render/*
// export TypeScript source, so they must be compiled in), plus any npm package those workspace packages
// use that the service does not list itself (e.g. pino under @render/logger): such a package is not
// resolvable from the service's own node_modules, neither in the checkout (pnpm links only direct
// dependencies) nor in a `pnpm deploy --prod` folder. What stays external: Node built-ins and the npm
// packages the service lists in its own package.json `dependencies`, which its production install holds.
//
// Files read at run time next to the code are copied into dist/ (assets): the worker's browser-side
// scripts and fontconfig file, the templates' starter SVGs; browser-side TypeScript (pageScripts: the
// chart page's code) is compiled into one script there. The source resolves them next to the bundle
// first, then where they sit in the checkout.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * dir: the package; entries: dist/<name>.js ← source (relative to dir); assets: [from (repo-relative), to
 * (relative to dist/)].
 */
export const TARGETS = {
  gateway: { dir: 'services/gateway', entries: { server: 'src/server.ts' }, assets: [] },
  auth: { dir: 'services/auth', entries: { server: 'src/server.ts' }, assets: [] },
  templates: {
    dir: 'services/templates',
    // The image's migrate job runs the migrations, then the starter seed: both ship with the templates
    // image, so the migrate CLI is bundled here too (its npm dependencies not listed by templates, pg
    // among them, go into the bundle).
    entries: { server: 'src/server.ts', 'seed.cli': 'src/seed.cli.ts', 'migrate.cli': '../../packages/db/src/migrate.cli.ts' },
    assets: [['services/templates/starters', 'starters']],
  },
  'render-worker': {
    dir: 'services/render-worker',
    entries: { main: 'src/main.ts' },
    assets: [
      ['services/render-worker/src/renderers/code/code-canvas.browser.js', 'code-canvas.browser.js'],
      ['infra/fonts/fonts.conf', 'fonts.conf'],
      // The project's default ad and tracker lists (block-lists.ts finds them next to the bundle).
      ['services/render-worker/blocklists', 'blocklists'],
    ],
    // Browser-side TypeScript compiled into one script next to the bundle: the chart page's code
    // (chart-host.ts reads it there; from source it compiles it itself, with the same options).
    pageScripts: [
      'services/render-worker/src/renderers/chart/chart-page.build.json',
      'services/render-worker/src/renderers/chart/quickchart-page.build.json',
    ],
  },
  db: { dir: 'packages/db', entries: { 'migrate.cli': 'src/migrate.cli.ts' }, assets: [] },
};

/** Optional native add-ons that packages bundled here try to load and do without (pg → pg-native). */
const OPTIONAL_NATIVE = new Set(['pg-native']);

const BUILTINS = new Set(builtinModules);

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
const packageName = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** The npm packages (not workspace ones) the package at `dir` lists as production dependencies. */
export function externalDependencies(dir) {
  const { dependencies = {} } = readJson(path.join(ROOT, dir, 'package.json'));
  return new Set(
    Object.entries(dependencies)
      .filter(([, range]) => !String(range).startsWith('workspace:'))
      .map(([name]) => name),
  );
}

/** esbuild, a root devDependency. */
const loadEsbuild = () => import('esbuild');

/** Keeps built-ins and the service's own npm dependencies external; bundles everything else. */
function externalsPlugin(external) {
  return {
    name: 'render-externals',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('node:') || BUILTINS.has(args.path) || BUILTINS.has(packageName(args.path))) {
          return { path: args.path, external: true };
        }
        const name = packageName(args.path);
        if (OPTIONAL_NATIVE.has(name)) return { path: args.path, external: true };
        // Imports made by an npm package that is itself being bundled stay with it (its own versions), so
        // only the workspace's source may reach the service's node_modules.
        if (args.importer.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        if (external.has(name)) return { path: args.path, external: true };
        return undefined;
      });
    },
  };
}

// Bundled CommonJS code calls require() and reads __filename/__dirname; an ES module has neither.
const BANNER = [
  "import { createRequire as __bundleCreateRequire } from 'node:module';",
  "import { fileURLToPath as __bundleFileURLToPath } from 'node:url';",
  'const require = __bundleCreateRequire(import.meta.url);',
  'const __filename = __bundleFileURLToPath(import.meta.url);',
  "const __dirname = __bundleFileURLToPath(new URL('.', import.meta.url));",
].join('\n');

/** Builds one target into its dist/ (or `outdir`); resolves to the bundles written. */
export async function buildTarget(name, { esbuild, log = console.log, outdir: outdirOption } = {}) {
  const target = TARGETS[name];
  if (!target) throw new Error(`unknown target ${name} (known: ${Object.keys(TARGETS).join(', ')})`);
  esbuild ??= await loadEsbuild();
  const dir = path.join(ROOT, target.dir);
  const outdir = outdirOption ? path.resolve(outdirOption) : path.join(dir, 'dist');
  rmSync(outdir, { recursive: true, force: true });
  const started = performance.now();
  const result = await esbuild.build({
    absWorkingDir: dir,
    entryPoints: Object.fromEntries(Object.entries(target.entries).map(([out, src]) => [out, path.join(dir, src)])),
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    outExtension: { '.js': '.js' },
    sourcemap: 'linked',
    keepNames: true,
    metafile: true,
    logLevel: 'warning',
    banner: { js: BANNER },
    // Each package.json says "type": "module", so dist/*.js load as ES modules.
    plugins: [externalsPlugin(externalDependencies(target.dir))],
  });
  for (const [from, to] of target.assets) {
    const source = path.join(ROOT, from);
    const destination = path.join(outdir, to);
    mkdirSync(path.dirname(destination), { recursive: true });
    cpSync(source, destination, { recursive: statSync(source).isDirectory() });
  }
  for (const file of target.pageScripts ?? []) {
    // { entry, output, esbuild }: the entry relative to the description, the output name in dist/.
    const description = path.join(ROOT, file);
    const page = readJson(description);
    await esbuild.build({
      ...page.esbuild,
      entryPoints: [path.resolve(path.dirname(description), page.entry)],
      outfile: path.join(outdir, page.output),
      logLevel: 'warning',
    });
  }
  const outputs = Object.keys(result.metafile.outputs).filter((file) => file.endsWith('.js'));
  const bytes = outputs.reduce((sum, file) => sum + result.metafile.outputs[file].bytes, 0);
  log(
    `${name}: ${outputs.length} bundle(s), ${(bytes / 1024).toFixed(0)} KiB in ${path.relative(ROOT, outdir)} (${Math.round(performance.now() - started)} ms)`,
  );
  return outputs.map((file) => path.resolve(dir, file));
}

export async function buildTargets(names = Object.keys(TARGETS), options = {}) {
  const esbuild = options.esbuild ?? (await loadEsbuild());
  for (const name of names) await buildTarget(name, { ...options, esbuild });
}

/** The workspace's package directories, from pnpm-workspace.yaml (`dir` or `dir/*` entries). */
function workspaceDirs() {
  const yaml = readFileSync(path.join(ROOT, 'pnpm-workspace.yaml'), 'utf8');
  const block = yaml.split(/^packages:\s*$/m)[1]?.split(/^\S/m)[0] ?? '';
  const patterns = [...block.matchAll(/^\s+-\s+["']?([^"'\s]+)["']?\s*$/gm)].map((m) => m[1]);
  return patterns
    .flatMap((pattern) => {
      if (!pattern.endsWith('/*')) return [pattern];
      const parent = pattern.slice(0, -2);
      if (!existsSync(path.join(ROOT, parent))) return [];
      return readdirSync(path.join(ROOT, parent), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => `${parent}/${entry.name}`);
    })
    .filter((dir) => existsSync(path.join(ROOT, dir, 'package.json')));
}

/**
 * A production folder for the given targets (see the usage above): manifests, production dependencies
 * only (what each service lists, the lockfile's versions), the bundles, built straight into the folder
 * (the checkout's dist/ folders are left alone).
 */
export async function deployTargets(names, outDir, { log = console.log, ...options } = {}) {
  const esbuild = options.esbuild ?? (await loadEsbuild());
  const out = path.resolve(outDir);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const file of ['package.json', 'pnpm-lock.yaml', 'pnpm-workspace.yaml', '.npmrc']) {
    if (existsSync(path.join(ROOT, file))) cpSync(path.join(ROOT, file), path.join(out, file));
  }
  for (const dir of workspaceDirs()) {
    mkdirSync(path.join(out, dir), { recursive: true });
    cpSync(path.join(ROOT, dir, 'package.json'), path.join(out, dir, 'package.json'));
  }
  const filters = names.flatMap((name) => ['--filter', `./${TARGETS[name].dir}`]);
  execFileSync('pnpm', ['install', '--prod', '--frozen-lockfile', '--offline', '--ignore-scripts', '--reporter=append-only', ...filters], {
    cwd: out,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, CI: 'true', PUPPETEER_SKIP_DOWNLOAD: 'true' },
  });
  for (const name of names) await buildTarget(name, { esbuild, log, outdir: path.join(out, TARGETS[name].dir, 'dist') });
  log(`deployed ${names.join(', ')} to ${out}`);
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const deployAt = args.indexOf('--deploy');
  const deployDir = deployAt >= 0 ? args.splice(deployAt, 2)[1] : undefined;
  if (deployAt >= 0 && !deployDir) throw new Error('--deploy needs a directory');
  for (const name of args) if (!TARGETS[name]) throw new Error(`unknown target ${name} (known: ${Object.keys(TARGETS).join(', ')})`);
  const names = args.length > 0 ? args : Object.keys(TARGETS);
  if (deployDir) await deployTargets(names, deployDir);
  else await buildTargets(names);
}
