import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_TOKEN, json, type Stack, startStack, verifiedUser } from './helpers/stack.ts';

// The account's webhook signing secret: created on first read, rotated with a session, stored encrypted,
// and handed to render workers only behind the internal token.

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});

afterAll(async () => {
  await stack?.close();
});

const internalSecret = (userId: string, headers: Record<string, string> = { 'x-internal-token': INTERNAL_TOKEN }) =>
  stack.call('POST', '/internal/webhook-secret', { body: { userId }, headers });

describe('webhook secret', () => {
  it('is created on first read, the same on every read, readable with the API key, and stored encrypted', async () => {
    const user = await verifiedUser(stack);
    const first = await stack.call('GET', '/api/auth/webhook-secret', { token: user.token });
    expect(first.status).toBe(200);
    const { secret, createdAt } = await json(first);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(Number.isNaN(Date.parse(createdAt))).toBe(false);
    const byKey = await stack.call('GET', '/api/auth/webhook-secret', { headers: { 'x-api-key': user.apiKey } });
    expect((await json(byKey)).secret).toBe(secret);

    const row = await stack.db
      .selectFrom('webhook_secrets')
      .select(['secret_ciphertext'])
      .where('user_id', '=', user.userId)
      .executeTakeFirstOrThrow();
    expect(row.secret_ciphertext).toMatch(/^v1\./);
    expect(row.secret_ciphertext).not.toContain(secret.slice(6));
  });

  it('makes one secret when first reads race', async () => {
    const user = await verifiedUser(stack);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => stack.call('GET', '/api/auth/webhook-secret', { token: user.token })),
    );
    const secrets = new Set(await Promise.all(answers.map(async (a) => (await json(a)).secret as string)));
    expect(secrets.size).toBe(1);
  });

  it('rotates with a session only; the old secret is gone at once, also for the worker', async () => {
    const user = await verifiedUser(stack);
    const before = (await json(await stack.call('GET', '/api/auth/webhook-secret', { token: user.token }))).secret;
    const byKey = await stack.call('POST', '/api/auth/webhook-secret/rotate', { headers: { 'x-api-key': user.apiKey } });
    expect(byKey.status).toBe(403);
    expect((await json(await internalSecret(user.userId))).secret).toBe(before);

    const rotated = await stack.call('POST', '/api/auth/webhook-secret/rotate', { token: user.token });
    expect(rotated.status).toBe(200);
    const after = (await json(rotated)).secret;
    expect(after).toMatch(/^whsec_/);
    expect(after).not.toBe(before);
    expect((await json(await stack.call('GET', '/api/auth/webhook-secret', { token: user.token }))).secret).toBe(after);
    expect(await json(await internalSecret(user.userId))).toEqual({ secret: after });
  });

  it('refuses callers without credentials, and the internal call without the token or for an unknown account', async () => {
    expect((await stack.call('GET', '/api/auth/webhook-secret')).status).toBe(401);
    expect((await stack.call('POST', '/api/auth/webhook-secret/rotate')).status).toBe(401);
    const user = await verifiedUser(stack);
    expect((await internalSecret(user.userId, {})).status).toBe(401);
    expect((await internalSecret(user.userId, { 'x-internal-token': `${INTERNAL_TOKEN}x` })).status).toBe(401);
    expect((await internalSecret('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await internalSecret('not-a-uuid')).status).toBe(400);
  });
});
