import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, onCleanup, runCleanup } from '@render/test-stack/processes';
import { connectRedis, onReplyLines, resp } from './redis-wire.ts';

/** One command, one reply (simple string, integer or bulk string), without a Redis client dependency. */
export function redisCommand(redisUrl: string, args: string[]): Promise<string> {
  const url = new URL(redisUrl);
  return new Promise((resolve, reject) => {
    const socket = connectRedis(url);
    socket.setTimeout(5_000, () => socket.destroy(new Error('redis command timed out')));
    let buffered = Buffer.alloc(0);
    const done = (err: Error | undefined, value?: string) => {
      socket.destroy();
      if (err) reject(err);
      else resolve(value as string);
    };
    socket.on('connect', () => socket.write(resp(args)));
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const nl = buffered.indexOf('\r\n');
      if (nl < 0) return;
      const head = buffered.toString('utf8', 0, nl);
      if (head.startsWith('-')) return done(new Error(`redis: ${head.slice(1)}`));
      if (head.startsWith('+') || head.startsWith(':')) return done(undefined, head.slice(1));
      if (head.startsWith('$')) {
        const len = Number(head.slice(1));
        if (len < 0) return done(undefined, '');
        if (buffered.length >= nl + 2 + len) done(undefined, buffered.toString('utf8', nl + 2, nl + 2 + len));
        return;
      }
      done(new Error(`redis: unexpected reply ${head.slice(0, 40)}`));
    });
    socket.on('error', (err) => done(err));
  });
}

export interface RedisStats {
  /** calls per command name (lower case, as INFO names them: `evalsha`, `bzpopmin`, `client|setname`…). */
  calls: Map<string, number>;
  /** used_cpu_sys + used_cpu_user, seconds. */
  cpuSeconds: number;
}

/** Parses `INFO commandstats` + `INFO cpu` output. */
export function parseRedisInfo(info: string): RedisStats {
  const calls = new Map<string, number>();
  let cpuSeconds = 0;
  for (const line of info.split(/\r?\n/)) {
    const cmd = /^cmdstat_([^:]+):calls=(\d+)/.exec(line);
    if (cmd) calls.set(cmd[1] as string, Number(cmd[2]));
    const cpu = /^used_cpu_(sys|user):([\d.]+)/.exec(line);
    if (cpu) cpuSeconds += Number(cpu[2]);
  }
  return { calls, cpuSeconds };
}

export async function readRedisStats(redisUrl: string): Promise<RedisStats> {
  const [commands, cpu] = await Promise.all([redisCommand(redisUrl, ['INFO', 'commandstats']), redisCommand(redisUrl, ['INFO', 'cpu'])]);
  return parseRedisInfo(`${commands}\n${cpu}`);
}

export interface RedisDiff {
  total: number;
  cpuSeconds: number;
  /** Commands sorted by calls, most first. */
  byCommand: Array<[string, number]>;
}

/** Calls made between two readings; the bench's own INFO calls are left out. */
export function diffRedisStats(after: RedisStats, before: RedisStats): RedisDiff {
  const byCommand: Array<[string, number]> = [];
  for (const [name, n] of after.calls) {
    if (name === 'info') continue;
    const d = n - (before.calls.get(name) ?? 0);
    if (d > 0) byCommand.push([name, d]);
  }
  byCommand.sort((a, b) => b[1] - a[1]);
  return { total: byCommand.reduce((a, [, n]) => a + n, 0), cpuSeconds: after.cpuSeconds - before.cpuSeconds, byCommand };
}

/**
 * A Redis of the bench's own (redis-server on a free loopback port, nothing persisted), so command counts
 * and Redis CPU are the stack's alone, not the shared dev Redis's other traffic. Stopped with the bench.
 */
export async function startDedicatedRedis(): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--loglevel', 'warning'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let spawnError: Error | undefined;
  child.once('error', (err) => {
    spawnError = err;
  });
  const cleanup = onCleanup({
    name: 'dedicated redis',
    run: async () => {
      if (child.exitCode === null && !spawnError) {
        child.kill('SIGTERM');
        await Promise.race([exited, sleep(5_000)]);
      }
    },
    runSync: () => {
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  });
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (spawnError) break;
    if ((await redisCommand(url, ['PING']).catch(() => '')) === 'PONG') {
      return { url, pid: child.pid as number, stop: () => runCleanup(cleanup) };
    }
    await sleep(50);
  }
  await runCleanup(cleanup);
  throw new Error(`redis-server did not start on port ${port}${spawnError ? `: ${spawnError.message}` : ''}`);
}

export interface MonitorCounts {
  /** Commands clients sent (one per request on the wire; EVALSHA counts once). */
  sent: Map<string, number>;
  /** Commands run inside Lua scripts (BullMQ's scripts), by name. */
  scripted: Map<string, number>;
}

/**
 * Tallies one MONITOR line (`+1700000000.123456 [0 127.0.0.1:5000] "EVALSHA" "…"`): the bracket names the
 * client's address, or `lua` for a command a script ran.
 */
export function tallyMonitorLine(line: string, counts: MonitorCounts): void {
  const m = /^\+?\d+\.\d+ \[\d+ ([^\]]+)\] "([^"]+)"/.exec(line);
  if (!m) return;
  const name = (m[2] as string).toLowerCase();
  if (name === 'info' || name === 'monitor') return;
  const map = m[1] === 'lua' ? counts.scripted : counts.sent;
  map.set(name, (map.get(name) ?? 0) + 1);
}

/** Watches every command Redis runs until `stop()` (MONITOR costs Redis time: only for counting runs). */
export async function monitorRedis(redisUrl: string): Promise<{ stop(): MonitorCounts }> {
  const url = new URL(redisUrl);
  const counts: MonitorCounts = { sent: new Map(), scripted: new Map() };
  const socket = connectRedis(url);
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.write(resp(['MONITOR']));
    });
    let ok = false;
    onReplyLines(socket, (line) => {
      if (!ok && line === '+OK') {
        ok = true;
        resolve();
      } else tallyMonitorLine(line, counts);
    });
  });
  return {
    stop: () => {
      socket.destroy();
      return counts;
    },
  };
}
