/**
 * Soak: HTML → PNG at a steady rate (open loop: requests are sent on a clock, whatever the answers do)
 * for SOAK_DURATION_MS, sampling the memory of the worker (node + Chromium process tree) and the gateway.
 * Fails (exit 1) when memory grows ≥ SOAK_MAX_GROWTH_PCT after warm-up, or any request is lost, answered
 * 5xx or otherwise wrong. Run with `pnpm soak` (./scripts/soak); `--help` lists the knobs.
 */
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { type TreeMemory, treeMemory } from '@render/test-stack/proc-stats';
import { failRun, installExitHandlers, type StartMode } from '@render/test-stack/processes';
import { num, parseCommandLine, resultsPath } from './lib/cli.ts';
import { Fleet, stopFleet } from './lib/fleet.ts';
import { runForDuration } from './lib/load.ts';
import { startDedicatedRedis } from './lib/redis-stats.ts';
import { fmt, reportEnd, table, writeResults } from './lib/report.ts';
import { classifyFailure, growthPct } from './lib/soak.ts';
import { convertClient } from './lib/stack.ts';
import { summarize } from './lib/stats.ts';

const benchDir = import.meta.dirname;
const repoRoot = path.resolve(benchDir, '..');
installExitHandlers();
const log = (message: string) => console.error(`[soak] ${message}`);

const HELP = `Usage: pnpm soak [-- options]   (every option also has an env variable)

  --duration-ms N     whole run at the steady rate, warm-up included     SOAK_DURATION_MS (600000)
  --warmup-ms N       first part not judged (memory baseline = its end)  SOAK_WARMUP_MS (60000)
  --sample-ms N       memory sampling interval                           SOAK_SAMPLE_MS (30000)
  --rate N            requests/s; default: fraction × measured capacity  SOAK_RATE
  --fraction F        share of the measured capacity                     SOAK_RATE_FRACTION (0.6)
  --capacity-ms N     closed-loop run (c=8 per worker) measuring capacity SOAK_CAPACITY_MS (10000)
  --workers N         render-worker processes                            SOAK_WORKERS (1)
  --pages N           warm pages per worker                              RENDER_PAGES (4)
  --max-growth-pct N  memory growth goal after warm-up                   SOAK_MAX_GROWTH_PCT (10)
  --json PATH         results file ("" = none)                           SOAK_JSON (bench/results/soak.json)
  -h, --help

Also read: CHROMIUM_PATH, BENCH_START (production | dev).`;

const values = parseCommandLine(
  {
    'duration-ms': { type: 'string' },
    'warmup-ms': { type: 'string' },
    'sample-ms': { type: 'string' },
    rate: { type: 'string' },
    fraction: { type: 'string' },
    'capacity-ms': { type: 'string' },
    workers: { type: 'string' },
    pages: { type: 'string' },
    'max-growth-pct': { type: 'string' },
    json: { type: 'string' },
  },
  HELP,
);
const env = process.env;
const opts = {
  durationMs: num('--duration-ms', values['duration-ms'] ?? env.SOAK_DURATION_MS, 600_000, 1_000),
  warmupMs: num('--warmup-ms', values['warmup-ms'] ?? env.SOAK_WARMUP_MS, 60_000, 0),
  sampleMs: num('--sample-ms', values['sample-ms'] ?? env.SOAK_SAMPLE_MS, 30_000, 100),
  rate: num('--rate', values.rate ?? env.SOAK_RATE, 0, 0, false),
  fraction: num('--fraction', values.fraction ?? env.SOAK_RATE_FRACTION, 0.6, 0, false),
  capacityMs: num('--capacity-ms', values['capacity-ms'] ?? env.SOAK_CAPACITY_MS, 10_000, 1_000),
  workers: num('--workers', values.workers ?? env.SOAK_WORKERS, 1, 1),
  pages: num('--pages', values.pages ?? env.RENDER_PAGES, 4, 1),
  maxGrowthPct: num('--max-growth-pct', values['max-growth-pct'] ?? env.SOAK_MAX_GROWTH_PCT, 10, 0, false),
  start: (env.BENCH_START ?? 'production') as StartMode,
  chromiumPath: env.CHROMIUM_PATH || '/usr/bin/chromium-headless-shell',
  json: values.json ?? env.SOAK_JSON,
};
if (opts.warmupMs >= opts.durationMs) throw new Error('--warmup-ms must be shorter than --duration-ms');
const jsonPath = resultsPath(opts.json, benchDir, 'soak.json');

interface MemorySample {
  atMs: number;
  worker: TreeMemory;
  gateway: TreeMemory;
  inFlight: number;
}

const redis = await startDedicatedRedis();
const fleet = new Fleet(repoRoot, {
  redisUrl: redis.url,
  queuePrefix: `soak-${process.pid}`,
  chromiumPath: opts.chromiumPath,
  start: opts.start,
});
const samples: MemorySample[] = [];
const latencies: number[] = [];
const failures = { lost: 0, http5xx: 0, other: 0, messages: new Map<string, number>() };
let sent = 0;
let judged = 0;
let capacity: number | undefined;
let rate = opts.rate;
let stillPending = 0;
const started = Date.now();

try {
  const port = await fleet.startGateway();
  await fleet.addWorkers(opts.workers, opts.pages);
  if (!rate) {
    const concurrency = 8 * opts.workers;
    const probe = convertClient(port, concurrency);
    log(`measuring capacity: c=${concurrency} for ${opts.capacityMs} ms (+2 s warm-up)`);
    const r = await runForDuration(probe.convert, { concurrency, warmupMs: 2_000, durationMs: opts.capacityMs });
    probe.close();
    capacity = r.rendersPerSec;
    rate = capacity * opts.fraction;
    log(`capacity ${fmt(capacity)} renders/s → soak at ${fmt(rate)} requests/s (${opts.fraction} ×)`);
    await sleep(2_000);
  }

  const client = convertClient(port, 1024);
  const pending = new Set<Promise<void>>();
  const pids = { worker: fleet.workers.map((w) => w.service.child.pid as number), gateway: fleet.gateway?.child.pid as number };
  const sumTrees = (roots: number[]): TreeMemory =>
    roots.map(treeMemory).reduce((a, m) => ({
      processes: a.processes + m.processes,
      rssMiB: a.rssMiB + m.rssMiB,
      pssMiB: a.pssMiB + m.pssMiB,
      ussMiB: a.ussMiB + m.ussMiB,
    }));
  const t0 = performance.now();
  const sample = () => {
    const s = { atMs: performance.now() - t0, worker: sumTrees(pids.worker), gateway: treeMemory(pids.gateway), inFlight: pending.size };
    samples.push(s);
    log(
      `t=${(s.atMs / 1000).toFixed(0)} s: worker tree RSS ${fmt(s.worker.rssMiB)} MiB (PSS ${fmt(s.worker.pssMiB)}), gateway RSS ${fmt(s.gateway.rssMiB)} MiB, ` +
        `${s.inFlight} in flight, ${sent} sent`,
    );
  };
  log(`soak: ${fmt(rate)} requests/s for ${opts.durationMs} ms (first ${opts.warmupMs} ms warm-up), memory every ${opts.sampleMs} ms`);
  sample();
  let nextSample = opts.sampleMs;
  const interval = 1000 / rate;
  for (let i = 0; ; i++) {
    const due = i * interval;
    if (due >= opts.durationMs) break;
    while (nextSample <= due) {
      await sleep(Math.max(0, nextSample - (performance.now() - t0)));
      sample();
      nextSample += opts.sampleMs;
    }
    const wait = due - (performance.now() - t0);
    if (wait > 1) await sleep(wait);
    const inWindow = due >= opts.warmupMs;
    sent += 1;
    if (inWindow) judged += 1;
    const begun = performance.now();
    const p: Promise<void> = client
      .convert()
      .then(
        () => {
          if (inWindow) latencies.push(performance.now() - begun);
        },
        (err: Error) => {
          // Warm-up failures count too: nothing may be lost or fail at any time.
          const kind = classifyFailure(err.message);
          failures[kind] += 1;
          const key = err.message.slice(0, 160);
          failures.messages.set(key, (failures.messages.get(key) ?? 0) + 1);
        },
      )
      .finally(() => pending.delete(p));
    pending.add(p);
  }
  // The last sample at the end of the run, before the drain.
  await sleep(Math.max(0, opts.durationMs - (performance.now() - t0)));
  if ((samples.at(-1)?.atMs ?? 0) < opts.durationMs - opts.sampleMs / 2) sample();
  log(`draining ${pending.size} in-flight request(s)`);
  // The client gives each request 60 s; whatever has no answer by then is lost.
  await Promise.race([Promise.all(pending), sleep(65_000)]);
  stillPending = pending.size;
  failures.lost += stillPending;
  client.close();
} catch (err) {
  await failRun('soak', err);
}
const warnings = await stopFleet(fleet, redis);

// --- report --------------------------------------------------------------------------------------------

const after = samples.filter((s) => s.atMs >= opts.warmupMs - 1);
const baseline = after[0];
const last = samples.at(-1);
const growth = (pick: (s: MemorySample) => number) =>
  baseline && last && baseline !== last ? growthPct(pick(baseline), pick(last)) : undefined;
const workerGrowth = growth((s) => s.worker.rssMiB);
const gatewayGrowth = growth((s) => s.gateway.rssMiB);
const latency = summarize(latencies);

const out: string[] = [''];
out.push(`Soak: 800×600 simple HTML → PNG, anonymous, ${opts.workers} worker(s) × ${opts.pages} pages, dedicated redis-server`);
out.push(
  `machine  ${os.availableParallelism()} cores, load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} at the end`,
);
out.push(
  `rate     ${fmt(rate)} requests/s${capacity ? ` (${opts.fraction} × measured capacity ${fmt(capacity)} renders/s)` : ' (given)'}, ` +
    `${opts.durationMs / 1000} s (warm-up ${opts.warmupMs / 1000} s), ${sent} requests sent, ${judged} after warm-up`,
);
out.push('');
out.push('Memory samples (worker = node + Chromium process tree; RSS summed over processes, PSS splits shared pages, USS = private only)');
out.push(
  table(
    ['t s', 'worker RSS MiB', 'worker PSS MiB', 'worker USS MiB', 'processes', 'gateway RSS MiB', 'in flight'],
    samples.map((s) => [
      `${(s.atMs / 1000).toFixed(0)}${s === baseline ? ' (baseline)' : ''}`,
      fmt(s.worker.rssMiB),
      fmt(s.worker.pssMiB),
      fmt(s.worker.ussMiB),
      String(s.worker.processes),
      fmt(s.gateway.rssMiB),
      String(s.inFlight),
    ]),
  ),
);
const goals: Array<{ label: string; value: string; goal: string; pass: boolean }> = [
  {
    label: 'worker tree RSS growth after warm-up',
    value: workerGrowth === undefined ? 'n/a' : `${fmt(workerGrowth)}%`,
    goal: `< ${opts.maxGrowthPct}%`,
    pass: workerGrowth !== undefined && workerGrowth < opts.maxGrowthPct,
  },
  {
    label: 'gateway RSS growth after warm-up',
    value: gatewayGrowth === undefined ? 'n/a' : `${fmt(gatewayGrowth)}%`,
    goal: `< ${opts.maxGrowthPct}%`,
    pass: gatewayGrowth !== undefined && gatewayGrowth < opts.maxGrowthPct,
  },
  { label: 'lost requests (no answer, connection error)', value: String(failures.lost), goal: '0', pass: failures.lost === 0 },
  { label: '5xx answers', value: String(failures.http5xx), goal: '0', pass: failures.http5xx === 0 },
  { label: 'other failures (4xx, not an 800×600 PNG)', value: String(failures.other), goal: '0', pass: failures.other === 0 },
];
out.push('');
out.push(`latency after warm-up: p50 ${fmt(latency.p50)} ms, p95 ${fmt(latency.p95)} ms, max ${fmt(latency.max)} ms (n=${latency.n})`);
out.push('');
out.push(
  table(
    ['goal', 'measured', 'target', 'verdict'],
    goals.map((g) => [g.label, g.value, g.goal, g.pass ? 'PASS' : 'MISS']),
  ),
);
for (const [message, count] of failures.messages) out.push(`  ${count}× ${message}`);
if (stillPending) out.push(`  ${stillPending} request(s) still unanswered 65 s after the run`);
out.push(...reportEnd('soak', warnings, started));
console.log(out.join('\n'));

if (jsonPath) {
  const { messages, ...counts } = failures;
  await writeResults(
    jsonPath,
    {
      at: new Date().toISOString(),
      options: opts,
      capacity,
      rate,
      sent,
      judged,
      latency,
      failures: { ...counts, messages: Object.fromEntries(messages) },
      samples,
      goals,
    },
    log,
  );
}
process.exit(goals.every((g) => g.pass) ? 0 : 1);
