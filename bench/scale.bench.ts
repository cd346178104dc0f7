/**
 * Capacity on paper: how HTML → PNG throughput grows with render-worker processes, what one render costs
 * Redis (commands, CPU), and how much memory a warm page holds. Run with `pnpm bench:scale`
 * (./scripts/bench-scale); `--help` lists the knobs. Uses a Redis of its own (redis-server on a free
 * port), so the counts are this stack's alone.
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { linearFit, machineCpu, type TreeMemory, treeCpuSeconds, treeMemory } from '@render/test-stack/proc-stats';
import { failRun, installExitHandlers, type StartMode } from '@render/test-stack/processes';
import { int, parseCommandLine, resultsPath } from './lib/cli.ts';
import { Fleet, settle, stopFleet } from './lib/fleet.ts';
import { FORMAT_WORKLOADS, startPageServer } from './lib/formats.ts';
import { type KeyedOps, measureKeyedOps } from './lib/keyed-ops.ts';
import { type LoadResult, runForDuration } from './lib/load.ts';
import { bucketCount, diffBuckets, histogramQuantile } from './lib/prometheus.ts';
import {
  diffRedisStats,
  type MonitorCounts,
  monitorRedis,
  type RedisDiff,
  readRedisStats,
  startDedicatedRedis,
} from './lib/redis-stats.ts';
import { fmt, reportEnd, table, writeResults } from './lib/report.ts';
import { convertClient } from './lib/stack.ts';
import { startTemplateServices, type TemplateServices } from './lib/template-stack.ts';
import { HEIGHT, WIDTH } from './lib/workload.ts';

const benchDir = import.meta.dirname;
const repoRoot = path.resolve(benchDir, '..');
installExitHandlers();
const log = (message: string) => console.error(`[scale] ${message}`);

const HELP = `Usage: pnpm bench:scale [-- options]   (every option also has an env variable)

  --workers LIST        worker process counts, in increasing order        SCALE_WORKERS (1,2,4)
  --pages N             warm pages per worker in the scaling runs          RENDER_PAGES (4)
  --per-worker N        HTTP clients per worker (c = N × workers)          SCALE_CLIENTS_PER_WORKER (8)
  --max-concurrency N   cap on c                                           SCALE_MAX_CONCURRENCY (32)
  --duration-ms N       measured window per worker count                   SCALE_DURATION_MS (15000)
  --warmup-ms N         unmeasured load before each window                 SCALE_WARMUP_MS (3000)
  --idle-ms N           idle window for the background Redis traffic       SCALE_IDLE_MS (5000)
  --redis-renders N     renders counted under Redis MONITOR (first step)   SCALE_REDIS_RENDERS (300)
  --memory-pages LIST   RENDER_PAGES values of the memory runs (one worker) SCALE_MEMORY_PAGES (1,2,4,8)
  --format-ms N         measured window per format (formats phase, c=8)    SCALE_FORMAT_MS (5000)
  --keyed-renders N     renders per caller in the keyed phase              SCALE_KEYED_RENDERS (300)
  --only LIST           phases: scale,formats,memory,keyed                 SCALE_ONLY (scale,formats,memory,keyed)
  --json PATH           results file ("" = none)                           SCALE_JSON (bench/results/scale.json)
  -h, --help

The keyed phase (renders with API keys: Redis and Postgres operations per render) starts auth and templates
on a database of its own, created in DATABASE_URL's server (scripts/bench-scale starts one) and dropped after.

Also read: CHROMIUM_PATH, BENCH_START (production | dev), DATABASE_URL.`;

const values = parseCommandLine(
  {
    workers: { type: 'string' },
    pages: { type: 'string' },
    'per-worker': { type: 'string' },
    'max-concurrency': { type: 'string' },
    'duration-ms': { type: 'string' },
    'warmup-ms': { type: 'string' },
    'idle-ms': { type: 'string' },
    'memory-pages': { type: 'string' },
    'redis-renders': { type: 'string' },
    'format-ms': { type: 'string' },
    'keyed-renders': { type: 'string' },
    only: { type: 'string' },
    json: { type: 'string' },
  },
  HELP,
);
const env = process.env;
const list = (name: string, raw: string) => raw.split(',').map((s) => int(name, s.trim(), 1, 1));
const opts = {
  workers: list('--workers', values.workers ?? env.SCALE_WORKERS ?? '1,2,4'),
  pages: int('--pages', values.pages ?? env.RENDER_PAGES, 4, 1),
  perWorker: int('--per-worker', values['per-worker'] ?? env.SCALE_CLIENTS_PER_WORKER, 8, 1),
  maxConcurrency: int('--max-concurrency', values['max-concurrency'] ?? env.SCALE_MAX_CONCURRENCY, 32, 1),
  durationMs: int('--duration-ms', values['duration-ms'] ?? env.SCALE_DURATION_MS, 15_000, 100),
  warmupMs: int('--warmup-ms', values['warmup-ms'] ?? env.SCALE_WARMUP_MS, 3_000, 0),
  idleMs: int('--idle-ms', values['idle-ms'] ?? env.SCALE_IDLE_MS, 5_000, 0),
  redisRenders: int('--redis-renders', values['redis-renders'] ?? env.SCALE_REDIS_RENDERS, 300, 0),
  formatMs: int('--format-ms', values['format-ms'] ?? env.SCALE_FORMAT_MS, 5_000, 100),
  memoryPages: list('--memory-pages', values['memory-pages'] ?? env.SCALE_MEMORY_PAGES ?? '1,2,4,8'),
  keyedRenders: int('--keyed-renders', values['keyed-renders'] ?? env.SCALE_KEYED_RENDERS, 300, 1),
  phases: new Set((values.only ?? env.SCALE_ONLY ?? 'scale,formats,memory,keyed').split(',').map((s) => s.trim())),
  databaseUrl: env.DATABASE_URL,
  start: (env.BENCH_START ?? 'production') as StartMode,
  chromiumPath: env.CHROMIUM_PATH || '/usr/bin/chromium-headless-shell',
  json: values.json ?? env.SCALE_JSON,
};
for (const phase of opts.phases)
  if (!['scale', 'formats', 'memory', 'keyed'].includes(phase)) throw new Error(`--only: unknown phase "${phase}"`);
const jsonPath = resultsPath(opts.json, benchDir, 'scale.json');

interface ScaleStep {
  workers: number;
  concurrency: number;
  load: LoadResult;
  /** From the workers' render_duration_seconds, ms. */
  histogram: { n: number; p50: number; p95: number; p99: number };
  redis: RedisDiff;
  /** CPU seconds per process group over the window. */
  cpu: { gateway: number; workers: number; redis: number; machineBusyPct: number };
  /** The host's 1-minute load average when the step began (other processes included). */
  loadBefore: number;
}
interface FormatStep {
  name: string;
  load: LoadResult;
  /** CPU seconds of gateway + worker tree + Redis over the window. */
  cpuSeconds: number;
}
interface MemoryStep {
  pages: number;
  idle: TreeMemory;
  loaded: TreeMemory;
  gateway: TreeMemory;
}

const redis = await startDedicatedRedis();
const queuePrefix = `scale-${process.pid}`;
const fleet = new Fleet(repoRoot, { redisUrl: redis.url, queuePrefix, chromiumPath: opts.chromiumPath, start: opts.start });
const steps: ScaleStep[] = [];
const memory: MemoryStep[] = [];
const formats: FormatStep[] = [];
const keyed: KeyedOps[] = [];
let idleRedis: { perSecond: number; diff: RedisDiff } | undefined;
let monitored: { renders: number; errors: number; counts: MonitorCounts } | undefined;
const started = Date.now();

const cpuOf = () => ({
  gateway: treeCpuSeconds(fleet.gateway?.child.pid as number),
  workers: fleet.workers.reduce((a, w) => a + treeCpuSeconds(w.service.child.pid as number), 0),
  redis: treeCpuSeconds(redis.pid),
  machine: machineCpu(),
});

let accounts: TemplateServices | undefined;
try {
  if (opts.phases.has('keyed')) {
    if (!opts.databaseUrl) throw new Error('the keyed phase needs DATABASE_URL (scripts/bench-scale sets it), or leave it out with --only');
    log('starting auth and templates on a database of their own (keyed phase)');
    accounts = await startTemplateServices(
      repoRoot,
      opts.databaseUrl,
      { ...process.env, REDIS_URL: redis.url, QUEUE_PREFIX: queuePrefix },
      opts.start,
    );
  }
  // c = 8 callers of one Free account: above its default in-flight limit (4), which would answer 429s.
  const port = await fleet.startGateway(accounts && { ...accounts.gatewayEnv, FREE_MAX_IN_FLIGHT: '16' });
  if (opts.phases.has('scale')) {
    for (const workers of opts.workers) {
      const missing = workers - fleet.workers.length;
      if (missing < 0) throw new Error('--workers must be increasing');
      log(`starting ${missing} more worker(s) (${workers} in all, ${opts.pages} pages each)`);
      await fleet.addWorkers(missing, opts.pages);
      if (!idleRedis && opts.idleMs > 0) {
        await settle(1_000);
        const before = await readRedisStats(redis.url);
        await settle(opts.idleMs);
        const diff = diffRedisStats(await readRedisStats(redis.url), before);
        idleRedis = { perSecond: diff.total / (opts.idleMs / 1000), diff };
        log(`idle: ${fmt(idleRedis.perSecond)} Redis commands/s (gateway + ${workers} worker(s), no load)`);
      }
      const concurrency = Math.min(opts.maxConcurrency, opts.perWorker * workers);
      const client = convertClient(port, concurrency);
      try {
        log(`${workers} worker(s): c=${concurrency}, ${opts.warmupMs} ms warm-up + ${opts.durationMs} ms`);
        if (opts.warmupMs) await runForDuration(client.convert, { concurrency, warmupMs: 0, durationMs: opts.warmupMs });
        const [redisBefore, bucketsBefore] = await Promise.all([readRedisStats(redis.url), fleet.renderBuckets()]);
        const cpuBefore = cpuOf();
        const loadBefore = os.loadavg()[0] as number;
        const load = await runForDuration(client.convert, { concurrency, warmupMs: 0, durationMs: opts.durationMs });
        const cpuAfter = cpuOf();
        const [redisAfter, bucketsAfter] = await Promise.all([readRedisStats(redis.url), fleet.renderBuckets()]);
        const buckets = diffBuckets(bucketsAfter, bucketsBefore);
        const ms = (q: number) => histogramQuantile(q, buckets) * 1000;
        steps.push({
          workers,
          concurrency,
          loadBefore,
          load,
          histogram: { n: bucketCount(buckets), p50: ms(0.5), p95: ms(0.95), p99: ms(0.99) },
          redis: diffRedisStats(redisAfter, redisBefore),
          cpu: {
            gateway: cpuAfter.gateway - cpuBefore.gateway,
            workers: cpuAfter.workers - cpuBefore.workers,
            redis: cpuAfter.redis - cpuBefore.redis,
            machineBusyPct: (100 * (cpuAfter.machine.busy - cpuBefore.machine.busy)) / (cpuAfter.machine.total - cpuBefore.machine.total),
          },
        });
        log(`  ${fmt(load.rendersPerSec)} renders/s, ${load.errors.total} errors`);
        if (!monitored && opts.redisRenders > 0) {
          log(`  ${opts.redisRenders} renders under Redis MONITOR (commands sent vs run inside scripts)`);
          const monitor = await monitorRedis(redis.url);
          let left = opts.redisRenders;
          let failed = 0;
          await Promise.all(
            Array.from({ length: concurrency }, async () => {
              while (left > 0) {
                left -= 1;
                await client.convert().catch(() => {
                  failed += 1;
                });
              }
            }),
          );
          // The completion's trailing events (stream entries, removal) land just after the reply.
          await settle(500);
          monitored = { renders: opts.redisRenders - failed, errors: failed, counts: monitor.stop() };
        }
      } finally {
        client.close();
      }
    }
    await fleet.stopWorkers();
  }

  if (opts.phases.has('formats')) {
    // One worker serving every queue (as the default deployment does), each format alone at c=8: its
    // throughput on this machine and, from CPU time, what one core sustains.
    const pageServer = await startPageServer();
    try {
      log(`formats: one worker, every queue, ${opts.pages} pages; each format at c=8 for ${opts.formatMs} ms (+1 s warm-up)`);
      await fleet.addWorkers(1, opts.pages, {
        RENDER_QUEUES: 'html,svg,chart,code,screenshot',
        RENDER_EGRESS_ALLOWLIST: pageServer.hostPort,
      });
      for (const workload of FORMAT_WORKLOADS) {
        // Videos hold a page for seconds each: their cost is the render bench's formats phase's.
        if (workload.needsTemplates || workload.video) continue;
        const client = convertClient(port, 8, {
          path: workload.path,
          body: Buffer.from(JSON.stringify(workload.body({ pageOrigin: pageServer.origin }))),
          headers: workload.headers?.({ pageOrigin: pageServer.origin }),
          check: (body, type) => {
            if (!/^image\//.test(type) || body.length < 100) throw new Error(`not an image (${type}, ${body.length} bytes)`);
          },
        });
        try {
          await runForDuration(client.convert, { concurrency: 8, warmupMs: 0, durationMs: 1_000 });
          const before = cpuOf();
          const load = await runForDuration(client.convert, { concurrency: 8, warmupMs: 0, durationMs: opts.formatMs });
          const after = cpuOf();
          const cpuSeconds = after.gateway + after.workers + after.redis - (before.gateway + before.workers + before.redis);
          formats.push({ name: workload.name, load, cpuSeconds });
          log(`  ${workload.name}: ${fmt(load.rendersPerSec)} renders/s, ${load.errors.total} errors`);
        } finally {
          client.close();
        }
      }
    } finally {
      await fleet.stopWorkers();
      await pageServer.close();
    }
  }

  if (opts.phases.has('memory')) {
    for (const pages of opts.memoryPages) {
      log(`memory: one worker with RENDER_PAGES=${pages}`);
      const [worker] = await fleet.addWorkers(1, pages);
      const pid = worker?.service.child.pid as number;
      await settle(5_000);
      const idle = treeMemory(pid);
      const concurrency = Math.max(2, pages * 2);
      const client = convertClient(port, concurrency);
      try {
        await runForDuration(client.convert, { concurrency, warmupMs: 0, durationMs: 8_000 });
      } finally {
        client.close();
      }
      await settle(5_000);
      memory.push({ pages, idle, loaded: treeMemory(pid), gateway: treeMemory(fleet.gateway?.child.pid as number) });
      await fleet.stopWorkers();
    }
  }
  if (accounts) {
    // Renders with API keys, one worker: what each costs Redis and Postgres (identity, credit reservation,
    // settling), for a Free account (its credit reserved before the render) and an unlimited one (the
    // reservation runs alongside).
    log(`keyed: one worker, ${opts.keyedRenders} renders per caller at c=8`);
    await fleet.addWorkers(1, opts.pages);
    const gatewayUrl = `http://127.0.0.1:${port}`;
    const callers: Array<[string, string]> = [
      ['Free account', await accounts.freeKey(gatewayUrl)],
      ['unlimited account', await accounts.unlimitedKey(gatewayUrl)],
    ];
    for (const [caller, apiKey] of callers) {
      const result = await measureKeyedOps({
        gatewayPort: port,
        apiKey,
        caller,
        renders: opts.keyedRenders,
        concurrency: 8,
        redisUrl: redis.url,
        databaseUrl: accounts.databaseUrl,
        idleMs: opts.idleMs || 5_000,
      });
      keyed.push(result);
      log(`  ${caller}: ${fmt(result.rendersPerSec)} renders/s, ${result.errors} errors`);
    }
    await fleet.stopWorkers();
  }
} catch (err) {
  await failRun('scale', err);
}
await accounts?.stop();
const warnings = await stopFleet(fleet, redis);

// --- report --------------------------------------------------------------------------------------------

const cores = os.availableParallelism();
const out: string[] = [''];
let chromium = 'unknown';
try {
  chromium = execFileSync(opts.chromiumPath, ['--version'], { encoding: 'utf8', timeout: 10_000 }).trim();
} catch {}
out.push(`Capacity bench: ${WIDTH}×${HEIGHT} simple HTML → PNG, anonymous, through gateway → Redis → worker(s)`);
out.push(
  `machine  ${cores} cores (${os.cpus()[0]?.model.trim()}), load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} at the end, ${chromium}`,
);
if (steps.length)
  out.push(
    `settings ${opts.pages} pages per worker (html queue only), c = ${opts.perWorker} × workers (max ${opts.maxConcurrency}), ${opts.warmupMs} ms warm-up + ${opts.durationMs} ms per step, a dedicated redis-server`,
  );

let errors = 0;
if (steps.length) {
  const base = steps[0] as ScaleStep;
  out.push('');
  out.push(
    'Throughput by worker processes (latency from the client; queue/render from X-Queue-Time/X-Render-Time; hist = workers’ render_duration_seconds)',
  );
  out.push(
    table(
      [
        'workers',
        'c',
        'renders/s',
        '× 1 worker',
        'p50 ms',
        'p95 ms',
        'queue p50',
        'queue p95',
        'render p50',
        'render p95',
        'hist p50',
        'hist p95',
        'CPU busy',
        'load 1m',
        'errors',
      ],
      steps.map((s) => {
        errors += s.load.errors.total;
        return [
          String(s.workers),
          String(s.concurrency),
          fmt(s.load.rendersPerSec),
          fmt(s.load.rendersPerSec / base.load.rendersPerSec, 2),
          fmt(s.load.latency.p50),
          fmt(s.load.latency.p95),
          fmt(s.load.queueMs?.p50),
          fmt(s.load.queueMs?.p95),
          fmt(s.load.renderMs?.p50),
          fmt(s.load.renderMs?.p95),
          fmt(s.histogram.p50),
          fmt(s.histogram.p95),
          `${fmt(s.cpu.machineBusyPct, 0)}%`,
          fmt(s.loadBefore, 1),
          String(s.load.errors.total),
        ];
      }),
    ),
  );
  out.push('');
  out.push('CPU per render (ms of CPU time per completed render, by process tree; machine busy = all processes on the host)');
  out.push(
    table(
      ['workers', 'gateway', 'workers (node + Chromium)', 'redis', 'sum', 'renders/s per busy core'],
      steps.map((s) => {
        const n = s.load.latency.n || 1;
        const sum = s.cpu.gateway + s.cpu.workers + s.cpu.redis;
        return [
          String(s.workers),
          fmt((1000 * s.cpu.gateway) / n, 2),
          fmt((1000 * s.cpu.workers) / n, 2),
          fmt((1000 * s.cpu.redis) / n, 3),
          fmt((1000 * sum) / n, 2),
          fmt(n / sum),
        ];
      }),
    ),
  );

  // Where it flattens: the first step that adds < 15% throughput over the previous one, and the CPU ceiling.
  const flat = steps.findIndex((s, i) => i > 0 && s.load.rendersPerSec < (steps[i - 1] as ScaleStep).load.rendersPerSec * 1.15);
  const perCpuSecond = steps.map((s) => (s.load.latency.n || 1) / (s.cpu.gateway + s.cpu.workers + s.cpu.redis)).sort((a, b) => a - b);
  const perCore = perCpuSecond[Math.floor((perCpuSecond.length - 1) / 2)] as number;
  out.push('');
  out.push(
    `CPU ceiling: ${cores} cores × ${fmt(perCore)} renders per CPU-second of gateway + workers + Redis ≈ ${fmt(cores * perCore, 0)} renders/s ` +
      'with the host to itself (the bench client and anything else running take from it).',
  );
  if (flat > 0) {
    const prev = steps[flat - 1] as ScaleStep;
    const s = steps[flat] as ScaleStep;
    out.push(
      `Flattens from ${prev.workers} → ${s.workers} workers (${fmt(prev.load.rendersPerSec)} → ${fmt(s.load.rendersPerSec)} renders/s, ` +
        `host CPU ${fmt(prev.cpu.machineBusyPct, 0)}% → ${fmt(s.cpu.machineBusyPct, 0)}% busy).`,
    );
  } else {
    out.push(`No step added < 15% (${steps.map((s) => `${s.workers}: ${fmt(s.load.rendersPerSec)}`).join(', ')} renders/s).`);
  }
  if (base.cpu.machineBusyPct >= 90)
    out.push(
      `The host's CPU was already ${fmt(base.cpu.machineBusyPct, 0)}% busy with ${base.workers} worker (${opts.pages} pages): ` +
        'a render is CPU work (Chromium parse, layout, paint, PNG encode; the worker’s and the gateway’s node), so past that ' +
        'more worker processes only queue for the same cores: queue and render time grow, renders/s per CPU-second does not. ' +
        'Any gain in renders/s beyond it on a shared host is CPU taken from other processes (more runnable threads get a bigger ' +
        `share: load average ${steps.map((s) => fmt(s.loadBefore, 1)).join(' → ')}), not capacity.`,
    );
  out.push('');
  out.push('Redis commands per render (dedicated Redis; INFO commandstats before/after each measured window, INFO itself excluded)');
  out.push(
    table(
      ['workers', 'renders', 'commands', 'per render', 'net of idle', 'Redis CPU µs/render', 'top commands per render'],
      steps.map((s) => {
        const n = s.load.latency.n || 1;
        const idle = idleRedis ? idleRedis.perSecond * (opts.durationMs / 1000) : 0;
        return [
          String(s.workers),
          String(s.load.latency.n),
          String(s.redis.total),
          fmt(s.redis.total / n, 2),
          fmt((s.redis.total - idle) / n, 2),
          fmt((1e6 * s.redis.cpuSeconds) / n, 1),
          s.redis.byCommand
            .slice(0, 6)
            .map(([name, calls]) => `${name} ${fmt(calls / n, 2)}`)
            .join(', '),
        ];
      }),
    ),
  );
  if (idleRedis)
    out.push(
      `idle background (gateway + ${base.workers} worker, no load): ${fmt(idleRedis.perSecond)} commands/s: ${idleRedis.diff.byCommand
        .slice(0, 6)
        .map(([name, calls]) => `${name} ${fmt(calls / (opts.idleMs / 1000))}/s`)
        .join(', ')}`,
    );
  if (monitored) {
    const n = monitored.renders || 1;
    const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
    const top = (m: Map<string, number>) =>
      [...m.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([name, calls]) => `${name} ${fmt(calls / n, 2)}`)
        .join(', ');
    out.push(
      `MONITOR over ${monitored.renders} renders (${base.workers} worker, c=${base.concurrency}${monitored.errors ? `, ${monitored.errors} failed` : ''}): ` +
        `${fmt(sum(monitored.counts.sent) / n, 2)} commands sent per render (${top(monitored.counts.sent)}); ` +
        `${fmt(sum(monitored.counts.scripted) / n, 2)} more run inside Lua scripts (${top(monitored.counts.scripted)})`,
    );
    errors += monitored.errors;
  }
  const cpuPerRender = Math.min(...steps.map((s) => (s.redis.cpuSeconds / (s.load.latency.n || 1)) * 1e6));
  out.push(
    `one Redis core at 100% ≈ ${fmt(1e6 / cpuPerRender, 0)} renders/s by Redis CPU per render (lowest measured ${fmt(cpuPerRender, 1)} µs; plan for ~50% of it)`,
  );
}

if (formats.length) {
  out.push('');
  out.push(
    `Formats: one worker (every queue, ${opts.pages} pages), each format alone at c=8 for ${opts.formatMs} ms; ` +
      'CPU = gateway + worker tree + Redis; per core = renders per CPU-second',
  );
  out.push(
    table(
      ['format', 'renders/s', 'p50 ms', 'p95 ms', 'render p50', 'CPU ms/render', 'renders/s per core', 'errors'],
      formats.map((f) => {
        errors += f.load.errors.total;
        const n = f.load.latency.n || 1;
        return [
          f.name,
          fmt(f.load.rendersPerSec),
          fmt(f.load.latency.p50),
          fmt(f.load.latency.p95),
          fmt(f.load.renderMs?.p50),
          fmt((1000 * f.cpuSeconds) / n),
          fmt(n / f.cpuSeconds),
          String(f.load.errors.total),
        ];
      }),
    ),
  );
}

if (memory.length) {
  out.push('');
  out.push(
    'Memory (MiB) of one worker process tree (node + Chromium) by warm pages: RSS sums count shared pages once per process, ' +
      'PSS splits them (also with other processes on the host), USS = private pages only',
  );
  out.push(
    table(
      ['pages', 'processes', 'idle RSS', 'idle PSS', 'idle USS', 'after load RSS', 'after load PSS', 'after load USS', 'gateway RSS'],
      memory.map((m) => [
        String(m.pages),
        String(m.loaded.processes),
        fmt(m.idle.rssMiB),
        fmt(m.idle.pssMiB),
        fmt(m.idle.ussMiB),
        fmt(m.loaded.rssMiB),
        fmt(m.loaded.pssMiB),
        fmt(m.loaded.ussMiB),
        fmt(m.gateway.rssMiB),
      ]),
    ),
  );
  const fit = (pick: (m: MemoryStep) => number) => linearFit(memory.map((m) => [m.pages, pick(m)]));
  const fits: Array<[string, (m: MemoryStep) => number]> = [
    ['idle RSS', (m) => m.idle.rssMiB],
    ['idle PSS', (m) => m.idle.pssMiB],
    ['idle USS', (m) => m.idle.ussMiB],
    ['after load RSS', (m) => m.loaded.rssMiB],
    ['after load PSS', (m) => m.loaded.pssMiB],
    ['after load USS', (m) => m.loaded.ussMiB],
  ];
  for (const [label, pick] of fits) {
    const f = fit(pick);
    out.push(`${label}: ${fmt(f.slope)} MiB per warm page + ${fmt(f.intercept)} MiB base (least squares)`);
  }
}

if (keyed.length) {
  out.push('');
  out.push(
    `Datastore operations per render with an API key (one worker, c=8, ${opts.keyedRenders} renders per caller; net of the idle ` +
      'background; Redis: INFO commandstats, scripts’ inner calls included; Postgres: transactions and rows of the account database)',
  );
  out.push(
    table(
      [
        'caller',
        'renders/s',
        'Redis cmds',
        'Redis CPU µs',
        'PG transactions',
        'PG rows by table (scans/ins/upd/del)',
        'top Redis commands',
        'errors',
      ],
      keyed.map((k) => {
        errors += k.errors;
        const n = k.renders || 1;
        return [
          k.caller,
          fmt(k.rendersPerSec),
          fmt(k.redis.total / n, 1),
          fmt((1e6 * k.redis.cpuSeconds) / n, 0),
          fmt(k.postgres.transactions / n, 2),
          k.postgres.tables
            .slice(0, 4)
            .map(([name, t]) => `${name} ${[t.scans, t.inserted, t.updated, t.deleted].map((v) => fmt(v / n, 2)).join('/')}`)
            .join(', '),
          k.redis.byCommand
            .slice(0, 5)
            .map(([name, calls]) => `${name} ${fmt(calls / n, 2)}`)
            .join(', '),
          String(k.errors),
        ];
      }),
    ),
  );
  const k0 = keyed[0] as KeyedOps;
  out.push(
    `idle background with the account services up: ${fmt(k0.idle.redisPerSec)} Redis commands/s, ${fmt(k0.idle.transactionsPerSec, 2)} Postgres transactions/s`,
  );
}

if (errors) {
  out.push('');
  out.push(`errors: ${errors}`);
  for (const s of steps) for (const [message, count] of s.load.errors.counts) out.push(`  ${s.workers} workers: ${count}× ${message}`);
  for (const f of formats) for (const [message, count] of f.load.errors.counts) out.push(`  ${f.name}: ${count}× ${message}`);
  for (const k of keyed) for (const [message, count] of k.errorMessages) out.push(`  ${k.caller}: ${count}× ${message}`);
}
out.push(...reportEnd('bench', warnings, started));
console.log(out.join('\n'));

if (jsonPath) {
  const plain = (d: RedisDiff) => ({ ...d, byCommand: Object.fromEntries(d.byCommand) });
  await writeResults(
    jsonPath,
    {
      at: new Date().toISOString(),
      cores,
      options: { ...opts, phases: [...opts.phases] },
      idleRedis: idleRedis && { perSecond: idleRedis.perSecond, ...plain(idleRedis.diff) },
      steps: steps.map((s) => ({ ...s, redis: plain(s.redis) })),
      memory,
      formats,
      keyed: keyed.map((k) => ({ ...k, redis: plain(k.redis), errorMessages: Object.fromEntries(k.errorMessages) })),
      monitored: monitored && {
        renders: monitored.renders,
        sent: Object.fromEntries(monitored.counts.sent),
        scripted: Object.fromEntries(monitored.counts.scripted),
      },
    },
    log,
  );
}
process.exit(errors > 0 ? 1 : 0);
