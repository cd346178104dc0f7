import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { createDb, migrateToLatest } from '@render/db';
import { postJson, signUpThroughGateway, waitForHttp } from '@render/test-stack/process-http';
import { freePort, onCleanup, runCleanup, type Service, type StartMode, startNodeService } from '@render/test-stack/processes';
import pg from 'pg';

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
  /** The bench's own database, which auth and templates use. */
  databaseUrl: string;
  /** Signs in through the gateway and saves the bench template: what the template workload calls with. */
  prepare(gatewayUrl: string): Promise<{ templateId: string; apiKey: string }>;
  /** The administrator's API key: an unlimited account (no limit to enforce before rendering). */
  unlimitedKey(gatewayUrl: string): Promise<string>;
  /**
   * The API key of a Free account signed up through the gateway (the mailed code read from MAIL_DIR), whose
   * credits never run out: its charged ledger rows are deleted by a trigger once settled, so every call
   * takes the limited path (the credit reserved before the render) for as long as the bench runs.
   */
  freeKey(gatewayUrl: string): Promise<string>;
  warnings(): string[];
  stop(): Promise<void>;
}

/**
 * The account and template services on a throwaway database (created, migrated and dropped by the bench),
 * with an administrator, so generations are authenticated and go through the credit calls like production
 * ones without running out of credits.
 */
export async function startTemplateServices(
  repoRoot: string,
  databaseUrl: string,
  env: NodeJS.ProcessEnv,
  start: StartMode,
): Promise<TemplateServices> {
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

  const mailDir = path.join(repoRoot, '.data', `bench-mail-${process.pid}`);
  const removeMail = onCleanup({
    name: 'bench mail',
    run: () => rm(mailDir, { recursive: true, force: true }),
    runSync: () => undefined,
  });
  const internalToken = randomBytes(24).toString('hex');
  const adminEmail = 'bench@example.com';
  const adminPassword = `Bench-${randomBytes(8).toString('hex')}1`;
  const [authPort, templatesPort] = [await freePort(), await freePort()];
  const common = { ...env, DATABASE_URL: url.toString(), INTERNAL_TOKEN: internalToken, HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  const services: Service[] = [];
  try {
    services.push(
      startNodeService(
        start,
        { name: 'auth', pkg: '@render/auth', entry: 'services/auth/src/server.ts' },
        {
          ...common,
          PORT: String(authPort),
          JWT_SECRET: randomBytes(32).toString('hex'),
          API_KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
          MAIL_DIR: mailDir,
          ADMIN_EMAIL: adminEmail,
          ADMIN_PASSWORD: adminPassword,
        },
        repoRoot,
      ),
      startNodeService(
        start,
        { name: 'templates', pkg: '@render/templates', entry: 'services/templates/src/server.ts' },
        { ...common, PORT: String(templatesPort) },
        repoRoot,
      ),
    );
    const authUrl = `http://127.0.0.1:${authPort}`;
    const templatesUrl = `http://127.0.0.1:${templatesPort}`;
    await Promise.all([waitForHttp(`${authUrl}/api/auth/me`, services[0]!, 60_000), waitForHttp(`${templatesUrl}/`, services[1]!, 60_000)]);
    const adminSession = async (gatewayUrl: string) => {
      const login = await postJson(gatewayUrl, '/api/auth/login', { email: adminEmail, password: adminPassword });
      if (login.status !== 200) throw new Error(`bench login failed: ${login.status} ${await login.text()}`);
      return (await login.json()) as { token: string; user: { apiKey: string } };
    };
    return {
      gatewayEnv: { AUTH_SERVICE_URL: authUrl, TEMPLATES_SERVICE_URL: templatesUrl, INTERNAL_TOKEN: internalToken },
      databaseUrl: url.toString(),
      unlimitedKey: async (gatewayUrl) => (await adminSession(gatewayUrl)).user.apiKey,
      freeKey: (gatewayUrl) => signUpFree(gatewayUrl, mailDir, url.toString()),
      async prepare(gatewayUrl) {
        const { token, user } = await adminSession(gatewayUrl);
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
        await runCleanup(removeMail);
      },
    };
  } catch (err) {
    for (const service of services) await service.stop();
    await runCleanup(dropDatabase);
    await runCleanup(removeMail);
    throw err;
  }
}

async function signUpFree(gatewayUrl: string, mailDir: string, databaseUrl: string): Promise<string> {
  const { userId, apiKey } = await signUpThroughGateway(gatewayUrl, mailDir, {
    name: 'Bench Free',
    emailPrefix: `bench-free-${process.pid}`,
  });
  // The bench database is its own: a trigger there forgets this user's settled charges.
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`create or replace function bench_forget_charge() returns trigger language plpgsql as $$
      begin delete from credit_ledger where id = new.id; return null; end $$`);
    // One trigger per free key: a run whose phases each make one (keys, then screenshot) keeps forgetting both.
    const id = userId.replace(/[^0-9a-f-]/g, '');
    await client.query(`create trigger "bench_forget_charge_${id}" after update of status on credit_ledger for each row
      when (new.status = 'charged' and new.user_id = '${id}') execute function bench_forget_charge()`);
  } finally {
    await client.end();
  }
  return apiKey;
}
