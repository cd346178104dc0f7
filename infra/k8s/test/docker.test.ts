// The production images and docker-compose.yml.
//
// Static (always): every Node service in compose runs compiled JavaScript (`node dist/…`) that
// scripts/build-services.mjs actually produces; Redis is in production shape (noeviction + AOF); the
// Dockerfiles are multi-stage and their runtime stage runs as a non-root user with `node dist/…`, without
// tsx, pnpm or the sources.
//
// Live (only when a Docker engine is reachable; otherwise skipped, and the skip names the reason):
// `docker compose build`, `up`, then /health/live and /health/ready of the gateway (published port) and of
// the worker (inside its container), then `down -v`. RENDER_DOCKER_TEST=0 skips it even with an engine.
import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { TARGETS } from '../../../scripts/build-services.mjs';
import { configVariables } from './config-variables.ts';
import { freePort } from './free-port.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const run = promisify(execFile);

interface ComposeService {
  build?: { context: string; dockerfile: string; args?: Record<string, string> };
  healthcheck?: { test: string[]; interval?: string; start_period?: string };
  depends_on?: Record<string, { condition: string }>;
  env_file?: { path: string; required?: boolean }[];
  image?: string;
  command?: string[];
  working_dir?: string;
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
}
const compose = parse(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
};
const nodeServices = Object.entries(compose.services).filter(([, service]) => service.build);

/** The commands a compose `command` runs: itself, or each `&&` part of an `sh -c` script. */
function commandsOf(command: string[]): string[][] {
  if (command[0] === 'sh' && command[1] === '-c') {
    return command[2]!.split('&&').map((part) =>
      part
        .trim()
        .replace(/^exec\s+/, '')
        .split(/\s+/),
    );
  }
  return [command];
}

/** The instructions of a Dockerfile's last stage (the image that runs), continuation lines joined. */
function finalStage(dockerfile: string): string[] {
  const lines = readFileSync(path.join(ROOT, dockerfile), 'utf8')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const from = lines.findLastIndex((line) => /^FROM\s/i.test(line));
  return lines.slice(from);
}

describe('docker-compose.yml', () => {
  it('builds every Node service from the infra/docker Dockerfiles', () => {
    expect(nodeServices.map(([name]) => name).sort()).toEqual([
      'auth',
      'gateway',
      'migrate',
      'render-worker',
      'screenshot-worker',
      'templates',
    ]);
    for (const [name, service] of nodeServices) {
      expect(service.build!.dockerfile, name).toMatch(/^infra\/docker\/.+\.Dockerfile$/);
    }
  });

  it('runs compiled JavaScript only: node dist/<entry>.js, an entry scripts/build-services.mjs builds for that folder', () => {
    for (const [name, service] of nodeServices) {
      expect(service.command, `${name} has no command`).toBeDefined();
      expect(JSON.stringify(service.command), name).not.toMatch(/tsx|\.ts\b|pnpm/);
      const dockerfile = readFileSync(path.join(ROOT, service.build!.dockerfile), 'utf8');
      const workingDir = service.working_dir ?? /^WORKDIR\s+(\S+)\s*$/gm.exec(finalStage(service.build!.dockerfile).join('\n'))?.[1];
      expect(workingDir, name).toMatch(/^\/app\//);
      const target = Object.values(TARGETS).find((t) => `/app/${t.dir}` === workingDir);
      expect(target, `${name}: no build target for ${workingDir}`).toBeDefined();
      for (const [node, entry, ...rest] of commandsOf(service.command!)) {
        expect(node, name).toBe('node');
        expect(rest, name).toEqual([]);
        const built = entry!.match(/^dist\/(.+)\.js$/)?.[1];
        expect(built, `${name}: ${entry} is not dist/<entry>.js`).toBeDefined();
        expect(Object.keys(target!.entries), `${name}: ${target!.dir} builds no ${entry}`).toContain(built);
      }
      expect(dockerfile, name).toContain('scripts/build-services.mjs');
    }
  });

  it('checks every long-running service with node fetch on its own /health/ready (the slim image has no curl)', () => {
    const running = nodeServices.filter(([name]) => name !== 'migrate');
    for (const [name, service] of running) {
      const port = service.environment?.PORT ?? service.environment?.WORKER_HTTP_PORT ?? '3003';
      const test = service.healthcheck?.test ?? [];
      expect(test.slice(0, 3), name).toEqual(['CMD', 'node', '-e']);
      expect(test[3], name).toContain(`fetch('http://127.0.0.1:${port}/health/ready')`);
      expect(test[3], name).toMatch(/process\.exit\(r\.ok \? 0 : 1\)/);
      expect(service.healthcheck?.interval, name).toBeTruthy();
    }
    // The worker's probe port is the one its config listens on by default (compose sets none).
    expect(readFileSync(path.join(ROOT, 'services/render-worker/src/config.ts'), 'utf8')).toMatch(
      /WORKER_HTTP_PORT: Type\.Integer\(\{[^}]*default: 3003/,
    );
  });

  it('starts the gateway after auth and templates answer ready', () => {
    const dependsOn = compose.services.gateway!.depends_on ?? {};
    for (const dependency of ['auth', 'templates', 'redis']) expect(dependsOn[dependency]?.condition, dependency).toBe('service_healthy');
    for (const dependency of ['auth', 'templates'])
      expect(compose.services[dependency]!.depends_on?.migrate?.condition).toBe('service_completed_successfully');
  });

  it('sends mail to Mailpit, whose web UI shows the verification mail', () => {
    const mailpit = compose.services.mailpit!;
    expect(mailpit.image).toMatch(/^axllent\/mailpit:v\d+/);
    // Compose's own ${VAR:-default} interpolation, as written in the file.
    const interpolation = (name: string, fallback: string) => `\${${name}:-${fallback}}`;
    expect(mailpit.ports).toEqual([`${interpolation('MAILPIT_UI_PORT', '8025')}:8025`]);
    expect(compose.services.auth!.environment?.SMTP_URL).toBe(interpolation('SMTP_URL', 'smtp://mailpit:1025'));
    expect(compose.services.auth!.environment?.MAIL_DIR).toBeUndefined();
    expect(compose.services.auth!.depends_on?.mailpit).toBeDefined();
  });

  it('.env.example lists every variable the configuration reads and compose interpolates, each with a comment', () => {
    const lines = readFileSync(path.join(ROOT, '.env.example'), 'utf8').split('\n');
    const listed = new Map<string, number>();
    lines.forEach((line, i) => {
      const m = /^(?:# )?([A-Z][A-Z0-9_]+)=/.exec(line);
      if (m) listed.set(m[1]!, i);
    });
    const fromConfig = configVariables([path.join(ROOT, 'services'), path.join(ROOT, 'packages')]);
    expect(fromConfig.size).toBeGreaterThan(80);
    for (const name of ['INTERNAL_TOKEN', 'REDIS_TLS', 'METRICS_PORT', 'WEB_SOURCEMAPS', 'DATABASE_URL', 'RENDER_QUEUES'])
      expect(fromConfig.has(name), name).toBe(true);
    const composeText = readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');
    const interpolated = new Set([...composeText.matchAll(/\$\{([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]!));
    const missing = [...new Set([...fromConfig.keys(), ...interpolated])].filter((name) => !listed.has(name));
    expect(missing).toEqual([]);
    const unknown = [...listed.keys()].filter((name) => !fromConfig.has(name) && !interpolated.has(name));
    expect(unknown).toEqual([]);
    for (const [name, i] of listed) {
      const above = lines[i - 1] ?? '';
      expect(/^# /.test(above) && !/^# [A-Z][A-Z0-9_]+=/.test(above), `${name}: no comment above it`).toBe(true);
    }
    // The secrets are left for you to fill (compose refuses to start without them).
    for (const name of ['INTERNAL_TOKEN', 'JWT_SECRET', 'API_KEY_ENCRYPTION_KEY']) expect(lines[listed.get(name)!]).toBe(`${name}=`);
    // Every service sees .env (what the file lists applies); the build context never does.
    for (const [name, service] of nodeServices) expect(service.env_file, name).toEqual([{ path: '.env', required: false }]);
    const ignored = readFileSync(path.join(ROOT, '.dockerignore'), 'utf8').split('\n');
    expect(ignored).toContain('.env');
    expect(ignored).toContain('.env.*');
  });

  it('runs Redis in production shape: noeviction (BullMQ) and AOF on a volume', () => {
    const redis = compose.services.redis!;
    const args = redis.command!.join(' ');
    expect(args).toMatch(/--maxmemory-policy noeviction\b/);
    expect(args).toMatch(/--appendonly yes\b/);
    expect(redis.volumes?.some((v) => v.endsWith(':/data'))).toBe(true);
    expect(Object.keys(compose.volumes ?? {})).toContain(redis.volumes!.find((v) => v.endsWith(':/data'))!.split(':')[0]);
  });
});

describe('infra/docker Dockerfiles', () => {
  const dockerfiles = [...new Set(nodeServices.map(([, service]) => service.build!.dockerfile))];

  it.each(dockerfiles)('%s: multi-stage; the runtime stage runs node dist/… as a non-root user, without tsx, pnpm or sources', (file) => {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    expect(text.match(/^FROM\s/gm)?.length ?? 0).toBeGreaterThanOrEqual(2);
    const stage = finalStage(file);
    const users = stage.filter((line) => /^USER\s/i.test(line));
    expect(users.length, `${file}: no USER in the runtime stage`).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^USER\s+(root|0)(:|\s|$)/i);
    expect(stage.at(-1)).toMatch(/^CMD \["node", "dist\/[^"]+\.js"\]$/);
    const body = stage.join('\n');
    expect(body).not.toMatch(/\btsx\b|\bpnpm\b/);
    // Only the build's production folder reaches the image, never the workspace (/src) or its node_modules.
    for (const copy of stage.filter((line) => /^COPY\s/i.test(line)))
      expect(copy).toMatch(/^COPY --from=build (--chown=\S+ )?\/out \/app$/);
    expect(body).toMatch(/^ENV .*NODE_ENV=production/m);
  });

  it('the gateway image holds the built web app and points WEB_DIST_DIR at it', () => {
    const text = readFileSync(path.join(ROOT, 'infra/docker/node.Dockerfile'), 'utf8');
    expect(text).toMatch(/pnpm --filter @render\/web build/);
    expect(text).toMatch(/cp -r apps\/web\/dist \/out\/apps\/web\/dist/);
    expect(finalStage('infra/docker/node.Dockerfile').join('\n')).toMatch(/WEB_DIST_DIR=\/app\/apps\/web\/dist/);
  });

  it('the web app ships source maps only when asked for (WEB_SOURCEMAPS=public at build and in the gateway)', () => {
    const text = readFileSync(path.join(ROOT, 'infra/docker/node.Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
    expect(text).toMatch(/^ARG WEB_SOURCEMAPS=hidden$/m);
    expect(text).toMatch(/WEB_SOURCEMAPS=\$WEB_SOURCEMAPS pnpm --filter @render\/web build/);
    expect(text).toMatch(/if \[ "\$WEB_SOURCEMAPS" != public \]; then find \/out\/apps\/web\/dist -name '\*\.map\*' -delete; fi/);
    expect(finalStage('infra/docker/node.Dockerfile').join('\n')).toMatch(/WEB_SOURCEMAPS=\$\{WEB_SOURCEMAPS\}/);
    const vite = readFileSync(path.join(ROOT, 'apps/web/vite.config.ts'), 'utf8');
    expect(vite).toContain("sourcemap: process.env.WEB_SOURCEMAPS === 'public' ? true : 'hidden'");
    expect(compose.services.gateway!.build?.args?.WEB_SOURCEMAPS).toBe(`\${WEB_SOURCEMAPS:-hidden}`);
  });

  it('the worker image keeps Debian Chromium and the render fonts', () => {
    const stage = finalStage('infra/docker/render-worker.Dockerfile').join('\n');
    // Only the headless shell the worker starts: the full chromium package is its GTK/X11 browser, unused.
    const packages = /apt-get install[^&]*/.exec(stage)?.[0].split(/\s+/) ?? [];
    expect(packages).toContain('chromium-headless-shell');
    expect(packages).not.toContain('chromium');
    for (const pkg of [
      'chromium-headless-shell',
      'fonts-liberation2',
      'fonts-noto-core',
      'fonts-noto-cjk',
      'fonts-noto-color-emoji',
      'fonts-dejavu-core',
    ]) {
      expect(stage).toContain(pkg);
    }
    expect(stage).toMatch(/CHROMIUM_PATH=\/usr\/bin\/chromium-headless-shell/);
  });
});

// --- live: only with a Docker engine ---------------------------------------------------------------------

function dockerEngine(): { ok: true } | { ok: false; reason: string } {
  if (process.env.RENDER_DOCKER_TEST === '0') return { ok: false, reason: 'RENDER_DOCKER_TEST=0' };
  const info = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], { encoding: 'utf8', timeout: 15_000 });
  if (info.error) return { ok: false, reason: `no docker CLI (${(info.error as NodeJS.ErrnoException).code ?? info.error.message})` };
  if (info.status !== 0)
    return { ok: false, reason: `no Docker engine reachable (docker info: ${(info.stderr || info.stdout).trim().split('\n')[0]})` };
  const composeVersion = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8', timeout: 15_000 });
  if (composeVersion.status !== 0) return { ok: false, reason: 'docker compose (v2 plugin) not available' };
  return { ok: true };
}

const engine = dockerEngine();
if (!engine.ok) console.warn(`[docker.test] skipping docker compose build/up/health: ${engine.reason}`);

describe('docker compose (live)', () => {
  const project = `render-api-test-${randomBytes(4).toString('hex')}`;
  let env: NodeJS.ProcessEnv = process.env;
  const dc = (...args: string[]) =>
    run('docker', ['compose', '-p', project, '-f', path.join(ROOT, 'docker-compose.yml'), ...args], {
      cwd: ROOT,
      env,
      timeout: 40 * 60_000,
      maxBuffer: 64 * 1024 * 1024,
    });

  afterAll(async () => {
    if (engine.ok) await dc('down', '-v', '--remove-orphans').catch(() => {});
  }, 120_000);

  it.skipIf(!engine.ok)(
    `docker compose build, up, and every service healthy${engine.ok ? '' : ` (skipped: ${engine.reason})`}`,
    async () => {
      const port = await freePort();
      env = {
        ...process.env,
        GATEWAY_PORT: String(port),
        MAILPIT_UI_PORT: String(await freePort()),
        INTERNAL_TOKEN: randomBytes(24).toString('hex'),
        JWT_SECRET: randomBytes(32).toString('hex'),
        API_KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      };
      await dc('build');
      await dc('up', '-d');
      const deadline = Date.now() + 5 * 60_000;
      const ready = async (url: string) => {
        while (Date.now() < deadline) {
          const res = await fetch(url, { signal: AbortSignal.timeout(5_000) }).catch(() => undefined);
          if (res?.status === 200) return;
          await new Promise((resolve) => setTimeout(resolve, 2_000));
        }
        const { stdout } = await dc('logs', '--no-color', '--tail', '50');
        throw new Error(`${url} never answered 200:\n${stdout}`);
      };
      await ready(`http://127.0.0.1:${port}/health/live`);
      await ready(`http://127.0.0.1:${port}/health/ready`);
      // The services without a published port, from inside their containers (no curl there: node's fetch).
      const probe = (service: string, port: number) =>
        dc(
          'exec',
          '-T',
          service,
          'node',
          '-e',
          `const t=Date.now();(async()=>{for(;;){const r=await fetch('http://127.0.0.1:${port}/health/ready').catch(()=>null);if(r&&r.status===200)process.exit(0);if(Date.now()-t>180000)process.exit(1);await new Promise(s=>setTimeout(s,1000))}})()`,
        );
      await probe('auth', 3001);
      await probe('templates', 3002);
      await probe('render-worker', 3003);
      await probe('screenshot-worker', 3003);
      const html = await fetch(`http://127.0.0.1:${port}/api/html-to-img/convert`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ html: '<p>hello</p>', width: 100, height: 100 }),
      });
      expect(html.status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
    },
    45 * 60_000,
  );
});
