// pnpm --filter @render/web lighthouse [--dist <dir>] [--pages /,/docs] [--langs en,fr]
// Lighthouse (pinned, mobile preset with its default throttling) over Debian's Chromium (CHROMIUM_PATH overrides)
// against the production build served as production serves it: the build's precompressed .br/.gz copies to clients
// that accept them, hashed assets cached for a year, index.html for every other page path (as the gateway's
// web-app plugin does). /api calls go to GATEWAY_URL when set, else answer 503 (pages then show their error state).
// Prints the four scores and CLS, LCP and TBT per page and language.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { parseArgs } from 'node:util';
import lighthouse from 'lighthouse';

const { values } = parseArgs({
  options: {
    dist: { type: 'string', default: join(import.meta.dirname, '..', 'dist') },
    pages: { type: 'string', default: '/,/docs,/html-to-image,/blog,/blog/how-fast-is-a-render,/pricing' },
    langs: { type: 'string', default: 'en,fr' },
  },
});
const dist = values.dist;
if (!existsSync(join(dist, 'index.html'))) throw new Error(`build the app first (pnpm --filter @render/web build): ${dist} is missing`);

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

const server = createServer((req, res) => {
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
  if (!file.startsWith(dist) || !existsSync(file) || statSync(file).isDirectory()) file = join(dist, 'index.html');
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
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;

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
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LANG: `${locale.replace('-', '_')}.UTF-8`, LANGUAGE: lang } },
  );
  const port = await new Promise((resolve, reject) => {
    let seen = '';
    child.stderr.on('data', (chunk) => {
      seen += chunk;
      const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(seen);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`chromium exited (${code}): ${seen}`)));
  });
  return {
    port,
    close: () => {
      child.kill();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

const score = (category) => (category?.score == null ? '–' : String(Math.round(category.score * 100)));
const rows = [];
try {
  for (const lang of values.langs.split(',')) {
    const chromium = await launchChromium(lang);
    try {
      for (const path of values.pages.split(',')) {
        const result = await lighthouse(`${origin}${path}`, { port: chromium.port, output: 'json', logLevel: 'error' });
        const { categories, audits } = result.lhr;
        rows.push({
          page: path,
          lang,
          performance: score(categories.performance),
          accessibility: score(categories.accessibility),
          'best-practices': score(categories['best-practices']),
          seo: score(categories.seo),
          CLS: audits['cumulative-layout-shift'].numericValue.toFixed(3),
          'LCP ms': Math.round(audits['largest-contentful-paint'].numericValue),
          'TBT ms': Math.round(audits['total-blocking-time'].numericValue),
        });
        console.error(`${lang} ${path} done`);
      }
    } finally {
      chromium.close();
    }
  }
} finally {
  server.close();
}
const columns = Object.keys(rows[0] ?? {});
console.log(`| ${columns.join(' | ')} |\n|${columns.map(() => '---').join('|')}|`);
for (const row of rows) console.log(`| ${columns.map((c) => row[c]).join(' | ')} |`);
