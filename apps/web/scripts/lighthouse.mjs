// pnpm --filter @render/web lighthouse [--dist <dir>] [--pages /,/docs] [--langs en,fr] [--serve gateway|static] [--origin <url>]
// Lighthouse (pinned, mobile preset with its default throttling) over Debian's Chromium (CHROMIUM_PATH overrides)
// against the production build served as production serves it. `--serve gateway` (the default when Redis
// answers at REDIS_URL, redis://127.0.0.1:6379 unless set) starts the real gateway over the build (WEB_DIST_DIR):
// precompressed assets, each prerendered page in the browser's language, the API on the same origin.
// `--serve static` is a stand-in without the gateway's dependencies: the same files, encodings and language choice.
// The gateway alone answers the API calls the pages make with 503s (no account service: /api/limits), which
// Lighthouse counts as console errors. `--origin` measures a whole running stack instead, e.g. ./scripts/dev
// with its gateway serving the build: `WEB_DIST_DIR=$PWD/apps/web/dist ./scripts/dev`, then
// `--origin http://127.0.0.1:3000`.
// Prints the four scores and CLS, LCP and TBT per page and language, then the landing page's initial JavaScript.
// Every browser and server it starts is ended and waited for when it ends, fails or is interrupted (Ctrl-C).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { createConnection } from 'node:net';
import { constants, tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import lighthouse from 'lighthouse';
import { PLAYGROUND_PATHS } from '../vite/seo-files.plugin.ts';

// The goal's pages (issue 28): the public ones, an article, the 7 playgrounds, templates and the auth forms.
const PAGES = [
  '/',
  '/docs',
  '/blog',
  '/blog/how-fast-is-a-render',
  '/pricing',
  // The goal's seven: the generic chart page (/chart-to-image) is left out, its libraries' pages are measured.
  ...PLAYGROUND_PATHS.filter((path) => path !== '/chart-to-image'),
  '/template/list',
  '/login',
  '/signup',
];
const { values } = parseArgs({
  options: {
    dist: { type: 'string', default: join(import.meta.dirname, '..', 'dist') },
    pages: { type: 'string', default: PAGES.join(',') },
    langs: { type: 'string', default: 'en,fr' },
    serve: { type: 'string' },
    origin: { type: 'string' },
  },
});
const dist = normalize(values.dist);
if (!existsSync(join(dist, 'index.html'))) throw new Error(`build the app first (pnpm --filter @render/web build): ${dist} is missing`);
const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.woff2': 'font/woff2',
};
const gateway = process.env.GATEWAY_URL;

/** The page's language as the gateway picks it: the `language` cookie, else the first of Accept-Language. */
const pickLanguage = (req) =>
  /(?:^|;\s*)language=(en|fr)/.exec(String(req.headers.cookie ?? ''))?.[1] ??
  (String(req.headers['accept-language'] ?? '')
    .trim()
    .toLowerCase()
    .startsWith('fr')
    ? 'fr'
    : 'en');

function pageFile(req, pathname) {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const prerendered = join(dist, 'prerendered', pickLanguage(req), path, 'index.html');
  return existsSync(prerendered) ? prerendered : join(dist, 'index.html');
}

function staticServer() {
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname.startsWith('/api/')) {
      if (!gateway) return res.writeHead(503, { 'content-type': 'application/json' }).end('{"success":false,"message":"no API here"}');
      const upstream = request(new URL(req.url ?? '/', gateway), { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(upstream);
      return;
    }
    let file = normalize(join(dist, decodeURIComponent(url.pathname)));
    if (!file.startsWith(dist) || !existsSync(file) || statSync(file).isDirectory() || file.includes('/prerendered/')) {
      file = pageFile(req, url.pathname);
    }
    const accepts = String(req.headers['accept-encoding'] ?? '');
    const headers = {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': file.includes(`${join(dist, 'assets')}/`) ? 'public, max-age=31536000, immutable' : 'no-cache',
      vary: 'accept-encoding',
    };
    for (const [encoding, suffix] of [
      ['br', '.br'],
      ['gzip', '.gz'],
    ]) {
      if (accepts.includes(encoding) && existsSync(file + suffix)) {
        return res.writeHead(200, { ...headers, 'content-encoding': encoding }).end(readFileSync(file + suffix));
      }
    }
    res.writeHead(200, headers).end(readFileSync(file));
  });
}

/**
 * The process groups this run started (each Chromium, the gateway), ended however the run ends: its own close,
 * a failure, Ctrl-C. Each child is started in a group of its own (`detached`) and the whole group is signalled,
 * since Debian's /usr/bin/chromium-headless-shell is a shell script that runs Chromium as its child: killing the
 * child alone ended the script and left Chromium running, one browser per language per run.
 */
const groups = new Map();
const signalGroup = (pgid, signal) => {
  try {
    process.kill(-pgid, signal);
  } catch {
    // The group is gone already.
  }
};
/** Whether a process of the group still runs (an exited one may stay a zombie until reaped: not counted). */
function groupRuns(pgid) {
  if (!existsSync('/proc/self/stat')) {
    try {
      process.kill(-pgid, 0);
      return true;
    } catch {
      return false;
    }
  }
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses, so the fields are read after the last ')'.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z') return true;
  }
  return false;
}
/** Ends a group: SIGTERM, then SIGKILL to what still runs 5 s later; returns once none of it runs. */
async function endGroup(pgid) {
  if (!groups.has(pgid)) return;
  signalGroup(pgid, 'SIGTERM');
  for (let waited = 0; groupRuns(pgid); waited += 100) {
    if (waited === 5000) signalGroup(pgid, 'SIGKILL');
    await sleep(100);
  }
  groups.delete(pgid);
}
// Ctrl-C, a kill or a closed terminal: end every group (waiting for them), then stop as that signal would.
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.error(`${signal}: stopping the browsers and servers this run started`);
    void Promise.all([...groups.keys()].map(endGroup)).finally(() => process.exit(128 + constants.signals[signal]));
  });
}
// Any other way out (an uncaught error, process.exit before a close): no waiting is possible there, so SIGKILL.
process.on('exit', () => {
  for (const pgid of groups.keys()) signalGroup(pgid, 'SIGKILL');
});

const redisAnswers = () =>
  new Promise((resolve) => {
    const { hostname, port } = new URL(redisUrl);
    const socket = createConnection({ host: hostname, port: Number(port || 6379) });
    socket.once('connect', () => resolve(socket.end() && true));
    socket.once('error', () => resolve(false));
  });

const freePort = () =>
  new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

/** The gateway over the build, as production runs it (its own compression, CSP and page fallback). */
async function startGatewayServer() {
  const port = await freePort();
  const child = spawn('pnpm', ['--silent', '--filter', '@render/gateway', 'start'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, WEB_DIST_DIR: dist, PORT: String(port), HOST: '127.0.0.1', REDIS_URL: redisUrl, LOG_LEVEL: 'error' },
    detached: true,
  });
  groups.set(child.pid, 'gateway');
  const origin = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 120; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`the gateway exited (${child.exitCode})`);
    const up = await fetch(`${origin}/api/ping`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { origin, close: () => endGroup(child.pid) };
    await sleep(500);
  }
  await endGroup(child.pid);
  throw new Error('the gateway did not answer /api/ping within 60 s');
}

const serve = values.origin ? 'origin' : (values.serve ?? ((await redisAnswers()) ? 'gateway' : 'static'));
let origin;
let closeServer;
if (values.origin) {
  origin = new URL(values.origin).origin;
  closeServer = () => {};
} else if (serve === 'gateway') {
  ({ origin, close: closeServer } = await startGatewayServer());
} else {
  const server = staticServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${server.address().port}`;
  closeServer = () => server.close();
}
const server = { origin: 'the running stack', gateway: 'gateway', static: 'static stand-in' }[serve];
console.error(`measuring ${serve === 'origin' ? origin : dist} served by the ${server} at ${origin}`);

/** Chromium with the language the app detects (navigator.language), on a debugging port Lighthouse drives. */
async function launchChromium(lang) {
  const profile = mkdtempSync(join(tmpdir(), 'lighthouse-'));
  const locale = lang === 'fr' ? 'fr-FR' : 'en-US';
  const child = spawn(
    process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    [
      '--headless=new',
      '--no-sandbox',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      `--lang=${locale}`,
      `--accept-lang=${locale}`,
    ],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, LANG: `${locale.replace('-', '_')}.UTF-8`, LANGUAGE: lang },
      detached: true,
    },
  );
  groups.set(child.pid, 'chromium');
  const close = async () => {
    await endGroup(child.pid);
    // Chromium writes to its profile until it has exited: removed once nothing of it runs.
    rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
  };
  const port = await new Promise((resolve, reject) => {
    let seen = '';
    child.stderr.on('data', (chunk) => {
      seen += chunk;
      const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(seen);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`chromium exited (${code}): ${seen}`)));
  }).catch(async (error) => {
    await close();
    throw error;
  });
  return { port, close };
}

const score = (category) => (category?.score == null ? '–' : String(Math.round(category.score * 100)));
const metric = (audit, digits = 0) => (typeof audit?.numericValue === 'number' ? audit.numericValue.toFixed(digits) : '–');
/** A failed audit's id, with the first thing it names (the console error, the heading) so the row says what to fix. */
const failure = (audit) => {
  const item = audit.details?.items?.[0];
  const what = item?.description ?? item?.node?.snippet ?? item?.url;
  return what ? `${audit.id} (${String(what).replace(/\s+/g, ' ').slice(0, 100)})` : audit.id;
};
/** A page's row; a run Lighthouse could not finish (no paint, a page error) says why instead of stopping the table. */
const rowOf = (page, lang, lhr) => {
  const categories = lhr?.categories ?? {};
  const audits = lhr?.audits ?? {};
  return {
    page,
    lang,
    performance: score(categories.performance),
    accessibility: score(categories.accessibility),
    'best-practices': score(categories['best-practices']),
    seo: score(categories.seo),
    CLS: metric(audits['cumulative-layout-shift'], 3),
    'LCP ms': metric(audits['largest-contentful-paint']),
    'TBT ms': metric(audits['total-blocking-time']),
    // What cost a category its 100: the audits that failed, by id (Lighthouse's report names them).
    failing: Object.values(lhr?.categories ?? {})
      .filter((category) => category.id !== 'performance')
      .flatMap((category) =>
        category.auditRefs.filter((ref) => ref.weight > 0 && audits[ref.id]?.score === 0).map((ref) => failure(audits[ref.id])),
      )
      .concat(lhr?.runtimeError ? [`error: ${lhr.runtimeError.code}`] : [])
      .join(' '),
  };
};
/**
 * One Lighthouse run, tried again once when Lighthouse could not read the page load from its trace
 * (NO_NAVSTART, NO_FCP: seen now and then on a busy machine, on pages that measure fine the next time).
 */
async function measure(url, port) {
  const first = (await lighthouse(url, { port, output: 'json', logLevel: 'error' }))?.lhr;
  return first?.runtimeError ? (await lighthouse(url, { port, output: 'json', logLevel: 'error' }))?.lhr : first;
}
const rows = [];
try {
  for (const lang of values.langs.split(',')) {
    const chromium = await launchChromium(lang);
    try {
      for (const path of values.pages.split(',')) {
        rows.push(rowOf(path, lang, await measure(`${origin}${path}`, chromium.port)));
        console.error(`${lang} ${path}: ${JSON.stringify(rows.at(-1))}`);
      }
    } finally {
      await chromium.close();
    }
  }
} catch (error) {
  // Stopped by a signal: the run that failed is the one whose browser was taken away; the handler exits.
  if (stopping) await new Promise(() => {});
  throw error;
} finally {
  await closeServer();
}
const columns = Object.keys(rows[0] ?? {});
console.log(`| ${columns.join(' | ')} |\n|${columns.map(() => '---').join('|')}|`);
for (const row of rows) console.log(`| ${columns.map((c) => row[c]).join(' | ')} |`);
// The landing page's initial JavaScript (scripts/report-sizes.mjs), printed with the scores it explains.
const sizes = spawn(process.execPath, [join(import.meta.dirname, 'report-sizes.mjs'), '--dist', dist, '--summary'], { stdio: 'inherit' });
const sizesCode = await new Promise((resolve) => sizes.once('exit', resolve));
// The gateway served in-process keeps handles open (its clients' sockets) after closing: without an explicit
// exit the command would print everything and never end, holding the machine's heavy-work lock.
process.exit(sizesCode ?? 1);
