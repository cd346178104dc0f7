import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createDb, migrateToLatest } from '@render/db';
import pg from 'pg';
import { freePort, onCleanup, runCleanup, type Service, startService } from './processes.ts';

/** An 800×400 social card with a title, a number and a colour rule: what a typical template generation does. */
export const BENCH_TEMPLATE = {
  name: 'Bench card',
  width: 800,
  height: 400,
  svg: `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="400" viewBox="0 0 800 400">
  <style data-variable="accent">.accent{fill:#0ea5e9}</style>
  <rect width="800" height="400" fill="#0f172a"/>
  <rect class="accent" x="0" y="0" width="16" height="400"/>
  <text x="60" y="140" font-family="sans-serif" font-size="48" fill="#f8fafc" data-variable="title">Title</text>
  <text x="60" y="260" font-family="sans-serif" font-size="96" font-weight="700" class="accent" data-variable="value">0</text>
</svg>`,
  variables: [
    { name: 'accent', type: 'text', defaultValue: '.accent{fill:#0ea5e9}' },
    { name: 'title', type: 'text', defaultValue: 'Title' },
    { name: 'value', type: 'number', defaultValue: 0 },
  ],
};

export interface TemplateServices {
  /** Environment the gateway needs to reach them. */
  gatewayEnv: Record<string, string>;
  /** Signs in through the gateway and saves the bench template: what the template workload calls with. */
  prepare(gatewayUrl: string): Promise<{ templateId: string; apiKey: string }>;
  warnings(): string[];
  stop(): Promise<void>;
}

async function waitForHttp(url: string, service: Service, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (service.child.exitCode !== null) throw new Error(`${service.name} exited with code ${service.child.exitCode}\n${service.tail()}`);
    // Any HTTP answer (a 401 or 404 included) means the server is listening.
    if (
      await fetch(url).then(
        () => true,
        () => false,
      )
    )
      return;
    await sleep(100);
  }
  throw new Error(`${service.name} did not answer within ${timeoutMs} ms\n${service.tail()}`);
}

/**
 * The account and template services on a throwaway database (created, migrated and dropped by the bench),
 * with an administrator, so generations are authenticated and go through the credit calls like production
 * ones without running out of credits.
 */
export async function startTemplateServices(repoRoot: string, databaseUrl: string, env: NodeJS.ProcessEnv): Promise<TemplateServices> {
  const databaseName = `bench_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`create database ${admin.escapeIdentifier(databaseName)}`);
  const dropDatabase = onCleanup({
    name: 'bench database',
    run: async () => {
      await admin.query(`drop database if exists ${admin.escapeIdentifier(databaseName)} with (force)`).catch(() => undefined);
      await admin.end();
    },
    runSync: () => undefined,
  });
  const url = new URL(databaseUrl);
  url.pathname = `/${databaseName}`;
  const db = createDb(url.toString(), { poolSize: 1 });
  await migrateToLatest(db);
  await db.destroy();

  const internalToken = randomBytes(24).toString('hex');
  const adminEmail = 'bench@example.com';
  const adminPassword = `Bench-${randomBytes(8).toString('hex')}1`;
  const [authPort, templatesPort] = [await freePort(), await freePort()];
  const tsx = ['--import', 'tsx'];
  const common = { ...env, DATABASE_URL: url.toString(), INTERNAL_TOKEN: internalToken, HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  const services: Service[] = [];
  try {
    services.push(
      startService(
        'auth',
        [...tsx, path.join(repoRoot, 'services/auth/src/server.ts')],
        {
          ...common,
          PORT: String(authPort),
          JWT_SECRET: randomBytes(32).toString('hex'),
          API_KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
          MAIL_DIR: path.join(repoRoot, '.data', 'bench-mail'),
          ADMIN_EMAIL: adminEmail,
          ADMIN_PASSWORD: adminPassword,
        },
        repoRoot,
      ),
      startService(
        'templates',
        [...tsx, path.join(repoRoot, 'services/templates/src/server.ts')],
        { ...common, PORT: String(templatesPort) },
        repoRoot,
      ),
    );
    const authUrl = `http://127.0.0.1:${authPort}`;
    const templatesUrl = `http://127.0.0.1:${templatesPort}`;
    await Promise.all([waitForHttp(`${authUrl}/api/auth/me`, services[0]!, 60_000), waitForHttp(`${templatesUrl}/`, services[1]!, 60_000)]);
    return {
      gatewayEnv: { AUTH_SERVICE_URL: authUrl, TEMPLATES_SERVICE_URL: templatesUrl, INTERNAL_TOKEN: internalToken },
      async prepare(gatewayUrl) {
        const login = await fetch(`${gatewayUrl}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: adminEmail, password: adminPassword }),
        });
        if (login.status !== 200) throw new Error(`bench login failed: ${login.status} ${await login.text()}`);
        const { token, user } = (await login.json()) as { token: string; user: { apiKey: string } };
        const created = await fetch(`${gatewayUrl}/api/template`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify(BENCH_TEMPLATE),
        });
        if (created.status !== 201) throw new Error(`bench template not saved: ${created.status} ${await created.text()}`);
        const { data } = (await created.json()) as { data: { id: string } };
        return { templateId: data.id, apiKey: user.apiKey };
      },
      warnings: () => services.flatMap((s) => s.warnings),
      async stop() {
        for (const service of services.reverse()) await service.stop();
        await runCleanup(dropDatabase);
      },
    };
  } catch (err) {
    for (const service of services) await service.stop();
    await runCleanup(dropDatabase);
    throw err;
  }
}
