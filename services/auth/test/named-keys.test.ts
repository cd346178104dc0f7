import { createHash, randomUUID } from 'node:crypto';
import { ApiKeyLimits, ApiKeyMessages } from '@render/contracts';
import { ApiKeysRepository } from '@render/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_USE_WRITE_INTERVAL_MS, KeyUse } from '../src/lib/key-use.ts';
import { INTERNAL_TOKEN, json, type Stack, startStack, verifiedUser } from './helpers/stack.ts';

// The account service's side of named API keys: managed with a session only, verified and reserved with like
// the default key (answering the key's id and scope), a use written at most once a minute.

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});

afterAll(async () => {
  await stack?.close();
});

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const internal = (path: string, body: unknown) => stack.call('POST', path, { body, headers: { 'x-internal-token': INTERNAL_TOKEN } });

async function create(token: string, body: Record<string, unknown>) {
  const res = await stack.call('POST', '/api/auth/keys', { token, body });
  expect(res.status).toBe(201);
  return (await json(res)) as { data: { id: string; scope: string }; secret: string };
}

describe('named API keys in the account service', () => {
  it('verifies and reserves with a named key, answering its id, scope and expiry, and records which key reserved', async () => {
    const user = await verifiedUser(stack);
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const key = await create(user.token, { name: 'ci', scope: 'templates', expiresAt });
    const verified = await json(await internal('/internal/api-keys/verify', { apiKey: key.secret }));
    expect(verified).toEqual({ userId: user.userId, role: 'user', plan: 'free', keyId: key.data.id, scope: 'templates', expiresAt });
    const requestId = randomUUID();
    const reserved = await json(await internal('/internal/credits/reserve', { apiKeyHash: sha256(key.secret), requestId, kind: 'html' }));
    expect(reserved).toMatchObject({ userId: user.userId, keyId: key.data.id, scope: 'templates', expiresAt });
    const row = await stack.db.selectFrom('credit_ledger').select('key_id').where('request_id', '=', requestId).executeTakeFirstOrThrow();
    expect(row.key_id).toBe(key.data.id);
  });

  it('refuses a revoked or expired key as an unknown one (401), and keys managed with an API key (403)', async () => {
    const user = await verifiedUser(stack);
    const key = await create(user.token, { name: 'gone', scope: 'full' });
    await stack.db
      .updateTable('api_keys')
      .set({ expires_at: new Date(Date.now() - 1_000) })
      .where('id', '=', key.data.id)
      .execute();
    expect((await internal('/internal/api-keys/verify', { apiKey: key.secret })).status).toBe(401);
    const reserve = await internal('/internal/credits/reserve', { apiKeyHash: sha256(key.secret), requestId: randomUUID() });
    expect(reserve.status).toBe(401);

    const full = await create(user.token, { name: 'full', scope: 'full' });
    const byKey = await stack.call('GET', '/api/auth/keys', { headers: { 'x-api-key': full.secret } });
    expect(byKey.status).toBe(403);
    const revoked = await stack.call('DELETE', `/api/auth/keys/${full.data.id}`, { token: user.token });
    expect(revoked.status).toBe(200);
    expect((await internal('/internal/api-keys/verify', { apiKey: full.secret })).status).toBe(401);
    // Revoked already, or not even shaped like a key id: no key of theirs.
    for (const id of [full.data.id, 'not-a-key'])
      expect((await stack.call('DELETE', `/api/auth/keys/${id}`, { token: user.token })).status).toBe(404);
  });

  it('caps the named keys of an account with a 409', async () => {
    const user = await verifiedUser(stack);
    for (let i = 0; i < ApiKeyLimits.perAccount; i++) await create(user.token, { name: `k${i}`, scope: 'render' });
    const over = await stack.call('POST', '/api/auth/keys', { token: user.token, body: { name: 'one more', scope: 'render' } });
    expect(over.status).toBe(409);
    expect((await json(over)).message).toBe(ApiKeyMessages.tooMany);
  });

  it('writes a key’s last use at most once a minute', async () => {
    const user = await verifiedUser(stack);
    const key = await create(user.token, { name: 'busy', scope: 'render' });
    const use = new KeyUse(new ApiKeysRepository(stack.db), (err) => expect.fail(err.message));
    const lastUsed = async () =>
      (await stack.db.selectFrom('api_keys').select('last_used_at').where('id', '=', key.data.id).executeTakeFirstOrThrow()).last_used_at;
    const start = Date.parse('2030-01-01T00:00:00Z');
    await use.record(key.data.id, start);
    expect(await lastUsed()).toEqual(new Date(start));
    await use.record(key.data.id, start + KEY_USE_WRITE_INTERVAL_MS - 1);
    expect(await lastUsed()).toEqual(new Date(start));
    await use.record(key.data.id, start + KEY_USE_WRITE_INTERVAL_MS);
    expect(await lastUsed()).toEqual(new Date(start + KEY_USE_WRITE_INTERVAL_MS));
  });
});
