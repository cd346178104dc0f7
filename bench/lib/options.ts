import type { StartMode } from '@render/test-stack/processes';
import { int, parseCommandLine, resultsPath } from './cli.ts';

export type Phase = 'raw' | 'stack' | 'keys' | 'formats' | 'screenshot' | 'pipeline' | 'naive';

export interface BenchOptions {
  pages: number;
  requests: number;
  warmupRequests: number;
  durationMs: number;
  warmupMs: number;
  concurrency: number;
  naiveIterations: number;
  formatRequests: number;
  /** Only the format workloads whose name contains one of these (lower case); empty: every workload. */
  formatNames: string[];
  /** Measured captures per page and side in the screenshot phase. */
  screenshotRequests: number;
  /** Raw and stack runs repeated this many times; ratios are judged on their median. */
  rounds: number;
  phases: Set<Phase>;
  start: StartMode;
  jsonPath: string | null;
  strict: boolean;
  chromiumPath: string;
  redisUrl: string;
  databaseUrl: string | null;
}

const HELP = `Usage: pnpm bench [-- options]   (every option also has an env variable)

  --pages N             warm pages in the worker and in the raw N-page run  RENDER_PAGES (4)
  --requests N          measured requests of the sequential runs            BENCH_REQUESTS (200)
  --warmup-requests N   unmeasured requests before them                     BENCH_WARMUP_REQUESTS (20)
  --duration-ms N       measured window of the concurrent runs              BENCH_DURATION_MS (5000)
  --warmup-ms N         unmeasured lead-in of the concurrent runs           BENCH_WARMUP_MS (1000)
  --concurrency N       HTTP clients in the full-stack concurrent run       BENCH_CONCURRENCY (8)
  --naive N             browser-per-request iterations                      BENCH_NAIVE_ITERATIONS (10)
  --only LIST           phases to run: raw,stack,keys,formats,screenshot,   BENCH_ONLY (all)
                        pipeline,naive (pipeline: the c=1 runs with a worker
                        whose renderer answers a fixed PNG, i.e. the
                        service's cost beyond Chromium; screenshot: the
                        stack's default screenshot of local pages with an
                        API key, alternated with a hand-written Puppeteer
                        loop over the same pages)
  --format-requests N   measured requests per format (formats phase)        BENCH_FORMAT_REQUESTS (40)
  --formats LIST        only the format workloads whose name contains one  BENCH_FORMATS (all)
                        of these words (comma-separated, any case), e.g.
                        "chart.js bar,highcharts column" for the
                        per-library rows
  --screenshot-requests N  measured captures per page and side              BENCH_SCREENSHOT_REQUESTS (60)
                        (screenshot phase)
  --rounds N            repeat the raw, stack and keys phases N times, one  BENCH_ROUNDS (1)
                        after the other, and judge each ratio on its median
                        over the rounds (formats, pipeline and naive run
                        once)
  --start MODE          how the services start: production (node --import   BENCH_START (production)
                        tsx, NODE_ENV=production, LOG_LEVEL warn) or dev (as
                        ./scripts/dev: pnpm start → tsx, LOG_LEVEL info,
                        output through its line prefixer)
  --json PATH           where to write results ("" = nowhere)               BENCH_JSON (bench/results/latest.json)
  --strict              exit 1 when a target is missed, not only on errors  BENCH_STRICT=1
  -h, --help

Also read: CHROMIUM_PATH, REDIS_URL (loopback only), DATABASE_URL (the template workload and the API-key
runs create and drop their own database there; without it they are skipped).`;

const PHASES: readonly Phase[] = ['raw', 'stack', 'keys', 'formats', 'screenshot', 'pipeline', 'naive'];

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv, benchDir: string): BenchOptions {
  const values = parseCommandLine(
    {
      pages: { type: 'string' },
      'format-requests': { type: 'string' },
      formats: { type: 'string' },
      'screenshot-requests': { type: 'string' },
      rounds: { type: 'string' },
      requests: { type: 'string' },
      'warmup-requests': { type: 'string' },
      'duration-ms': { type: 'string' },
      'warmup-ms': { type: 'string' },
      concurrency: { type: 'string' },
      naive: { type: 'string' },
      only: { type: 'string' },
      start: { type: 'string' },
      json: { type: 'string' },
      strict: { type: 'boolean' },
    },
    HELP,
    // `pnpm bench -- --x` forwards the "--" itself on some pnpm versions.
    argv[0] === '--' ? argv.slice(1) : argv,
    true,
  );

  const onlyRaw = values.only ?? env.BENCH_ONLY ?? PHASES.join(',');
  const phases = new Set<Phase>();
  for (const name of onlyRaw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (!PHASES.includes(name as Phase)) throw new Error(`--only: unknown phase "${name}" (known: ${PHASES.join(', ')})`);
    phases.add(name as Phase);
  }
  if (phases.size === 0) throw new Error('--only selects no phase');

  const start = values.start ?? env.BENCH_START ?? 'production';
  if (start !== 'production' && start !== 'dev') throw new Error(`--start: "production" or "dev", got "${start}"`);

  const json = values.json ?? env.BENCH_JSON;
  return {
    pages: int('--pages / RENDER_PAGES', values.pages ?? env.RENDER_PAGES, 4, 1),
    requests: int('--requests / BENCH_REQUESTS', values.requests ?? env.BENCH_REQUESTS, 200, 1),
    warmupRequests: int('--warmup-requests / BENCH_WARMUP_REQUESTS', values['warmup-requests'] ?? env.BENCH_WARMUP_REQUESTS, 20, 0),
    durationMs: int('--duration-ms / BENCH_DURATION_MS', values['duration-ms'] ?? env.BENCH_DURATION_MS, 5_000, 100),
    warmupMs: int('--warmup-ms / BENCH_WARMUP_MS', values['warmup-ms'] ?? env.BENCH_WARMUP_MS, 1_000, 0),
    concurrency: int('--concurrency / BENCH_CONCURRENCY', values.concurrency ?? env.BENCH_CONCURRENCY, 8, 1),
    naiveIterations: int('--naive / BENCH_NAIVE_ITERATIONS', values.naive ?? env.BENCH_NAIVE_ITERATIONS, 10, 1),
    formatRequests: int('--format-requests / BENCH_FORMAT_REQUESTS', values['format-requests'] ?? env.BENCH_FORMAT_REQUESTS, 40, 1),
    formatNames: (values.formats ?? env.BENCH_FORMATS ?? '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
    screenshotRequests: int(
      '--screenshot-requests / BENCH_SCREENSHOT_REQUESTS',
      values['screenshot-requests'] ?? env.BENCH_SCREENSHOT_REQUESTS,
      60,
      1,
    ),
    rounds: int('--rounds / BENCH_ROUNDS', values.rounds ?? env.BENCH_ROUNDS, 1, 1),
    phases,
    start,
    jsonPath: resultsPath(json, benchDir, 'latest.json'),
    strict: values.strict ?? env.BENCH_STRICT === '1',
    chromiumPath: env.CHROMIUM_PATH || '/usr/bin/chromium-headless-shell',
    redisUrl: loopbackRedisUrl(env.REDIS_URL || 'redis://127.0.0.1:6379'),
    databaseUrl: env.DATABASE_URL || null,
  };
}

/** The bench must never put load on a shared or remote Redis, so anything off this host is refused. */
function loopbackRedisUrl(raw: string): string {
  let host: string;
  try {
    host = new URL(raw).hostname;
  } catch {
    throw new Error(`REDIS_URL is not a URL: ${raw}`);
  }
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(host)) {
    throw new Error(`REDIS_URL must point at this machine (127.0.0.1), got host "${host}"`);
  }
  return raw;
}
