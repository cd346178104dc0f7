import { randomBytes, randomUUID } from 'node:crypto';
import type { DB } from '@render/db';
import { createDb, migrateToLatest } from '@render/db';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { expect } from 'vitest';
import { type InProcessService, type LogOptions, listen } from './in-process.ts';
import { type ReceivedMail, startSmtp } from './smtp.ts';
import { testEnv } from './test-env.ts';

// scripts/test always sets this; fail loudly rather than skip, so a misconfigured run cannot pass by testing nothing.
const adminUrl = testEnv.TEST_DATABASE_URL;
if (!adminUrl) throw new Error('TEST_DATABASE_URL is required (run the tests through ./scripts/test)');

export const JWT_SECRET = randomBytes(32).toString('hex');
export const INTERNAL_TOKEN = randomBytes(24).toString('hex');
export const ADMIN_EMAIL = 'root@example.com';
export const ADMIN_PASSWORD = 'Admin-Passw0rd';
export const STRONG_PASSWORD = 'Sup3rSecret';

export interface Stack {
  url: string;
  /** The throwaway database, for services that share it (templates). */
  databaseUrl: string;
  /** The auth app's own instance (its decorators: db, rateLimits, jwt …). */
  app: FastifyInstance;
  db: Kysely<DB>;
  inbox: ReceivedMail[];
  /** JSON request; each call comes from its own client IP unless `ip` is given, so per-IP limits stay out of the way. */
  call(
    method: string,
    path: string,
    options?: { body?: unknown; token?: string; ip?: string; headers?: Record<string, string> },
  ): Promise<Response>;
  lastMailTo(email: string): ReceivedMail;
  close(): Promise<void>;
}

let ipCounter = 0;
const nextIp = () => {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
};

/**
 * The account service (`auth`, its src/service.ts) on a throwaway database, migrated; a real SMTP server; the
 * app listening on a real port. With `replicaOf`, a second auth replica on that stack's database (which stays
 * the first stack's to drop); with `logStream`, its log lines (at env's LOG_LEVEL) go there.
 */
export async function startAuthStack<C>(
  auth: InProcessService<C>,
  env: Record<string, string> = {},
  replicaOf?: Stack,
  options: LogOptions = {},
): Promise<Stack> {
  const databaseName = replicaOf ? new URL(replicaOf.databaseUrl).pathname.slice(1) : `auth_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  if (!replicaOf) await admin.query(`create database ${admin.escapeIdentifier(databaseName)}`);
  const dbUrl = new URL(adminUrl!);
  dbUrl.pathname = `/${databaseName}`;
  const db = createDb(dbUrl.toString(), { poolSize: 2 });
  if (!replicaOf) await migrateToLatest(db);

  const smtp = await startSmtp();
  const config = auth.loadConfig({
    DATABASE_URL: dbUrl.toString(),
    JWT_SECRET,
    API_KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    INTERNAL_TOKEN,
    SMTP_URL: smtp.url,
    APP_URL: 'http://app.test',
    LOG_LEVEL: testEnv.TEST_LOG_LEVEL ?? 'silent',
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    ...env,
  });
  const service = await listen(auth, config, { ...options, scoped: true });
  const { url } = service;

  return {
    url,
    databaseUrl: dbUrl.toString(),
    app: service.scope,
    db,
    inbox: smtp.inbox,
    call(method, path, { body, token, ip, headers = {} } = {}) {
      return fetch(`${url}${path}`, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          'x-forwarded-for': ip ?? nextIp(),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    },
    lastMailTo(email) {
      const mail = smtp.inbox.filter((m) => m.to.includes(email)).at(-1);
      if (!mail) throw new Error(`no mail to ${email}`);
      return mail;
    },
    async close() {
      await service.close();
      await smtp.close();
      await db.destroy();
      if (!replicaOf) await admin.query(`drop database if exists ${admin.escapeIdentifier(databaseName)} with (force)`);
      await admin.end();
    },
  };
}

let emailCounter = 0;
export const uniqueEmail = (label = 'user') => {
  emailCounter += 1;
  return `${label}-${emailCounter}-${randomBytes(3).toString('hex')}@example.com`;
};

export const signupBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Ada Lovelace',
  email: uniqueEmail(),
  password: STRONG_PASSWORD,
  confirmPassword: STRONG_PASSWORD,
  company: 'Analytical Engines Ltd',
  usageSource: 'business',
  referralSource: 'search_engine',
  plannedServices: ['html2img', 'chartjs2img'],
  acceptTerms: true,
  ...overrides,
});

export const codeFrom = (mail: ReceivedMail): string => {
  const code = /(?:verification code is|code de vérification est) (\d{6})/.exec(mail.text)?.[1];
  if (!code) throw new Error(`no code in mail: ${mail.text}`);
  return code;
};

/** Signs up, reads the mailed code and verifies: a ready, signed-in account. */
export async function verifiedUser(stack: Stack, overrides: Record<string, unknown> = {}) {
  const body = signupBody(overrides);
  const signup = await stack.call('POST', '/api/auth/signup', { body });
  if (signup.status !== 201) throw new Error(`signup failed: ${signup.status} ${await signup.text()}`);
  const { userId } = (await signup.json()) as { userId: string };
  const verify = await stack.call('POST', '/api/auth/verify', {
    body: { userId, verificationCode: codeFrom(stack.lastMailTo(body.email)) },
  });
  const session = (await verify.json()) as { token: string; user: { apiKey: string } };
  return { ...body, userId, token: session.token, apiKey: session.user.apiKey };
}

/** Fills a user's window with `n` charged credits, `daysAgo` old, straight in the ledger; answers when they were taken. */
export async function seedCharged(stack: Stack, userId: string, n: number, daysAgo = 0): Promise<Date> {
  const created = new Date(Date.now() - daysAgo * 24 * 60 * 60 * 1000);
  await stack.db
    .insertInto('credit_ledger')
    .values(
      Array.from({ length: n }, () => ({ user_id: userId, request_id: randomUUID(), status: 'charged' as const, created_at: created })),
    )
    .execute();
  return created;
}

// biome-ignore lint/suspicious/noExplicitAny: tests assert on whatever JSON the service sent
export const json = async (res: Response) => (await res.json()) as Record<string, any>;

/** Asserts that a signup answered 201 with the registration message and a user id; answers that body. */
export async function expectRegistered(signup: Response) {
  expect(signup.status).toBe(201);
  const created = await json(signup);
  expect(created).toEqual({
    success: true,
    message: 'Registration successful! Please check your email for verification code.',
    userId: expect.any(String),
  });
  return created;
}
