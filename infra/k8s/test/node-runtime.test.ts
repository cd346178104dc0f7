// The Node the project runs on, in every place that names it: .node-version / .nvmrc (what scripts/lib/setup.sh
// installs), the images' base, every package's engines, @types/node; and scripts/lib/node.sh itself, run for
// real against a fresh cache: it installs the pinned Node from the npm registry when the machine's Node is
// older than its floor (this machine's system Node 20, for one), checks it, and reuses it the second time.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const run = promisify(execFile);
const read = (file: string) => readFile(path.join(ROOT, file), 'utf8');

const pinned = (await read('.node-version')).trim();
const [pinnedMajor, pinnedMinor] = pinned.split('.').map(Number) as [number, number];
const nodeSh = await read('scripts/lib/node.sh');
const floor = /^NODE_FLOOR=(\d+\.\d+\.\d+)$/m.exec(nodeSh)?.[1] ?? '';

async function packageFiles(): Promise<string[]> {
  const files = [
    'package.json',
    'bench/package.json',
    'infra/k8s/package.json',
    'infra/licences/package.json',
    'infra/resilience/package.json',
  ];
  for (const dir of ['apps', 'services', 'packages']) {
    for (const entry of await readdir(path.join(ROOT, dir), { withFileTypes: true })) {
      if (entry.isDirectory()) files.push(`${dir}/${entry.name}/package.json`);
    }
  }
  return files;
}

describe('the Node version, wherever it is named', () => {
  it('.node-version pins one exact Node 24 release at or above the floor, and .nvmrc says the same', async () => {
    expect(pinned).toMatch(/^24\.\d+\.\d+$/);
    expect((await read('.nvmrc')).trim()).toBe(pinned);
    expect(floor).toMatch(/^24\.\d+\.\d+$/);
    const [, floorMinor] = floor.split('.').map(Number) as [number, number];
    expect(pinnedMinor).toBeGreaterThanOrEqual(floorMinor);
  });

  it('every package declares engines: the services the floor of their dependencies, the SDK its own', async () => {
    const root = JSON.parse(await read('package.json'));
    expect(root.engines.node).toBe(`^22.22.2 || >=${floor}`);
    for (const file of await packageFiles()) {
      const pkg = JSON.parse(await read(file));
      const expected = pkg.name === 'render-api-sdk' ? '>=22.12' : root.engines.node;
      expect(pkg.engines?.node, file).toBe(expected);
      // @types/node follows the oldest line engines admit (22), so no code uses an API Node 22 lacks.
      const types = pkg.devDependencies?.['@types/node'] ?? pkg.dependencies?.['@types/node'];
      if (types) expect(types, file).toMatch(/^\^22\./);
    }
  });

  it('both images start from the pinned major on Debian bookworm (the Chromium and fonts the worker installs)', async () => {
    for (const file of ['infra/docker/node.Dockerfile', 'infra/docker/render-worker.Dockerfile']) {
      expect(await read(file), file).toContain(`ARG NODE_IMAGE=node:${pinnedMajor}-bookworm-slim`);
    }
  });
});

describe('scripts/lib/node.sh', () => {
  const tmp = mkdtemp(path.join(os.tmpdir(), 'render-node-cache-'));
  afterAll(async () => rm(await tmp, { recursive: true, force: true }));

  // PATH as a machine has it before setup.sh: without the Node a script running this test put first.
  const machinePath = (process.env.PATH ?? '')
    .split(':')
    .filter((dir) => !dir.includes(`${path.sep}render-api${path.sep}node`))
    .join(':');
  const cachedNode = (cache: string) => path.join(cache, `v${pinned}-linux-${process.arch === 'arm64' ? 'arm64' : 'x64'}`, 'bin', 'node');
  const older = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true }) < 0;

  async function machineNode(): Promise<string> {
    const { stdout } = await run('bash', ['-c', 'node --version'], { env: { ...process.env, PATH: machinePath } });
    return stdout.trim().replace(/^v/, '');
  }

  /** Sources node.sh as setup.sh does; reports the node then first on PATH, its version, and the log. */
  async function ensureNode(cache: string) {
    const script = [
      'set -euo pipefail',
      `REPO_ROOT=${JSON.stringify(ROOT)}`,
      'setup_log() { printf "%s\\n" "$*" >&2; }',
      'setup_die() { printf "error: %s\\n" "$*" >&2; exit 1; }',
      'apt_install() { setup_die "would apt-get install $*"; }',
      'source "$REPO_ROOT/scripts/lib/node.sh"',
      'ensure_node',
      'command -v node',
      'node --version',
    ].join('\n');
    const env = { ...process.env, PATH: machinePath, RENDER_NODE_CACHE: cache, RENDER_NODE: '' };
    const { stdout, stderr } = await run('bash', ['-c', script], { env, timeout: 240_000 });
    const [where = '', version = ''] = stdout.trim().split('\n');
    return { where, version, log: stderr };
  }

  it('installs the pinned Node into the cache when the machine has an older one, else keeps the machine’s', async () => {
    const cache = path.join(await tmp, 'fresh');
    const machine = await machineNode();
    const first = await ensureNode(cache);
    if (!older(machine, floor)) {
      expect(first.version).toBe(`v${machine}`);
      expect(first.log).not.toMatch(/installing Node/);
      return;
    }
    expect(first.version).toBe(`v${pinned}`);
    expect(first.where).toBe(cachedNode(cache));
    expect(first.log).toMatch(/installing Node/);
    // The official binary with its licence, and nothing half-extracted left beside it.
    expect((await stat(path.join(path.dirname(path.dirname(first.where)), 'LICENSE'))).isFile()).toBe(true);
    expect((await readdir(cache)).filter((name) => name.startsWith('.download'))).toEqual([]);
    // Second run: the cached copy, no download.
    const second = await ensureNode(cache);
    expect(second.where).toBe(first.where);
    expect(second.log).not.toMatch(/installing Node/);
  }, 300_000);

  it('replaces a cached Node that is not the pinned release (a broken or tampered copy)', async () => {
    // A machine whose Node is recent enough never uses the cache: nothing to replace there.
    if (!older(await machineNode(), floor)) return;
    const cache = path.join(await tmp, 'broken');
    await mkdir(path.dirname(cachedNode(cache)), { recursive: true });
    await writeFile(cachedNode(cache), '#!/bin/sh\necho v0.0.0\n', { mode: 0o755 });
    const result = await ensureNode(cache);
    expect(result.version).toBe(`v${pinned}`);
    expect(result.log).toMatch(/installing Node/);
  }, 300_000);
});
