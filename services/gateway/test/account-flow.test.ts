import type { RenderWorkerHandle } from '@render/render-worker';
import { PNG_SIGNATURE } from '@render/test-stack/images';
import { closeInOrder } from '@render/test-stack/teardown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The real account service, in-process on a throwaway database with a real SMTP server, as its own tests start it.
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  codeFrom,
  expectRegistered,
  INTERNAL_TOKEN,
  json,
  STRONG_PASSWORD,
  type Stack,
  signupBody,
  startStack,
} from './helpers/auth-stack.ts';
import { startGateway, startWorker, type TestGateway, uniquePrefix } from './helpers/stack.ts';

// Every call in this file goes through the gateway over a real socket; the auth app is only its upstream.

const HTML = '<html><body style="margin:0;background:#0f0"></body></html>';
const CONVERT = { html: HTML, width: 50, height: 50 };

let auth: Stack;
let worker: RenderWorkerHandle;
let gateway: TestGateway;

beforeAll(async () => {
  const prefix = uniquePrefix('account-flow');
  // startStack configures ADMIN_EMAIL / ADMIN_PASSWORD, so the administrator is bootstrapped at start.
  auth = await startStack({ ADMIN_EMAIL, ADMIN_PASSWORD });
  worker = await startWorker({ QUEUE_PREFIX: prefix, RENDER_QUEUES: 'html' });
  gateway = await startGateway({ QUEUE_PREFIX: prefix, AUTH_SERVICE_URL: auth.url, INTERNAL_TOKEN });
});

afterAll(async () => {
  await closeInOrder(gateway, worker, auth);
});

/** A JSON call to the gateway, optionally signed in with a session token. */
function call(method: string, path: string, options: { body?: unknown; token?: string } = {}): Promise<Response> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  return fetch(`${gateway.url}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
}

const convert = (headers: Record<string, string>) => gateway.post('/api/html-to-img/convert', CONVERT, headers);

async function expectPng(res: Response) {
  if (res.status !== 200) expect.fail(`convert answered ${res.status}: ${await res.text()}`);
  expect(res.headers.get('content-type')).toBe('image/png');
  const bytes = Buffer.from(await res.arrayBuffer());
  expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
}

async function usage(token: string) {
  const res = await call('GET', '/api/auth/usage', { token });
  expect(res.status).toBe(200);
  return (await json(res)).data as { used: number; limit: number | null };
}

// Shared along the flow: each step builds on the account the previous one created.
const account = { userId: '', email: '', token: '', apiKey: '' };

describe('account flow through the gateway', () => {
  it('signup → mailed code → verify → login → me → usage → converts charged by API key', async () => {
    const body = signupBody();
    account.email = body.email;

    const signup = await call('POST', '/api/auth/signup', { body });
    const created = await expectRegistered(signup);
    account.userId = created.userId;

    const mail = auth.lastMailTo(body.email);
    const code = codeFrom(mail);
    expect(code).toMatch(/^\d{6}$/);

    const early = await call('POST', '/api/auth/login', { body: { email: body.email, password: STRONG_PASSWORD } });
    expect(early.status).toBe(403);
    expect(await json(early)).toMatchObject({ success: false, userId: account.userId });

    const verify = await call('POST', '/api/auth/verify', { body: { userId: account.userId, verificationCode: code } });
    expect(verify.status).toBe(200);
    expect(await json(verify)).toMatchObject({ success: true, token: expect.any(String) });

    const login = await call('POST', '/api/auth/login', { body: { email: body.email, password: STRONG_PASSWORD } });
    expect(login.status).toBe(200);
    const session = await json(login);
    expect(session).toMatchObject({
      success: true,
      token: expect.any(String),
      user: { id: account.userId, email: body.email },
    });
    account.token = session.token;

    const me = await call('GET', '/api/auth/me', { token: account.token });
    expect(me.status).toBe(200);
    const { user } = await json(me);
    expect(user).toMatchObject({ id: account.userId, email: body.email, apiKey: expect.stringMatching(/^rk_/) });
    account.apiKey = user.apiKey;

    expect(await usage(account.token)).toMatchObject({ used: 0, limit: 50 });

    await expectPng(await convert({ 'x-api-key': account.apiKey }));
    expect((await usage(account.token)).used).toBe(1);

    await expectPng(await convert({ authorization: `Bearer ${account.apiKey}` }));
    expect((await usage(account.token)).used).toBe(2);
  });

  it('regenerating the API key refuses the old key on the very next call (no grace period); the new key works', async () => {
    expect(account.apiKey).not.toBe('');
    const oldKey = account.apiKey;

    const regen = await call('POST', '/api/auth/api-key/regenerate', { token: account.token });
    expect(regen.status).toBe(200);
    const { apiKey: newKey } = await json(regen);
    expect(newKey).toMatch(/^rk_/);
    expect(newKey).not.toBe(oldKey);

    // The old key was used (and so cached by the gateway) a moment ago: it must still be refused at once.
    // Soft, so the new key is still checked when this fails.
    const refused = await convert({ 'x-api-key': oldKey });
    expect.soft(refused.status, 'old API key right after regenerate').toBe(401);
    if (refused.status !== 401) await refused.arrayBuffer();
    else expect(await refused.json()).toMatchObject({ success: false, code: 'UNAUTHORIZED' });

    await expectPng(await convert({ 'x-api-key': newKey }));
    // 3 if the old key was refused; 4 if it was wrongly accepted and charged.
    expect((await usage(account.token)).used).toBe(refused.status === 401 ? 3 : 4);
    account.apiKey = newKey;
  });

  it('admin logs in through the gateway and sees the stats; a regular user gets 403', async () => {
    const login = await call('POST', '/api/auth/login', { body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
    expect(login.status).toBe(200);
    const { token: adminToken } = await json(login);
    expect(adminToken).toEqual(expect.any(String));

    const stats = await call('GET', '/api/admin/stats', { token: adminToken });
    expect(stats.status).toBe(200);
    const body = await json(stats);
    expect(body.success).toBe(true);
    // The administrator and the user above.
    expect(body.stats.totalUsers).toBeGreaterThanOrEqual(2);
    expect(body.stats.newUsers.last24h).toBeGreaterThanOrEqual(1);
    // The user's converts above were charged: the stats must count them.
    // Soft, so the 403 below is still checked when these fail.
    expect.soft(body.stats.totalGenerations, 'stats.totalGenerations').toBeGreaterThanOrEqual(2);
    expect.soft(body.stats.generations.last24h, 'stats.generations.last24h').toBeGreaterThanOrEqual(2);

    const forbidden = await call('GET', '/api/admin/stats', { token: account.token });
    expect(forbidden.status).toBe(403);
    expect(await json(forbidden)).toMatchObject({ success: false });
  });

  it('validates the signup through the gateway: a bad e-mail → 400 "Invalid email address"', async () => {
    const res = await call('POST', '/api/auth/signup', { body: signupBody({ email: 'not-an-email' }) });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(await json(res)).toMatchObject({
      success: false,
      message: 'Invalid email address',
      code: 'VALIDATION_ERROR',
      status: 400,
      instance: '/api/auth/signup',
      requestId: res.headers.get('x-request-id'),
    });
  });
});
