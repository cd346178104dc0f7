// ./scripts/dev as a newcomer runs it: the script itself, with its own process layout (pnpm → tsx → node per
// service, Vite for the web app, its prefixers) and its own environment (the generated secrets, the worker's
// AUTH_SERVICE_URL), started in the background of a non-interactive shell, where SIGINT is ignored, as
// `./scripts/dev &` in a script leaves it. The test gives it only what a newcomer could: free ports
// (DEV_*_PORT), the test Redis and a fresh database (REDIS_URL, DATABASE_URL), its own queue prefix, an
// administrator to sign in as, and the allow-list entry for a webhook receiver on 127.0.0.1. Then: a signed
// webhook arrives and is listed; the services other than the gateway listen on loopback only; SIGINT stops
// every process the script started and frees every port; SIGTERM does too.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './free-port.ts';
import { createThrowawayDatabase } from './throwaway-database.ts';

const adminUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
if (!adminUrl || !redisUrl) throw new Error('TEST_DATABASE_URL and TEST_REDIS_URL are required (run the tests through ./scripts/test)');

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const ADMIN_EMAIL = `dev-script-${randomBytes(4).toString('hex')}@example.com`;
const ADMIN_PASSWORD = `Dev-${randomBytes(8).toString('hex')}-9a`;

interface Received {
  path: string;
  signature: string;
  body: string;
}

/** A started `scripts/dev`: its pid, its log (both streams, through its own prefixers) and how it ended. */
interface DevRun {
  pid: number;
  shell: ChildProcess;
  log: string;
  ended: Promise<number | null>;
}

const work = mkdtempSync(path.join(tmpdir(), 'dev-script-test-'));

/**
 * `bash -c 'scripts/dev … &'`: a non-interactive shell starts its background jobs with SIGINT ignored. The
 * shell waits for it and exits with its status.
 */
async function startDev(env: Record<string, string>, label: string): Promise<DevRun> {
  const log = path.join(work, `${label}.log`);
  const pidFile = path.join(work, `${label}.pid`);
  // Only what a shell on a developer's machine has: no test runner's NODE_ENV, NODE_OPTIONS or VITEST_*.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(NODE_ENV|NODE_OPTIONS|VITEST.*|TEST_.*)$/.test(key)),
  ) as Record<string, string>;
  const shell = spawn('bash', ['-c', 'scripts/dev >"$1" 2>&1 & echo $! >"$2"; wait $!', 'bash', log, pidFile], {
    cwd: ROOT,
    env: { ...inherited, ...env },
    stdio: 'ignore',
  });
  const ended = new Promise<number | null>((resolve) => shell.once('exit', (code) => resolve(code)));
  const pid = await waitFor('the pid file', () => {
    try {
      return Number(readFileSync(pidFile, 'utf8').trim()) || undefined;
    } catch {
      return undefined;
    }
  });
  return { pid, shell, log, ended };
}

const logOf = (run: DevRun) => {
  try {
    return readFileSync(run.log, 'utf8');
  } catch {
    return '';
  }
};

async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000, run?: DevRun): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until)
      throw new Error(`timed out waiting for ${what}${run ? `\n--- scripts/dev log ---\n${logOf(run).slice(-6000)}` : ''}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Every process below `root` (by parent pid, from /proc): the services, pnpm, tsx, Chromium, Vite, the prefixers. */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read from the last ")".
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // Gone while listing.
    }
  }
  const out: number[] = [];
  const queue = [root];
  while (queue.length) {
    for (const child of children.get(queue.shift() as number) ?? []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

/** Running (a zombie has ended: only its parent, or an init that may never reap it, still holds its entry). */
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
};

const commOf = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
};

/** The program a process runs (its argv[0]'s base name): Node 24 renames its main thread, so `comm` says MainThread. */
const programOf = (pid: number) => {
  try {
    const argv0 = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? '';
    return argv0.slice(argv0.lastIndexOf('/') + 1);
  } catch {
    return '';
  }
};

const accepts = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** The receiver's recipe (the docs'): HMAC-SHA256 of "<t>.<raw body>" with the account's secret, compared in constant time. */
function verifies(header: string, body: string, secret: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((kv) => kv.split('=') as [string, string]));
  if (!parts.v1 || !parts.t) return false;
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Stops what a failed test left running: the script by its pid, then anything of it still there. */
async function stopLeftovers(run: DevRun | undefined, pids: number[]) {
  if (!run) return;
  if (alive(run.pid)) process.kill(run.pid, 'SIGTERM');
  await Promise.race([run.ended, new Promise((r) => setTimeout(r, 40_000))]);
  for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
}

let receiver: Server;
let receiverPort: number;
const received: Received[] = [];
let database: Awaited<ReturnType<typeof createThrowawayDatabase>>;
let stack: DevRun | undefined;
let stackPids: number[] = [];
const ports = { gateway: 0, auth: 0, templates: 0, worker: 0, web: 0 };

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        path: req.url ?? '/',
        signature: String(req.headers['x-render-signature'] ?? ''),
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverPort = (receiver.address() as { port: number }).port;
  database = await createThrowawayDatabase(adminUrl, 'dev_script');
  for (const name of Object.keys(ports) as (keyof typeof ports)[]) ports[name] = await freePort();
}, 60_000);

afterAll(async () => {
  await stopLeftovers(stack, stackPids);
  await new Promise((resolve) => receiver?.close(resolve));
  await database?.drop();
  rmSync(work, { recursive: true, force: true });
}, 90_000);

const devEnv = () => ({
  DEV_GATEWAY_PORT: String(ports.gateway),
  DEV_AUTH_PORT: String(ports.auth),
  DEV_TEMPLATES_PORT: String(ports.templates),
  DEV_WORKER_PORT: String(ports.worker),
  DEV_WEB_PORT: String(ports.web),
  REDIS_URL: redisUrl,
  DATABASE_URL: database.url,
  // Its own queue keys, so the other suites' workers on this Redis never take these jobs.
  QUEUE_PREFIX: `dev-script-${randomBytes(4).toString('hex')}`,
  RENDER_EGRESS_ALLOWLIST: `127.0.0.1:${receiverPort}`,
  RENDER_PAGES: '1',
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
});

describe('./scripts/dev', () => {
  it('delivers a signed webhook on the default stack, lists it, keeps the inner services on loopback, and stops on SIGINT', async () => {
    stack = await startDev(devEnv(), 'stack');
    const gateway = `http://127.0.0.1:${ports.gateway}`;
    const ready = async (url: string) => (await fetch(url).catch(() => undefined))?.status === 200 || undefined;
    await waitFor('the gateway', () => ready(`${gateway}/health/ready`), 240_000, stack);
    await waitFor('the worker', () => ready(`http://127.0.0.1:${ports.worker}/health/ready`), 240_000, stack);
    await waitFor('the account service', () => ready(`http://127.0.0.1:${ports.auth}/health/ready`), 240_000, stack);
    await waitFor('the template service', () => ready(`http://127.0.0.1:${ports.templates}/health/ready`), 240_000, stack);
    await waitFor('the web app', () => ready(`http://127.0.0.1:${ports.web}/`), 240_000, stack);

    const login = await fetch(`${gateway}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
    });
    expect(login.status, logOf(stack).slice(-3000)).toBe(200);
    const auth = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
    const secret = ((await (await fetch(`${gateway}/api/auth/webhook-secret`, { headers: auth })).json()) as { secret: string }).secret;

    const accepted = await fetch(`${gateway}/api/html-to-img/convert`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ html: '<h1>dev</h1>', width: 200, height: 100, webhook: `http://127.0.0.1:${receiverPort}/hook` }),
    });
    expect(accepted.status, await accepted.clone().text()).toBe(202);
    const { id } = ((await accepted.json()) as { data: { id: string } }).data;
    const hook = await waitFor('the webhook', () => received.find((r) => r.path === '/hook'), 60_000, stack);
    expect(verifies(hook.signature, hook.body, secret)).toBe(true);
    expect(JSON.parse(hook.body)).toMatchObject({ id, status: 'done', format: 'png' });
    const deliveries = (await (await fetch(`${gateway}/api/webhooks/deliveries`, { headers: auth })).json()) as {
      deliveries: { renderId: string; ok: boolean; statusCode: number }[];
    };
    expect(deliveries.deliveries).toEqual([expect.objectContaining({ renderId: id, ok: true, statusCode: 200 })]);

    // The account, template and worker services answer on loopback only; the gateway on every interface.
    const outside = Object.values(networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
    expect(outside, 'this test needs a non-loopback IPv4 interface').toBeDefined();
    for (const port of [ports.auth, ports.templates, ports.worker]) {
      expect(await accepts('127.0.0.1', port), `127.0.0.1:${port}`).toBe(true);
      expect(await accepts(outside as string, port), `${outside}:${port}`).toBe(false);
    }
    expect(await accepts(outside as string, ports.gateway)).toBe(true);

    // SIGINT, which the background job started with ignored.
    stackPids = descendants(stack.pid);
    expect(stackPids.map(programOf)).toEqual(expect.arrayContaining(['node', 'awk']));
    process.kill(stack.pid, 'SIGINT');
    expect(await stack.ended).toBe(130);
    await waitFor('every process to end', () => (stackPids.every((pid) => !alive(pid)) ? true : undefined), 15_000);
    for (const port of Object.values(ports)) expect(await accepts('127.0.0.1', port), `port ${port}`).toBe(false);
    expect(logOf(stack)).toContain('stopping...');
  }, 420_000);

  it('stops on SIGTERM too', async () => {
    // One process instead of the stack: what matters is the script's own handling.
    const run = await startDev({ ...devEnv(), DEV_PROCESSES: 'sleeper|sleep 600' }, 'term');
    let sleeper: number | undefined;
    try {
      sleeper = await waitFor('the process', () => descendants(run.pid).find((pid) => commOf(pid) === 'sleep'), 120_000, run);
      process.kill(run.pid, 'SIGTERM');
      expect(await run.ended).toBe(143);
      await waitFor('the process to end', () => (alive(sleeper as number) ? undefined : true), 15_000);
    } finally {
      await stopLeftovers(run, sleeper ? [sleeper] : []);
    }
  }, 180_000);
});
