import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { seedStarterTemplates } from '@render/templates/starters/seed';
import type { TestProject } from 'vitest/node';
import { type FullStack, startFullStack } from './helpers/stack.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The gateway serving the built app and the API. */
    baseUrl: string;
    /** GET ?to=<email> answers the text of the last mail the real SMTP server received for that address. */
    mailUrl: string;
    /** A page on 127.0.0.1 the worker may capture (tests never leave the machine). */
    siteUrl: string;
    /** Test controls over the stack: GET /db/counts answers the database's own user and generation counts (total, 24 h, 7 days, 30 days). */
    controlUrl: string;
  }
}

// WEB_E2E_DIST: another build to test (e.g. `vite build --outDir dist-mine`), so parallel work does not share one dist.
const dist = process.env.WEB_E2E_DIST || join(import.meta.dirname, '..', 'dist');
let stack: FullStack | undefined;
let mailServer: Server | undefined;
let site: Server | undefined;
let control: Server | undefined;
let appOrigin: Server | undefined;

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

export async function setup(project: TestProject) {
  if (!existsSync(join(dist, 'index.html'))) throw new Error(`build the app first (pnpm --filter @render/web build): ${dist} is missing`);
  site = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end('<h1 style="font:48px sans-serif;color:#4f46e5">Hello from 127.0.0.1</h1>'),
  );
  const sitePort = await listen(site);
  // The account service's APP_URL (Stripe's way back, e-mailed links) must exist before the gateway's port is
  // known: an address that sends each request on to the gateway serving the app.
  appOrigin = createServer((req, res) => res.writeHead(302, { location: `${stack?.gateway.url}${req.url ?? '/'}` }).end());
  const appOriginPort = await listen(appOrigin);
  stack = await startFullStack('web-e2e', {
    // Billing in test mode, as ./scripts/dev runs it: the account service's own Stripe stand-in, whose Checkout
    // and portal pages the browser opens and whose buttons send the signed webhooks.
    auth: { STRIPE_STAND_IN: 'true', APP_URL: `http://127.0.0.1:${appOriginPort}` },
    // The screenshot playground captures the local page above, and webhooks go to it (it answers any request
    // 200): the egress policy lets only that port through.
    worker: { RENDER_PAGES: '2', RENDER_TIMEOUT_MS: '20000', RENDER_EGRESS_ALLOWLIST: `127.0.0.1:${sitePort}` },
    gateway: { WEB_DIST_DIR: dist, APP_ENV: 'test', RENDER_EGRESS_ALLOWLIST: `127.0.0.1:${sitePort}` },
  });
  // A fresh database gets the public starter templates, as scripts/lib/setup.sh seeds them.
  await seedStarterTemplates(stack.auth.db);
  const inbox = stack.auth.inbox;
  mailServer = createServer((req, res) => {
    const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to') ?? '';
    const mail = inbox.filter((m) => m.to.includes(to)).at(-1);
    res.writeHead(mail ? 200 : 404, { 'content-type': 'text/plain' }).end(mail?.text ?? '');
  });
  control = createServer((req, res) => {
    void handleControl(req.method ?? 'GET', new URL(req.url ?? '/', 'http://x'))
      .then(([status, body]) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)))
      .catch((error: Error) => res.writeHead(500).end(JSON.stringify({ error: error.message })));
  });
  project.provide('controlUrl', `http://127.0.0.1:${await listen(control)}`);
  project.provide('baseUrl', stack.gateway.url);
  project.provide('mailUrl', `http://127.0.0.1:${await listen(mailServer)}`);
  project.provide('siteUrl', `http://127.0.0.1:${sitePort}/`);
}

async function handleControl(method: string, url: URL): Promise<[number, unknown]> {
  if (!stack) return [503, { error: 'not started' }];
  if (method === 'GET' && url.pathname === '/db/counts') {
    const db = stack.auth.db;
    const since = (days: number) => new Date(Date.now() - days * 24 * 60 * 60 * 1000);
    const windows = async (table: 'users' | 'credit_ledger') => {
      const count = async (days?: number) => {
        let query = db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n'));
        if (table === 'credit_ledger') query = query.where('status', '=', 'charged' as never);
        if (days) query = query.where('created_at', '>=', since(days));
        return Number((await query.executeTakeFirstOrThrow()).n);
      };
      return { total: await count(), last24h: await count(1), last7d: await count(7), last30d: await count(30) };
    };
    return [200, { users: await windows('users'), generations: await windows('credit_ledger') }];
  }
  return [404, { error: 'unknown control' }];
}

export async function teardown() {
  await new Promise((resolve) => control?.close(resolve));
  await new Promise((resolve) => mailServer?.close(resolve));
  await new Promise((resolve) => site?.close(resolve));
  await new Promise((resolve) => appOrigin?.close(resolve));
  await stack?.close();
}
