// The compiled services (scripts/build-services.mjs, what the production images run) start as plain
// `node dist/<entry>.js` processes — no tsx, no TypeScript loader — against the test Redis and Postgres,
// from production folders laid out as in the images (`--deploy`: production dependencies only, so a
// package the bundle needs but the service lists only as a dev dependency fails here): the migrate and
// seed CLIs fill a throwaway database, auth and templates serve on it, the render worker warms its pools
// (which reads its browser-side scripts, fonts and chart libraries from dist/ and node_modules) and the
// gateway renders through it.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { freePort } from './free-port.ts';
import { kustomizeBuild } from './kustomize.ts';
import { createThrowawayDatabase } from './throwaway-database.ts';

// scripts/test always sets these; fail loudly rather than skip, so a misconfigured run cannot pass by testing nothing.
const adminUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
if (!adminUrl || !redisUrl) throw new Error('TEST_DATABASE_URL and TEST_REDIS_URL are required (run the tests through ./scripts/test)');

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const run = promisify(execFile);
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Only what a container would have: no NODE_OPTIONS (so no loader a test runner may have set), no TS hooks. */
function baseEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? tmpdir(),
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    ...extra,
  };
}

interface Service {
  name: string;
  child: ChildProcess;
  output: () => string;
  /** Resolves with the first stdout line matching, e.g. the worker's port log. */
  line: (match: RegExp) => Promise<string>;
}

const started: Service[] = [];

function startService(name: string, cwd: string, entry: string, env: Record<string, string>): Service {
  const child = spawn(process.execPath, [entry], { cwd, env: baseEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  const waiters: { match: RegExp; resolve: (line: string) => void }[] = [];
  const onData = (chunk: Buffer) => {
    text += chunk.toString();
    for (const waiter of [...waiters]) {
      const hit = text.split('\n').find((l) => waiter.match.test(l));
      if (hit) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(hit);
      }
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const service: Service = {
    name,
    child,
    output: () => text,
    line: (match) =>
      new Promise((resolve, reject) => {
        waiters.push({ match, resolve });
        onData(Buffer.alloc(0));
        child.once('exit', (code) => reject(new Error(`${name} exited (${code}) before logging ${match}:\n${text}`)));
      }),
  };
  started.push(service);
  return service;
}

/** Polls until `url` answers `status`; fails with the process's output if it exits or time runs out. */
async function waitFor(service: Service, url: string, status: number, timeoutMs = 60_000): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (service.child.exitCode !== null) throw new Error(`${service.name} exited (${service.child.exitCode}):\n${service.output()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      if (res.status === status) return res;
      last = `${res.status} ${await res.text()}`;
    } catch (error) {
      last = String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${service.name}: ${url} never answered ${status} (last: ${last}):\n${service.output()}`);
}

/** Direct child processes of `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        // pid (comm) state ppid …: comm may hold spaces, so split after its closing parenthesis.
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function runCli(cwd: string, entry: string, env: Record<string, string>): Promise<string> {
  const { stdout } = await run(process.execPath, [entry], { cwd, env: baseEnv(env), timeout: 60_000 });
  return stdout;
}

let database: Awaited<ReturnType<typeof createThrowawayDatabase>> | undefined;
let databaseUrl = '';
const INTERNAL_TOKEN = randomBytes(24).toString('hex');
// Own queue keys, so the other suites' workers sharing this Redis never see these jobs (nor these workers theirs).
const QUEUE_PREFIX = `render-dist-${randomBytes(4).toString('hex')}`;
const work = mkdtempSync(path.join(tmpdir(), 'render-dist-test-'));
const webDist = path.join(work, 'web');
/** As the images hold them: gateway, auth and templates in one folder (node.Dockerfile), the worker in another. */
const nodeDeploy = path.join(work, 'node');
const workerDeploy = path.join(work, 'worker');

beforeAll(async () => {
  const build = (...args: string[]) =>
    run(process.execPath, [path.join(ROOT, 'scripts/build-services.mjs'), ...args], { cwd: ROOT, timeout: 180_000 });
  // The test builds into its own folders only, so it never races a `pnpm build` in the checkout.
  await build('--deploy', nodeDeploy, 'gateway', 'auth', 'templates', 'db');
  await build('--deploy', workerDeploy, 'render-worker');
  mkdirSync(webDist);
  database = await createThrowawayDatabase(adminUrl, 'dist_test');
  databaseUrl = database.url;
  writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>web</title><!--app-config--><div id="root"></div>');
}, 180_000);

afterAll(async () => {
  await Promise.all(
    started.map(
      ({ child }) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const kill = setTimeout(() => child.kill('SIGKILL'), 20_000);
          child.once('exit', () => {
            clearTimeout(kill);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
  await database?.drop();
  rmSync(work, { recursive: true, force: true });
}, 60_000);

describe('compiled services (node dist/…)', () => {
  it('the bundles carry no TypeScript and import no workspace package at run time', () => {
    for (const bundle of [
      'node/services/gateway/dist/server.js',
      'node/services/auth/dist/server.js',
      'node/services/templates/dist/server.js',
      'node/services/templates/dist/seed.cli.js',
      'node/services/templates/dist/migrate.cli.js',
      'worker/services/render-worker/dist/main.js',
    ]) {
      const code = readFileSync(path.join(work, bundle), 'utf8');
      expect(code, bundle).not.toMatch(/from ["']@render\//);
      expect(code, bundle).not.toMatch(/from ["'][^"']+\.ts["']/);
    }
  });

  it('the worker folder holds what its bundle reads from npm packages at run time (the tracker lists, sharp)', async () => {
    const dist = path.join(workerDeploy, 'services/render-worker/dist');
    // As tracker-filters.ts finds trackerdb.txt: from the bundle's own location, next to the package's entry point.
    const script = `const { createRequire } = require('node:module'); const path = require('node:path');
      const req = createRequire(${JSON.stringify(path.join(dist, 'main.js'))});
      const file = path.join(path.dirname(req.resolve('@ghostery/trackerdb')), '..', 'trackerdb.txt');
      const text = require('node:fs').readFileSync(file, 'utf8');
      req('sharp');
      console.log(JSON.stringify({ file, filters: text.split('trackerdb_filter').length - 1 }));`;
    const { stdout } = await run(process.execPath, ['-e', script], { cwd: dist, env: baseEnv({}) });
    const { file, filters } = JSON.parse(stdout) as { file: string; filters: number };
    expect(file.startsWith(workerDeploy), file).toBe(true);
    expect(filters).toBeGreaterThan(1_000);
  });

  it('every command the manifests run in the node image (services, init containers, migration Jobs) is a file of its layout', () => {
    const pods = ['base', 'jobs/migrate', 'jobs/rollback']
      .flatMap((dir) => kustomizeBuild(path.join(ROOT, 'infra/k8s', dir)))
      .filter((o) => o.kind === 'Deployment' || o.kind === 'Job')
      .map((d) => d.spec.template.spec);
    const commands = pods
      .flatMap((pod) => [...(pod.containers ?? []), ...(pod.initContainers ?? [])])
      .filter((c) => String(c.image).startsWith('render-api/node:'));
    expect(commands.map((c) => c.command.join(' '))).toEqual(
      expect.arrayContaining(['node dist/migrate.cli.js', 'node dist/seed.cli.js', 'node dist/migrate.cli.js --down']),
    );
    for (const c of commands) {
      expect(c.command[0]).toBe('node');
      const file = path.join(nodeDeploy, path.relative('/app', c.workingDir), c.command[1]);
      expect(existsSync(file), `${c.name}: ${c.workingDir}/${c.command[1]}`).toBe(true);
    }
  });

  it('the migrate CLIs apply every migration to a fresh database, and the seed stores the starters', async () => {
    // packages/db's own build (over its own production dependencies).
    const first = await runCli(path.join(nodeDeploy, 'packages/db'), 'dist/migrate.cli.js', { DATABASE_URL: databaseUrl });
    expect(first).toMatch(/^ok +up +2026_11_21_000001_init \(Success\)$/m);
    expect(first).not.toMatch(/FAIL/);
    // The templates image's copy (what docker-compose's migrate job runs) finds nothing left to do.
    const templatesDir = path.join(nodeDeploy, 'services/templates');
    expect(await runCli(templatesDir, 'dist/migrate.cli.js', { DATABASE_URL: databaseUrl })).toContain('database is up to date');
    const seeded = await runCli(templatesDir, 'dist/seed.cli.js', { DATABASE_URL: databaseUrl });
    expect(seeded).toMatch(/^starter templates: \d+ present, \d+ written$/m);
    expect(seeded).not.toMatch(/, 0 written/);
  }, 120_000);

  // Runs after the migrations above (tests in a file run in order): auth and templates need the schema.
  it('auth, templates, worker and gateway start, answer /health/live and become ready; the gateway renders through the worker', async () => {
    const [authPort, templatesPort, gatewayPort] = await Promise.all([freePort(), freePort(), freePort()]);
    // A page for the screenshot render (allow-listed: the worker's egress policy refuses loopback otherwise).
    const site = createHttpServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<body style="background:#0f0">ok</body>'),
    );
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => site.close(() => resolve())));
    const sitePort = (site.address() as { port: number }).port;
    const auth = startService('auth', path.join(nodeDeploy, 'services/auth'), 'dist/server.js', {
      PORT: String(authPort),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      JWT_SECRET: randomBytes(32).toString('hex'),
      API_KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      INTERNAL_TOKEN,
      MAIL_DIR: path.join(work, 'mail'),
    });
    const templates = startService('templates', path.join(nodeDeploy, 'services/templates'), 'dist/server.js', {
      PORT: String(templatesPort),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      INTERNAL_TOKEN,
    });
    // WORKER_HTTP_PORT=0: the worker picks a free port and logs it.
    const worker = startService('render-worker', path.join(workerDeploy, 'services/render-worker'), 'dist/main.js', {
      WORKER_HTTP_PORT: '0',
      REDIS_URL: redisUrl,
      QUEUE_PREFIX,
      RENDER_QUEUES: 'html,svg,chart,code,screenshot',
      RENDER_PAGES: '1',
      RENDER_EGRESS_ALLOWLIST: `127.0.0.1:${sitePort}`,
      CHROMIUM_PATH: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell',
    });
    const gateway = startService('gateway', path.join(nodeDeploy, 'services/gateway'), 'dist/server.js', {
      PORT: String(gatewayPort),
      HOST: '127.0.0.1',
      REDIS_URL: redisUrl,
      QUEUE_PREFIX,
      AUTH_SERVICE_URL: `http://127.0.0.1:${authPort}`,
      TEMPLATES_SERVICE_URL: `http://127.0.0.1:${templatesPort}`,
      INTERNAL_TOKEN,
      WEB_DIST_DIR: webDist,
      APP_ENV: 'test',
    });

    const workerLine = await worker.line(/health and metrics listening/);
    const workerPort = (JSON.parse(workerLine) as { port: number }).port;
    expect(workerPort).toBeGreaterThan(0);

    const urls: [Service, string][] = [
      [auth, `http://127.0.0.1:${authPort}`],
      [templates, `http://127.0.0.1:${templatesPort}`],
      [gateway, `http://127.0.0.1:${gatewayPort}`],
      [worker, `http://127.0.0.1:${workerPort}`],
    ];
    for (const [service, base] of urls) {
      const live = await waitFor(service, `${base}/health/live`, 200);
      expect(await live.json(), service.name).toEqual({ status: 'ok' });
    }
    // Ready: Postgres (auth, templates), Redis (gateway), Redis + Chromium + warm chart and code pages (worker:
    // those pages are prepared from dist/*.browser.js, dist/fonts.conf and the chart libraries).
    for (const [service, base] of urls) await waitFor(service, `${base}/health/ready`, 200, 90_000);

    // Chromium starts with the fontconfig file copied next to the bundle (the deploy folder has no checkout
    // around it, so nothing else could be found; a missing file would silently mean the system's fonts).
    if (existsSync('/proc')) {
      const chromiumEnv = childrenOf(worker.child.pid!).map((pid) => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0'));
      expect(chromiumEnv.length).toBeGreaterThan(0);
      expect(chromiumEnv[0]).toContain(`FONTCONFIG_FILE=${path.join(workerDeploy, 'services/render-worker/dist/fonts.conf')}`);
    }

    const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    const post = (url: string, body: unknown) =>
      fetch(`${gatewayUrl}${url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    for (const [url, body] of [
      ['/api/html-to-img/convert', { html: '<div style="width:50px;height:50px;background:red"></div>', width: 100, height: 100 }],
      [
        '/api/chart-to-img/convert',
        { library: 'chartjs', chartType: 'bar', chartData: { labels: ['a', 'b'], datasets: [{ label: 'x', data: [1, 2] }] } },
      ],
      ['/api/code-to-img/convert', { code: 'const a = 1;', language: 'javascript' }],
      // hideCookieBanners: the consent rules, read from node_modules at run time.
      ['/api/screenshot/convert', { url: `http://127.0.0.1:${sitePort}/`, width: 200, height: 150, hideCookieBanners: true }],
    ] as const) {
      const res = await post(url, body);
      expect(res.status, `${url}: ${res.status === 200 ? '' : await res.clone().text()}`).toBe(200);
      expect(
        Buffer.from(await res.arrayBuffer())
          .subarray(0, 8)
          .equals(PNG_SIGNATURE),
        url,
      ).toBe(true);
    }
    // The starters the seed stored, through gateway → templates.
    const list = await fetch(`${gatewayUrl}/api/template/public`);
    expect(list.status, await list.clone().text()).toBe(200);
    expect(JSON.stringify(await list.json())).toContain('"isPublic":true');
    // The web app from WEB_DIST_DIR, with the page fallback.
    const page = await fetch(`${gatewayUrl}/dashboard`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    // An account call through gateway → auth.
    const signup = await post('/api/auth/login', { email: 'nobody@example.com', password: 'Wrong-Passw0rd' });
    expect(signup.status).toBe(401);
  }, 240_000);
});
