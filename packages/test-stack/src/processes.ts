import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { testEnv } from './test-env.ts';

/**
 * Everything this run must tear down, whatever way it ends. Async cleanups run on normal exit, errors and
 * signals; the sync ones are the last resort from process.on('exit'), where nothing async can run.
 */
interface Cleanup {
  name: string;
  run(): Promise<void>;
  runSync(): void;
}

const cleanups = new Set<Cleanup>();

export function onCleanup(cleanup: Cleanup): Cleanup {
  cleanups.add(cleanup);
  return cleanup;
}

/** Runs one cleanup now (the normal path) and forgets it, so it cannot run twice. */
export async function runCleanup(cleanup: Cleanup): Promise<void> {
  if (!cleanups.delete(cleanup)) return;
  await cleanup.run();
}

let cleaning: Promise<void> | undefined;

export function cleanupAll(): Promise<void> {
  cleaning ??= (async () => {
    // Newest first: the gateway goes before the worker it talks to.
    for (const cleanup of [...cleanups].reverse()) {
      cleanups.delete(cleanup);
      await cleanup.run().catch((err) => console.error(`[bench] cleanup of ${cleanup.name} failed: ${(err as Error).message}`));
    }
  })();
  return cleaning;
}

/** How a bench script ends on an error: the error under `[tag]`, everything registered stopped, exit 1. */
export async function failRun(tag: string, err: unknown): Promise<never> {
  console.error(`[${tag}] failed: ${(err as Error).stack ?? err}`);
  await cleanupAll();
  process.exit(1);
}

export function installExitHandlers(): void {
  let signalledAt = 0;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      if (signalledAt) {
        // pnpm and tsx relay a Ctrl-C as further signals within milliseconds: those must not cut the cleanup
        // short. A second Ctrl-C by hand, later, means "now" (the exit hook still SIGKILLs what is left).
        if (Date.now() - signalledAt > 3_000) process.exit(130);
        return;
      }
      signalledAt = Date.now();
      console.error(`\n[bench] ${signal}: stopping services…`);
      void cleanupAll().finally(() => process.exit(130));
    });
  }
  process.on('exit', () => {
    for (const cleanup of cleanups) {
      try {
        cleanup.runSync();
      } catch {
        // Best effort: the process is going away regardless.
      }
    }
  });
}

// --- process trees -------------------------------------------------------------------------------------

export interface ProcId {
  pid: number;
  /** Start time in clock ticks: tells a still-running process from a later one that reused its pid. */
  start: string;
}

function statOf(pid: number): { ppid: number; start: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces and parentheses; fields are counted after its last ')'.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(rest[1]), start: rest[19] as string };
  } catch {
    return undefined;
  }
}

/**
 * The pids below `root`. Needed because puppeteer starts Chromium in its own process group, so signalling
 * the service's group would miss the browser if the service died without closing it.
 */
export function descendantsOf(root: number): ProcId[] {
  const children = new Map<number, ProcId[]>();
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const stat = statOf(pid);
    if (!stat) continue;
    const list = children.get(stat.ppid) ?? [];
    list.push({ pid, start: stat.start });
    children.set(stat.ppid, list);
  }
  const found: ProcId[] = [];
  const stack = [root];
  while (stack.length) {
    for (const child of children.get(stack.pop() as number) ?? []) {
      found.push(child);
      stack.push(child.pid);
    }
  }
  return found;
}

function killIfSame(proc: ProcId, signal: NodeJS.Signals): void {
  if (statOf(proc.pid)?.start !== proc.start) return;
  try {
    process.kill(proc.pid, signal);
  } catch {
    // Already gone.
  }
}

// --- services ------------------------------------------------------------------------------------------

export interface Service {
  name: string;
  child: ChildProcess;
  /** Resolves with the first stdout line `match` accepts; rejects if the process exits first or on timeout. */
  waitForLine(match: (line: string) => boolean, timeoutMs: number): Promise<string>;
  /** The last lines of output, for error reports. */
  tail(): string;
  /** Lines at warn level or above (pino level ≥ 40), seen while the bench ran. */
  warnings: string[];
  stop(): Promise<void>;
}

/**
 * BENCH_CPU_PROF=gateway,auth (service names, or "all") writes a V8 CPU profile of each named service to
 * BENCH_CPU_PROF_DIR/<service>/ (bench/results/profiles) when it stops: open it in Chrome DevTools or speedscope.
 */
function profileArgs(name: string): string[] {
  const wanted = testEnv.BENCH_CPU_PROF.split(',').map((s) => s.trim());
  if (!wanted.includes(name) && !wanted.includes('all')) return [];
  const dir = testEnv.BENCH_CPU_PROF_DIR ?? path.join(import.meta.dirname, '..', 'results', 'profiles');
  // One directory per service: Node writes a profile per thread (the main one is the largest).
  return ['--cpu-prof', `--cpu-prof-dir=${path.join(dir, name)}`];
}

/**
 * How the services are started. `production`: as the images run them (node with tsx's loader, one process
 * per service), NODE_ENV=production, and the log level the bench sets (warn, info for the worker's
 * readiness line). `dev`: as ./scripts/dev does: `pnpm --filter <package> start` (pnpm, then tsx's CLI, then
 * node), no NODE_ENV, the default log level (info), and the output through scripts/dev's line prefixer.
 */
export type StartMode = 'production' | 'dev';

export interface ServiceSpec {
  name: string;
  /** The workspace package (dev start). */
  pkg: string;
  /** Its entry point, relative to the repository (production start). */
  entry: string;
}

export function startNodeService(mode: StartMode, spec: ServiceSpec, env: NodeJS.ProcessEnv, repoRoot: string): Service {
  if (mode === 'production') {
    return startService(spec.name, ['--import', 'tsx', path.join(repoRoot, spec.entry)], { ...env, NODE_ENV: 'production' }, repoRoot);
  }
  const { NODE_ENV: _, LOG_LEVEL: __, ...devEnv } = env;
  const prefixer = path.join(repoRoot, 'scripts/lib/prefix-lines');
  // bash and the prefixer ignore SIGTERM (sent to the whole group, as scripts/dev does), so they last until
  // the service has stopped and its last lines are read; node resets the signals it inherits.
  const script = `trap '' INT TERM; pnpm --silent --filter "$1" start 2>&1 | "$2" "$3"`;
  return startService(spec.name, ['-c', script, 'bash', spec.pkg, prefixer, `${spec.name} |`], devEnv, repoRoot, {
    command: 'bash',
    signalGroup: true,
  });
}

export function startService(
  name: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  /** `command` instead of node; `signalGroup`: stop by signalling the whole process group. */
  opts: { command?: string; signalGroup?: boolean } = {},
): Service {
  // Own process group, so a terminal Ctrl-C reaches only the bench, which then stops services in order
  // (the worker drains and closes Chromium on SIGTERM) instead of everything dying at once.
  const child = opts.command
    ? spawn(opts.command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    : spawn(process.execPath, [...profileArgs(name), ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const tail: string[] = [];
  const warnings: string[] = [];
  const lineListeners = new Set<(line: string) => void>();
  let known: ProcId[] = [];
  let exited = child.exitCode !== null;
  const exitPromise = new Promise<void>((resolve) => {
    child.once('exit', () => {
      exited = true;
      resolve();
    });
  });

  const onLine = (line: string) => {
    tail.push(line);
    if (tail.length > 40) tail.shift();
    const level = /"level":(\d+)/.exec(line)?.[1];
    if (level && Number(level) >= 40 && warnings.length < 50) warnings.push(line);
    for (const listener of lineListeners) listener(line);
  };
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      buffered += chunk;
      let nl = buffered.indexOf('\n');
      while (nl >= 0) {
        onLine(buffered.slice(0, nl));
        buffered = buffered.slice(nl + 1);
        nl = buffered.indexOf('\n');
      }
    });
  }

  // Refreshed while the service runs: once it has died its orphans are re-parented and can't be found.
  const refresh = setInterval(() => {
    if (!exited && child.pid) known = descendantsOf(child.pid);
  }, 1_000);
  refresh.unref();

  const killTree = (signal: NodeJS.Signals) => {
    if (child.pid && !exited) {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // Group already gone.
      }
    }
    for (const proc of known) killIfSame(proc, signal);
  };

  const service: Service = {
    name,
    child,
    warnings,
    tail: () => tail.join('\n'),
    waitForLine: (match, timeoutMs) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => finish(new Error(`${name}: not ready within ${timeoutMs} ms\n${service.tail()}`)), timeoutMs);
        const listener = (line: string) => {
          if (match(line)) finish(undefined, line);
        };
        const onExit = (code: number | null, signal: string | null) =>
          finish(new Error(`${name} exited (code ${code}, signal ${signal}) before it was ready\n${service.tail()}`));
        function finish(err?: Error, line?: string) {
          clearTimeout(timer);
          lineListeners.delete(listener);
          child.off('exit', onExit);
          if (err) reject(err);
          else resolve(line as string);
        }
        lineListeners.add(listener);
        child.once('exit', onExit);
      }),
    stop: () => runCleanup(registered),
  };
  let stopping: Promise<void> | undefined;
  const registered = onCleanup({
    name,
    // Once only: a second SIGTERM would hit the service's default handler and cut its graceful shutdown short.
    run: () =>
      (stopping ??= (async () => {
        clearInterval(refresh);
        if (!exited && child.pid) {
          known = descendantsOf(child.pid);
          if (opts.signalGroup) killTree('SIGTERM');
          else child.kill('SIGTERM');
          await Promise.race([exitPromise, sleep(15_000)]);
        }
        // Whatever survived a graceful stop (or a crash) is killed by pid.
        killTree('SIGKILL');
      })()),
    runSync: () => {
      if (!exited && child.pid) known = descendantsOf(child.pid);
      killTree('SIGKILL');
    },
  });
  return service;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
