/**
 * Render throughput/latency bench: raw warm-page Chromium vs the full HTTP → queue → worker stack vs a
 * browser-per-request baseline, for 800×600 simple HTML → PNG. Run with `pnpm bench` (./scripts/bench);
 * `pnpm bench -- --help` lists the knobs.
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { cleanupAll, failRun, installExitHandlers } from '@render/test-stack/processes';
import { CHART_JS_4 } from './lib/formats.ts';
import type { LoadResult } from './lib/load.ts';
import { parseOptions } from './lib/options.ts';
import { openRawPage, openRawScreenshots, type RawResults, runNaive, runRaw } from './lib/raw.ts';
import { fmt, reportEnd, type Target, table, verdict, writeResults } from './lib/report.ts';
import { DEFAULT_PAIR_BATCH, runStack, type StackResults } from './lib/stack.ts';
import { HEIGHT, WIDTH } from './lib/workload.ts';

const benchDir = import.meta.dirname;
const repoRoot = path.resolve(benchDir, '..');

installExitHandlers();

const opts = parseOptions(process.argv.slice(2), process.env, benchDir);
const log = (message: string) => console.error(`[bench] ${message}`);

function chromiumVersion(): string {
  try {
    return execFileSync(opts.chromiumPath, ['--version'], { encoding: 'utf8', timeout: 10_000 }).trim();
  } catch (err) {
    return `unknown (${(err as Error).message.split('\n')[0]})`;
  }
}

const isRoot = process.getuid?.() === 0;
const machine = {
  cores: os.availableParallelism(),
  cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
  memoryGiB: Number((os.totalmem() / 2 ** 30).toFixed(1)),
  loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))),
  kernel: `${os.type()} ${os.release()}`,
  node: process.version,
  chromium: chromiumVersion(),
  chromiumPath: opts.chromiumPath,
  // Same rule as the worker's CHROMIUM_SANDBOX=auto.
  sandbox: isRoot ? 'off (running as root)' : 'on',
};

/** One pass over the phases. Formats and naive run in the first round only: no ratio is judged on them across rounds. */
interface Round {
  raw?: RawResults;
  stack?: StackResults;
  naive?: LoadResult;
}
const rounds: Round[] = [];
const started = Date.now();

async function measureRound(first: boolean): Promise<Round> {
  const round: Round = {};
  if (opts.phases.has('raw')) {
    log(`raw: in-process warm pages (1 page × ${opts.requests}, then ${opts.pages} pages × ${opts.durationMs} ms)`);
    round.raw = await runRaw(opts.chromiumPath, opts);
  }
  const formats = first && opts.phases.has('formats');
  const pipeline = first && opts.phases.has('pipeline');
  const screenshots = first && opts.phases.has('screenshot');
  if (opts.phases.has('stack') || opts.phases.has('keys') || formats || screenshots || pipeline) {
    if (opts.phases.has('stack'))
      log(`full stack: gateway + worker over HTTP (c=1 × ${opts.requests}, then c=${opts.concurrency} × ${opts.durationMs} ms)`);
    if (opts.phases.has('keys')) log('API keys: the same HTML runs with an unlimited and a Free account’s key');
    if (formats) log(`formats: each format through the full stack, c=1 × ${opts.formatRequests}`);
    if (screenshots)
      log(
        `screenshot: local pages through the stack with an API key, alternated with a raw Puppeteer loop, c=1 × ${opts.screenshotRequests}`,
      );
    if (pipeline) log(`pipeline: the c=1 runs again, the worker answering a fixed PNG (no Chromium work), c=1 × ${opts.requests}`);
    // The c=1 runs alternate with a raw page of their own (`runPaired`), so their ratios compare like moments.
    const rawPage = opts.phases.has('raw') ? await openRawPage(opts.chromiumPath) : undefined;
    const rawShots = screenshots ? await openRawScreenshots(opts.chromiumPath) : undefined;
    try {
      round.stack = await runStack(repoRoot, {
        ...opts,
        load: opts.phases.has('stack'),
        keys: opts.phases.has('keys'),
        formats,
        pipeline,
        rawRender: rawPage?.render,
        rawScreenshot: rawShots?.shoot,
      });
    } finally {
      await rawShots?.close();
      await rawPage?.close();
    }
  }
  if (first && opts.phases.has('naive')) {
    log(`naive: a browser per request × ${opts.naiveIterations}`);
    round.naive = await runNaive(opts.chromiumPath, { iterations: opts.naiveIterations });
  }
  return round;
}

try {
  for (let i = 0; i < opts.rounds; i++) {
    if (opts.rounds > 1) log(`round ${i + 1} of ${opts.rounds}`);
    rounds.push(await measureRound(i === 0));
  }
} catch (err) {
  await failRun('bench', err);
}
// The tables show the last round; the summary judges each ratio on its median over the rounds.
const { raw, stack } = rounds.at(-1) ?? {};
const naive = rounds[0]?.naive;
const formatResults = rounds[0]?.stack?.formats ?? [];
const pipelineResults = rounds[0]?.stack?.pipeline ?? [];
const screenshotResults = rounds[0]?.stack?.screenshots ?? [];
await cleanupAll();

// --- report --------------------------------------------------------------------------------------------

const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined || b === 0 ? undefined : a / b);

const row = (label: string, r: LoadResult | undefined): string[] =>
  r
    ? [
        label,
        String(r.latency.n),
        fmt(r.latency.p50),
        fmt(r.latency.p95),
        fmt(r.latency.mean),
        fmt(r.rendersPerSec),
        String(r.errors.total),
      ]
    : [label, 'skipped', '', '', '', '', ''];

const out: string[] = [];
out.push('');
out.push(`Render bench: ${WIDTH}×${HEIGHT} simple HTML (red box + heading, no scripts) → PNG`);
out.push(
  `machine  ${machine.cores} cores (${machine.cpuModel}), ${machine.memoryGiB} GiB, ${machine.kernel}, load ${machine.loadAverage.join(' ')}`,
);
out.push(`         node ${machine.node}, ${machine.chromium} [${machine.chromiumPath}], sandbox ${machine.sandbox}`);
out.push(
  `settings pages=${opts.pages}, sequential ${opts.requests} (+${opts.warmupRequests} warm-up), ` +
    `concurrent ${opts.durationMs} ms (+${opts.warmupMs} ms warm-up), c=${opts.concurrency}, naive ${opts.naiveIterations} (+1 warm-up)`,
);
out.push(
  `start    ${
    opts.start === 'dev'
      ? 'dev (as ./scripts/dev: pnpm start → tsx → node, LOG_LEVEL info, output through its line prefixer)'
      : 'production (node --import tsx, NODE_ENV=production, LOG_LEVEL warn)'
  }`,
);
// The HTML runs' tables only when one of their phases ran (e.g. not for `--only screenshot`).
const htmlRuns = ['raw', 'stack', 'keys', 'naive'].some((phase) => opts.phases.has(phase as never));
if (htmlRuns) out.push('');
if (htmlRuns)
  out.push(
    table(
      ['run', 'n', 'p50 ms', 'p95 ms', 'mean ms', 'renders/s', 'errors'],
      [
        row('raw       1 page, sequential', raw?.sequential),
        row(`raw       ${opts.pages} pages, concurrent`, raw?.parallel),
        row('stack     HTTP c=1, anonymous', stack?.sequential),
        ...(stack?.pairedRaw ? [row('raw       1 page, alternated with it', stack.pairedRaw)] : []),
        row(`stack     HTTP c=${opts.concurrency}, anonymous`, stack?.concurrent),
        ...(stack?.keyed ?? []).flatMap((k) => [
          row(`stack     HTTP c=1, ${k.name}`, k.sequential),
          ...(k.pairedRaw ? [row('raw       1 page, alternated with it', k.pairedRaw)] : []),
          row(`stack     HTTP c=${opts.concurrency}, ${k.name}`, k.concurrent),
        ]),
        row('naive     browser per request', naive),
      ],
    ),
  );

if (stack && htmlRuns) {
  // rest = what neither header covers: HTTP + validation + the gateway's Redis calls before the job is
  // stamped, and after the worker finishes: completion script, event stream wake-up, GETDEL, reply.
  const breakdown = (label: string, r: LoadResult): string[] => {
    const total = r.latency.mean;
    const render = r.renderMs?.mean;
    const queue = r.queueMs?.mean;
    const rest = render === undefined || queue === undefined ? undefined : total - render - queue;
    const share = (v: number | undefined) => (v === undefined ? '' : ` (${Math.round((v / total) * 100)}%)`);
    return [label, fmt(total), fmt(render) + share(render), fmt(queue) + share(queue), fmt(rest) + share(rest), fmt(r.renderMs?.p95, 0)];
  };
  out.push('');
  out.push('Where full-stack time goes (means over measured requests, ms)');
  out.push(
    table(
      ['run', 'total', 'render (Server-Timing)', 'X-Queue-Time', 'rest (HTTP+gateway+Redis)', 'render p95'],
      [
        breakdown('stack HTTP c=1, anonymous', stack.sequential),
        breakdown(`stack HTTP c=${opts.concurrency}, anonymous`, stack.concurrent),
        ...stack.keyed.flatMap((k) => [
          breakdown(`stack HTTP c=1, ${k.name}`, k.sequential),
          breakdown(`stack HTTP c=${opts.concurrency}, ${k.name}`, k.concurrent),
        ]),
      ],
    ),
  );
  if (raw)
    out.push(`raw 1-page render for comparison: mean ${fmt(raw.sequential.latency.mean)} ms, p50 ${fmt(raw.sequential.latency.p50)} ms`);
  out.push(`client connections opened: ${stack.connections} (keep-alive: ≈ c=${opts.concurrency} expected)`);
}

if (pipelineResults.length) {
  // The same gateway and callers; only the worker's render is gone. What is left is ours: HTTP, the gateway,
  // the queue, the reply. Set against the raw page, it is the least the c=1 ratios can come to.
  const rawP50 = (rounds[0]?.stack?.pairedRaw ?? rounds[0]?.raw?.sequential)?.latency.p50;
  out.push('');
  out.push('Beyond Chromium (first round): c=1 with the worker answering a fixed 800×600 PNG of the same size, no render');
  out.push(
    table(
      ['caller', 'n', 'p50 ms', 'p95 ms', 'mean ms', 'p50 ÷ raw 1-page p50', 'errors'],
      pipelineResults.map((p) => [
        p.name,
        String(p.sequential.latency.n),
        fmt(p.sequential.latency.p50, 2),
        fmt(p.sequential.latency.p95, 2),
        fmt(p.sequential.latency.mean, 2),
        fmt(ratio(p.sequential.latency.p50, rawP50), 2),
        String(p.sequential.errors.total),
      ]),
    ),
  );
}

const reference = formatResults.find((f) => f.reference);
if (formatResults.length) {
  out.push('');
  out.push(
    'Formats through the full stack (c=1; render is the worker-side time (Server-Timing, 0.1 ms); rest = mean total − render − queue)',
  );
  out.push(
    table(
      ['format', 'n', 'p50 ms', 'p95 ms', 'renders/s', 'render p50', 'rest', 'p50 ÷ html', 'errors'],
      formatResults.map((f) => [
        f.name,
        String(f.result.latency.n),
        fmt(f.result.latency.p50),
        fmt(f.result.latency.p95),
        fmt(f.result.rendersPerSec),
        fmt(f.result.renderMs?.p50),
        fmt(f.result.renderMs && f.result.queueMs ? f.result.latency.mean - f.result.renderMs.mean - f.result.queueMs.mean : undefined),
        fmt(reference && f.result.latency.n ? f.result.latency.p50 / reference.result.latency.p50 : undefined, 2),
        String(f.result.errors.total),
      ]),
    ),
  );
}

const libraries = formatResults.filter((f) => f.library);
if (libraries.length) {
  // The measure: the worker's time (Server-Timing's render, 0.1 ms) for the same simple chart in each library and
  // through each compatibility endpoint, against Chart.js 4 (target: Highcharts within 1.5×).
  const chartJs = libraries.find((f) => f.library === CHART_JS_4)?.result.renderMs?.p50;
  out.push('');
  out.push('Chart libraries: p50 server time (Server-Timing render, 0.1 ms) for the same 12-bar chart, 800×400 PNG, c=1');
  out.push(
    table(
      ['library', 'n', 'server p50 ms', 'server p95 ms', 'total p50 ms', '÷ Chart.js 4'],
      libraries.map((f) => [
        f.library ?? f.name,
        String(f.result.latency.n),
        fmt(f.result.renderMs?.p50),
        fmt(f.result.renderMs?.p95),
        fmt(f.result.latency.p50),
        fmt(chartJs && f.result.renderMs ? f.result.renderMs.p50 / chartJs : undefined, 2),
      ]),
    ),
  );
}

if (screenshotResults.length) {
  out.push('');
  out.push(
    'Screenshots (first round): the stack’s default capture (hideCookieBanners on) with an API key vs a hand-written Puppeteer loop (goto load + screenshot; the full page scrolled through first), alternated, c=1, 800×600 PNG',
  );
  out.push(
    table(
      ['page', 'side', 'n', 'p50 ms', 'p95 ms', 'mean ms', 'render p50', 'p50 ÷ raw', 'errors'],
      screenshotResults.flatMap((s) => [
        [
          s.name,
          'stack',
          String(s.stack.latency.n),
          fmt(s.stack.latency.p50),
          fmt(s.stack.latency.p95),
          fmt(s.stack.latency.mean),
          fmt(s.stack.renderMs?.p50),
          fmt(ratio(s.stack.latency.p50, s.raw.latency.p50), 2),
          String(s.stack.errors.total),
        ],
        [
          '',
          'raw',
          String(s.raw.latency.n),
          fmt(s.raw.latency.p50),
          fmt(s.raw.latency.p95),
          fmt(s.raw.latency.mean),
          '',
          '',
          String(s.raw.errors.total),
        ],
      ]),
    ),
  );
}

/** A c=1 run's p50 over the raw page's: the one alternated with it when there is one, else the raw phase's. */
const c1Ratio = (run: LoadResult | undefined, paired: LoadResult | undefined, raw: RawResults | undefined) =>
  ratio(run?.latency.p50, (paired ?? raw?.sequential)?.latency.p50);
/** The goals, for one round's results. */
const targetsOf = ({ raw, stack }: Round): Target[] => [
  {
    label: 'stack c=1 p50 ÷ raw 1-page p50',
    value: c1Ratio(stack?.sequential, stack?.pairedRaw, raw),
    op: '≤',
    limit: 1.5,
  },
  {
    label: `stack c=${opts.concurrency} renders/s ÷ raw ${opts.pages}-page renders/s`,
    value: ratio(stack?.concurrent.rendersPerSec, raw?.parallel.rendersPerSec),
    op: '≥',
    limit: 0.8,
  },
  ...(stack?.keyed ?? []).flatMap((k): Target[] => [
    {
      label: `${k.name} c=1 p50 ÷ raw 1-page p50`,
      value: c1Ratio(k.sequential, k.pairedRaw, raw),
      op: '≤',
      limit: 1.2,
    },
    {
      label: `${k.name} c=${opts.concurrency} renders/s ÷ raw ${opts.pages}-page renders/s`,
      value: ratio(k.concurrent.rendersPerSec, raw?.parallel.rendersPerSec),
      op: '≥',
      limit: 1.0,
    },
  ]),
  {
    label: `stack c=${opts.concurrency} renders/s ÷ naive renders/s`,
    value: ratio(stack?.concurrent.rendersPerSec, naive?.rendersPerSec),
    op: '≥',
    limit: 20,
  },
  ...screenshotResults.map(
    (s): Target => ({
      label: `screenshot ${s.name} p50 ÷ raw script p50`,
      value: s.stack.latency.n && s.raw.latency.n ? ratio(s.stack.latency.p50, s.raw.latency.p50) : undefined,
      op: '≤',
      limit: s.goal,
    }),
  ),
  ...formatResults
    .filter((f) => f.target)
    .map(
      (f): Target => ({
        label: `${f.name} p50 ÷ html p50`,
        value: f.result.latency.n ? ratio(f.result.latency.p50, reference?.result.latency.p50) : undefined,
        op: '≤',
        limit: 2,
      }),
    ),
];
const median = (values: number[]): number | undefined => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length === 0 ? undefined : sorted.length % 2 ? sorted[mid] : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
const perRound = rounds.map(targetsOf);
// Each target's value is its median over the rounds (the one value when there is one round).
const targets: Target[] = (perRound[0] ?? targetsOf({})).map((t, i) => ({
  ...t,
  value: median(perRound.map((r) => r[i]?.value).filter((v): v is number => v !== undefined && !Number.isNaN(v))),
}));
out.push('');
out.push(rounds.length > 1 ? `Summary (median over ${rounds.length} rounds; each round's ratio in "rounds")` : 'Summary');
if (stack?.pairedRaw || stack?.keyed.some((k) => k.pairedRaw))
  out.push(`c=1 ratios are over the raw page run alternated with each (batches of ${DEFAULT_PAIR_BATCH} requests a side)`);
out.push(
  table(
    ['target', 'ratio', 'goal', 'verdict', ...(rounds.length > 1 ? ['rounds'] : [])],
    targets.map((t, i) => [
      t.label,
      fmt(t.value, 2),
      `${t.op} ${t.limit}`,
      verdict(t),
      ...(rounds.length > 1 ? [perRound.map((r) => fmt(r[i]?.value, 2)).join(' ')] : []),
    ]),
  ),
);

// Every round's errors count: a round whose results are not shown must not hide a failure.
const allErrors: [string, LoadResult | undefined][] = rounds.flatMap(({ raw, stack, naive }, i) => {
  const tag = rounds.length > 1 ? `round ${i + 1}: ` : '';
  const entries: [string, LoadResult | undefined][] = [
    ['raw 1 page', raw?.sequential],
    [`raw ${opts.pages} pages`, raw?.parallel],
    ['stack c=1', stack?.sequential],
    [`stack c=${opts.concurrency}`, stack?.concurrent],
    ...(stack?.keyed ?? []).flatMap((k): [string, LoadResult][] => [
      [`${k.name} c=1`, k.sequential],
      [`${k.name} c=${opts.concurrency}`, k.concurrent],
    ]),
    ['naive', naive],
    ...(stack?.formats ?? []).map((f): [string, LoadResult] => [f.name, f.result]),
    ...(stack?.pipeline ?? []).map((p): [string, LoadResult] => [`pipeline ${p.name}`, p.sequential]),
    ...(stack?.screenshots ?? []).flatMap((s): [string, LoadResult][] => [
      [`screenshot ${s.name}`, s.stack],
      [`raw screenshot ${s.name}`, s.raw],
    ]),
  ];
  return entries.map(([label, r]): [string, LoadResult | undefined] => [tag + label, r]);
});
const errorCount = allErrors.reduce((n, [, r]) => n + (r?.errors.total ?? 0), 0);
out.push('');
if (errorCount === 0) {
  out.push('errors: none (every response 200 with an 800×600 PNG)');
} else {
  out.push(`errors: ${errorCount} (warm-up included)`);
  for (const [label, r] of allErrors) {
    for (const [message, count] of r?.errors.counts ?? []) out.push(`  ${label}: ${count}× ${message}`);
  }
}
out.push(...reportEnd('bench', stack?.serviceWarnings ?? [], started));
console.log(out.join('\n'));

if (opts.jsonPath) {
  const result = {
    at: new Date().toISOString(),
    machine,
    // The Redis and Postgres URLs may carry passwords; the JSON is meant to be shared.
    options: { ...opts, phases: [...opts.phases], redisUrl: undefined, databaseUrl: undefined },
    raw,
    stack,
    naive,
    ...(rounds.length > 1 ? { rounds, perRoundTargets: perRound } : {}),
    targets: targets.map((t) => ({ ...t, verdict: verdict(t) })),
    errors: errorCount,
  };
  await writeResults(opts.jsonPath, result, log);
}

const missed = targets.some((t) => verdict(t) === 'MISS');
process.exit(errorCount > 0 || (opts.strict && missed) ? 1 : 0);
