import { ApiKeyMessages, AuthMessages } from '@render/contracts';
import type { RenderWorkerHandle } from '@render/render-worker';
import { closeInOrder } from '@render/test-stack/teardown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_TOKEN, json, type Stack, startStack, verifiedUser } from './helpers/auth-stack.ts';
import { startGateway, startTemplates, startWorker, type TestGateway, uniquePrefix } from './helpers/stack.ts';

// Named API keys (issue 30 §6) through the real stack: the account service on Postgres, two gateways sharing
// Redis, a worker rendering HTML, over sockets. Created, rendered with, refused by scope, expired, revoked
// through one replica and refused at once by the other, and usage filtered by key.

const HTML = '<p style="margin:0">key</p>';
const convert = { html: HTML, width: 100, height: 50 };

let auth: Stack;
let templatesService: Awaited<ReturnType<typeof startTemplates>>;
let worker: RenderWorkerHandle;
/** Leases kept for a minute: only a published change can end them within a test. */
let first: TestGateway;
let second: TestGateway;
let user: Awaited<ReturnType<typeof verifiedUser>>;

beforeAll(async () => {
  const prefix = uniquePrefix('named-keys');
  auth = await startStack();
  templatesService = await startTemplates(auth.databaseUrl, INTERNAL_TOKEN);
  worker = await startWorker({ QUEUE_PREFIX: prefix, RENDER_QUEUES: 'html', RENDER_PAGES: '4' });
  const env = { QUEUE_PREFIX: prefix, AUTH_SERVICE_URL: auth.url, TEMPLATES_SERVICE_URL: templatesService.url, INTERNAL_TOKEN };
  first = await startGateway({ ...env, KEY_LEASE_TTL_MS: '60000' });
  second = await startGateway(env);
  user = await verifiedUser(auth);
  await auth.db.updateTable('users').set({ plan: 'pro' }).where('id', '=', user.userId).execute();
});

afterAll(async () => {
  await closeInOrder(first, second, worker, templatesService);
  await auth?.close();
});

function call(gateway: TestGateway, method: string, path: string, options: { body?: unknown; token?: string; key?: string } = {}) {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.key) headers['x-api-key'] = options.key;
  return fetch(`${gateway.url}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
}

async function ok(res: Response, status = 200) {
  if (res.status !== status) expect.fail(`expected ${status}, got ${res.status}: ${await res.text()}`);
  return json(res);
}

async function refused(res: Response) {
  const body = await json(res);
  return { status: res.status, messageId: body.messageId, message: body.message };
}

interface CreatedKey {
  data: { id: string; name: string; scope: string; prefix: string; expiresAt: string | null; lastUsedAt: string | null };
  secret: string;
}

async function createKey(body: Record<string, unknown>): Promise<CreatedKey> {
  return (await ok(await call(second, 'POST', '/api/auth/keys', { token: user.token, body }), 201)) as unknown as CreatedKey;
}

async function render(gateway: TestGateway, key: string): Promise<number> {
  const res = await call(gateway, 'POST', '/api/html-to-img/convert', { key, body: convert });
  await res.arrayBuffer();
  return res.status;
}

/** Several renders at once with the key, until the gateway keeps spares for it (a lease). */
async function leaseOn(gateway: TestGateway, key: string): Promise<void> {
  const leased = async () =>
    Number(
      (
        await auth.db
          .selectFrom('credit_ledger')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('user_id', '=', user.userId)
          .where('status', '=', 'leased')
          .executeTakeFirstOrThrow()
      ).n,
    );
  for (let wave = 0; wave < 6 && (await leased()) === 0; wave++) {
    const statuses = await Promise.all(Array.from({ length: 8 }, () => render(gateway, key)));
    expect(statuses.every((status) => status === 200)).toBe(true);
  }
  expect(await leased()).toBeGreaterThan(0);
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const listKeys = async () => (await ok(await call(first, 'GET', '/api/auth/keys', { token: user.token }))).data as CreatedKey['data'][];

describe('named API keys through the gateway', () => {
  it('creates a key whose secret is shown once and stored as a hash; renders with it and records its last use', async () => {
    const created = await createKey({ name: '  CI render  ', scope: 'render' });
    expect(created.data).toMatchObject({ name: 'CI render', scope: 'render', expiresAt: null, lastUsedAt: null });
    expect(created.secret.startsWith(created.data.prefix)).toBe(true);
    const row = await auth.db.selectFrom('api_keys').selectAll().where('id', '=', created.data.id).executeTakeFirstOrThrow();
    expect(row.key_ciphertext).toBeNull();
    expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(created.secret);
    // The list never shows the secret again.
    expect(JSON.stringify(await listKeys())).not.toContain(created.secret);

    expect(await render(first, created.secret)).toBe(200);
    const listed = (await listKeys()).find((key) => key.id === created.data.id);
    expect(listed?.lastUsedAt).not.toBeNull();
  });

  it('refuses what a key’s scope does not allow with 403 and a catalogued message, and lets the rest through', async () => {
    const renderKey = await createKey({ name: 'render only', scope: 'render' });
    const templatesKey = await createKey({ name: 'templates', scope: 'templates' });
    const fullKey = await createKey({ name: 'full', scope: 'full' });
    const narrow = { status: 403, messageId: 'apiKeys.scopeTooNarrow', message: ApiKeyMessages.scopeTooNarrow };

    expect(await refused(await call(first, 'GET', '/api/template/user', { key: renderKey.secret }))).toEqual(narrow);
    expect(await refused(await call(first, 'GET', '/api/auth/usage', { key: renderKey.secret }))).toEqual(narrow);
    expect(await refused(await call(first, 'GET', '/api/auth/usage', { key: templatesKey.secret }))).toEqual(narrow);
    // A billed template render: refused once the reservation names the key's scope, and its credit given back.
    const generate = await call(first, 'POST', '/api/template/generate', { key: renderKey.secret, body: { templateId: 'x' } });
    expect(await refused(generate)).toEqual(narrow);
    const keyRows = () =>
      auth.db
        .selectFrom('credit_ledger')
        .select('status')
        .where('key_id', '=', renderKey.data.id)
        .where('status', '!=', 'leased')
        .execute();
    await until(async () => (await keyRows()).every((row) => row.status === 'released'), 5_000);
    expect((await keyRows()).map((row) => row.status)).toEqual(['released']);
    await ok(await call(first, 'GET', '/api/template/user', { key: templatesKey.secret }));
    expect(await render(first, templatesKey.secret)).toBe(200);
    await ok(await call(first, 'GET', '/api/auth/usage', { key: fullKey.secret }));
    await ok(await call(first, 'GET', '/api/template/user', { key: fullKey.secret }));
    // Keys are managed with a session only: even a full key cannot mint one.
    const minted = await call(first, 'POST', '/api/auth/keys', { key: fullKey.secret, body: { name: 'x', scope: 'full' } });
    expect(minted.status).toBe(403);
    await minted.arrayBuffer();
  });

  it('answers a key past its expiry 401, even on the replica that kept credits leased for it', async () => {
    const expiresAt = new Date(Date.now() + 3_000);
    const key = await createKey({ name: 'short-lived', scope: 'render', expiresAt: expiresAt.toISOString() });
    await leaseOn(first, key.secret);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt.getTime() - Date.now() + 50)));
    expect(await refused(await call(first, 'POST', '/api/html-to-img/convert', { key: key.secret, body: convert }))).toMatchObject({
      status: 401,
      message: AuthMessages.invalidApiKey,
    });
    expect(await render(second, key.secret)).toBe(401);
    // Listed still, with its expiry, so the owner sees why it stopped.
    expect((await listKeys()).find((listed) => listed.id === key.data.id)?.expiresAt).toBe(expiresAt.toISOString());
  });

  it('refuses an expiry in the past and a missing name with 400', async () => {
    const past = await call(second, 'POST', '/api/auth/keys', {
      token: user.token,
      body: { name: 'late', scope: 'full', expiresAt: new Date(Date.now() - 60_000).toISOString() },
    });
    expect(await refused(past)).toMatchObject({ status: 400, messageId: 'apiKeys.expiresAtInvalid' });
    const nameless = await call(second, 'POST', '/api/auth/keys', { token: user.token, body: { name: '   ', scope: 'full' } });
    expect(await refused(nameless)).toMatchObject({ status: 400, messageId: 'apiKeys.nameRequired' });
    const badScope = await call(second, 'POST', '/api/auth/keys', { token: user.token, body: { name: 'k', scope: 'admin' } });
    expect(await refused(badScope)).toMatchObject({ status: 400, message: ApiKeyMessages.scopeInvalid });
  });

  it('revokes a key through one replica: the other, which kept credits leased for it, refuses it at once', async () => {
    const key = await createKey({ name: 'to revoke', scope: 'render' });
    await leaseOn(first, key.secret);
    const revoked = await call(second, 'DELETE', `/api/auth/keys/${key.data.id}`, { token: user.token });
    expect(await ok(revoked)).toEqual({ success: true, id: key.data.id });
    expect(await render(first, key.secret)).toBe(401);
    expect(await render(second, key.secret)).toBe(401);
    expect((await listKeys()).some((listed) => listed.id === key.data.id)).toBe(false);
    // Revoking again, or a key that is not the caller's: 404.
    const again = await call(second, 'DELETE', `/api/auth/keys/${key.data.id}`, { token: user.token });
    expect(await refused(again)).toMatchObject({ status: 404, messageId: 'apiKeys.notFound' });
    // The default key still works: credits stay the account's.
    expect(await render(first, user.apiKey)).toBe(200);
  });

  it('filters usage by key: each key’s renders, the account’s total unchanged', async () => {
    const key = await createKey({ name: 'usage', scope: 'render' });
    for (let i = 0; i < 3; i++) expect(await render(second, key.secret)).toBe(200);
    const recent = (await ok(await call(second, 'GET', `/api/auth/usage/recent?keyId=${key.data.id}`, { token: user.token }))).data as {
      keyId: string;
      status: string;
    }[];
    expect(recent).toHaveLength(3);
    expect(recent.every((row) => row.keyId === key.data.id && row.status === 'charged')).toBe(true);
    const usage = async (query: string) =>
      (await ok(await call(second, 'GET', `/api/auth/usage${query}`, { token: user.token }))).data as { used: number };
    expect((await usage(`?keyId=${key.data.id}`)).used).toBe(3);
    expect((await usage('')).used).toBeGreaterThan(3);
    const daily = (await ok(await call(second, 'GET', `/api/auth/usage/daily?keyId=${key.data.id}`, { token: user.token }))).data as {
      days: { renders: number }[];
    };
    expect(daily.days.reduce((sum, day) => sum + day.renders, 0)).toBe(3);

    const other = await verifiedUser(auth);
    const foreign = await call(second, 'GET', `/api/auth/usage/recent?keyId=${key.data.id}`, { token: other.token });
    expect(await refused(foreign)).toMatchObject({ status: 400, messageId: 'apiKeys.keyIdInvalid' });
    const malformed = await call(second, 'GET', '/api/auth/usage?keyId=nope', { token: user.token });
    expect(await refused(malformed)).toMatchObject({ status: 400, message: ApiKeyMessages.keyIdInvalid });
  });
});
