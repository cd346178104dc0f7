import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  INTERNAL_TOKEN,
  JWT_SECRET,
  json,
  STRONG_PASSWORD,
  type Stack,
  signupBody,
  startStack,
  uniqueEmail,
  verifiedUser,
} from './helpers/stack.ts';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ LOGIN_MAX_PER_ACCOUNT: '4', LOGIN_MAX_PER_IP: '6' });
});

afterAll(async () => {
  await stack?.close();
});

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Hand-made JWT so tests can produce what @fastify/jwt itself would refuse to sign. */
function craftToken(header: Record<string, unknown>, payload: Record<string, unknown>, secret = JWT_SECRET): string {
  const signingInput = `${b64url(header)}.${b64url(payload)}`;
  const alg = header.alg;
  if (alg === 'none') return `${signingInput}.`;
  const digest = alg === 'HS512' ? 'sha512' : 'sha256';
  return `${signingInput}.${createHmac(digest, secret).update(signingInput).digest('base64url')}`;
}

describe('login', () => {
  it('answers a wrong password and an unknown e-mail identically', async () => {
    const user = await verifiedUser(stack);
    const wrong = await stack.call('POST', '/api/auth/login', { body: { email: user.email, password: 'Wrong-Passw0rd' } });
    const unknown = await stack.call('POST', '/api/auth/login', { body: { email: uniqueEmail('nobody'), password: 'Wrong-Passw0rd' } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    // The same problem body, but for each request's own id.
    const expected = (res: Response) => ({
      success: false,
      message: 'Invalid email or password',
      messageId: 'auth.invalidCredentials',
      code: 'UNAUTHORIZED',
      type: '/docs?tab=errors#unauthorized',
      title: 'Unauthorized',
      status: 401,
      detail: 'Invalid email or password',
      instance: '/api/auth/login',
      requestId: res.headers.get('x-request-id'),
    });
    expect(await json(wrong)).toEqual(expected(wrong));
    expect(await json(unknown)).toEqual(expected(unknown));
    expect(wrong.headers.get('x-request-id')).not.toBe(unknown.headers.get('x-request-id'));
  });

  it('does not reveal an unverified account without its password', async () => {
    const body = signupBody();
    expect((await stack.call('POST', '/api/auth/signup', { body })).status).toBe(201);
    const res = await stack.call('POST', '/api/auth/login', { body: { email: body.email, password: 'Wrong-Passw0rd' } });
    expect(res.status).toBe(401);
    expect(await json(res)).not.toHaveProperty('userId');
  });

  it('rate-limits attempts per account (from many IPs) → 429', async () => {
    const user = await verifiedUser(stack);
    for (let i = 0; i < 4; i++) {
      const res = await stack.call('POST', '/api/auth/login', { body: { email: user.email, password: 'Wrong-Passw0rd' } });
      expect(res.status).toBe(401);
    }
    const blocked = await stack.call('POST', '/api/auth/login', { body: { email: user.email, password: user.password } });
    expect(blocked.status).toBe(429);
    expect(await json(blocked)).toMatchObject({ success: false, code: 'RATE_LIMITED' });
    // When the bucket (4 per 15 minutes, one back every 225 s) has a token again, from the bucket itself.
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(200);
    expect(retryAfter).toBeLessThanOrEqual(225);
  });

  it('shares the limits across auth replicas (the buckets live in Postgres)', async () => {
    const replica = await startStack({ LOGIN_MAX_PER_ACCOUNT: '4', LOGIN_MAX_PER_IP: '6' }, stack);
    try {
      const user = await verifiedUser(stack);
      for (let i = 0; i < 4; i++) {
        const via = i % 2 === 0 ? stack : replica;
        expect((await via.call('POST', '/api/auth/login', { body: { email: user.email, password: 'Wrong-Passw0rd' } })).status).toBe(401);
      }
      for (const via of [stack, replica]) {
        expect((await via.call('POST', '/api/auth/login', { body: { email: user.email, password: user.password } })).status).toBe(429);
      }
    } finally {
      await replica.close();
    }
  });

  it('rate-limits attempts per client IP (across accounts) → 429', async () => {
    const ip = '203.0.113.7';
    for (let i = 0; i < 6; i++) {
      const res = await stack.call('POST', '/api/auth/login', { ip, body: { email: uniqueEmail('spray'), password: 'Wrong-Passw0rd' } });
      expect(res.status).toBe(401);
    }
    const blocked = await stack.call('POST', '/api/auth/login', { ip, body: { email: uniqueEmail('spray'), password: 'Wrong-Passw0rd' } });
    expect(blocked.status).toBe(429);
    // Another client is unaffected.
    const other = await stack.call('POST', '/api/auth/login', { body: { email: uniqueEmail('spray'), password: 'Wrong-Passw0rd' } });
    expect(other.status).toBe(401);
  });
});

describe('JWT', () => {
  it('issues HS256 tokens with sub and role that expire in 7 days', async () => {
    const user = await verifiedUser(stack);
    const [header, payload] = user.token
      .split('.')
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
    expect(header.alg).toBe('HS256');
    expect(payload).toMatchObject({ sub: user.userId, role: 'user' });
    expect(payload.exp - payload.iat).toBe(7 * 24 * 3600);
    // The hand-made control token is accepted, so the refusals below are about what they change.
    const control = craftToken({ alg: 'HS256', typ: 'JWT' }, payload);
    expect((await stack.call('GET', '/api/auth/me', { token: control })).status).toBe(200);
  });

  it('refuses missing, tampered, expired, alg:none and HS512 tokens with 401', async () => {
    const user = await verifiedUser(stack);
    const admin = await stack.db.selectFrom('users').select(['id']).where('email', '=', ADMIN_EMAIL).executeTakeFirstOrThrow();
    const [h, p, s] = user.token.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const now = Math.floor(Date.now() / 1000);
    const tokens = {
      tampered: `${h}.${b64url({ ...claims, sub: admin.id, role: 'admin' })}.${s}`,
      badSignature: `${h}.${p}.${s!.slice(0, -2)}${s!.endsWith('AA') ? 'BB' : 'AA'}`,
      expired: craftToken({ alg: 'HS256', typ: 'JWT' }, { sub: user.userId, role: 'user', iat: now - 100, exp: now - 10 }),
      none: craftToken({ alg: 'none', typ: 'JWT' }, { sub: user.userId, role: 'user', iat: now, exp: now + 3600 }),
      hs512: craftToken({ alg: 'HS512', typ: 'JWT' }, { sub: user.userId, role: 'user', iat: now, exp: now + 3600 }),
      otherSecret: craftToken({ alg: 'HS256', typ: 'JWT' }, { sub: user.userId, role: 'user', iat: now, exp: now + 3600 }, 'x'.repeat(40)),
      garbage: 'not.a.jwt',
    };
    expect((await stack.call('GET', '/api/auth/me')).status).toBe(401);
    for (const [label, token] of Object.entries(tokens)) {
      const me = await stack.call('GET', '/api/auth/me', { token });
      expect(me.status, label).toBe(401);
      expect(await json(me), label).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
      expect((await stack.call('POST', '/api/auth/refresh', { token })).status, label).toBe(401);
    }
  });
});

describe('API keys', () => {
  const verifyKey = (apiKey: string, headers: Record<string, string> = { 'x-internal-token': INTERNAL_TOKEN }) =>
    stack.call('POST', '/internal/api-keys/verify', { body: { apiKey }, headers });

  it('shows the key in /me; regenerate revokes the old one at once', async () => {
    const user = await verifiedUser(stack);
    const me = await json(await stack.call('GET', '/api/auth/me', { token: user.token }));
    expect(me.user.apiKey).toBe(user.apiKey);

    const before = await verifyKey(user.apiKey);
    expect(before.status).toBe(200);
    expect(await json(before)).toEqual({ userId: user.userId, role: 'user', plan: 'free', keyId: expect.any(String), scope: 'full' });

    const regen = await stack.call('POST', '/api/auth/api-key/regenerate', { token: user.token });
    expect(regen.status).toBe(200);
    const { apiKey } = await json(regen);
    expect(apiKey).toMatch(/^rk_live_[A-Za-z0-9_-]{43}$/);
    expect(apiKey).not.toBe(user.apiKey);

    expect((await verifyKey(user.apiKey)).status).toBe(401);
    expect((await verifyKey(apiKey)).status).toBe(200);
    expect((await json(await stack.call('GET', '/api/auth/me', { token: user.token }))).user.apiKey).toBe(apiKey);
    const active = await stack.db
      .selectFrom('api_keys')
      .select(['id'])
      .where('user_id', '=', user.userId)
      .where('revoked_at', 'is', null)
      .execute();
    expect(active).toHaveLength(1);
  });

  it('protects /internal with the shared token', async () => {
    const user = await verifiedUser(stack);
    expect((await verifyKey(user.apiKey, {})).status).toBe(401);
    expect((await verifyKey(user.apiKey, { 'x-internal-token': 'wrong-token-wrong-token' })).status).toBe(401);
    expect((await verifyKey('rk_live_unknown')).status).toBe(401);
    expect((await stack.call('POST', '/api/auth/api-key/regenerate')).status).toBe(401);
  });
});

describe('API keys on account calls', () => {
  const withKey = (apiKey: string, as: 'header' | 'bearer'): { headers: Record<string, string> } =>
    as === 'header' ? { headers: { 'x-api-key': apiKey } } : { headers: { authorization: `Bearer ${apiKey}` } };

  it('read the account and its usage, in X-API-Key or as a Bearer', async () => {
    const user = await verifiedUser(stack);
    for (const as of ['header', 'bearer'] as const) {
      const me = await stack.call('GET', '/api/auth/me', withKey(user.apiKey, as));
      expect(me.status, as).toBe(200);
      expect((await json(me)).user, as).toMatchObject({ id: user.userId, email: user.email });
      const usage = await stack.call('GET', '/api/auth/usage', withKey(user.apiKey, as));
      expect(usage.status, as).toBe(200);
      expect((await json(usage)).data, as).toMatchObject({ used: 0, plan: 'free' });
    }
  });

  it('refuse a wrong or revoked key with 401', async () => {
    const user = await verifiedUser(stack);
    const regen = await json(await stack.call('POST', '/api/auth/api-key/regenerate', { token: user.token }));
    for (const key of [user.apiKey, 'rk_live_unknown', `rk_live_${'x'.repeat(300)}`]) {
      for (const as of ['header', 'bearer'] as const) {
        const res = await stack.call('GET', '/api/auth/usage', withKey(key, as));
        expect(res.status, `${as} ${key.slice(0, 12)}`).toBe(401);
        expect(await json(res)).toMatchObject({ success: false, code: 'UNAUTHORIZED', message: 'Invalid API key' });
      }
    }
    expect((await stack.call('GET', '/api/auth/me', withKey(regen.apiKey, 'header'))).status).toBe(200);
  });

  it('cannot change the account: key, session, password, billing and admin calls need a session token (403)', async () => {
    const user = await verifiedUser(stack);
    const admin = await json(await stack.call('POST', '/api/auth/login', { body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } }));
    const calls: Array<[string, string, string]> = [
      ['POST', '/api/auth/api-key/regenerate', user.apiKey],
      ['POST', '/api/auth/refresh', user.apiKey],
      ['POST', '/api/auth/upgrade', user.apiKey],
      ['POST', '/api/auth/manage-billing', user.apiKey],
      ['POST', '/api/auth/cancel-subscription', user.apiKey],
      ['GET', '/api/auth/payment-info', user.apiKey],
      ['GET', '/api/admin/stats', admin.user.apiKey],
    ];
    for (const [method, path, key] of calls) {
      for (const as of ['header', 'bearer'] as const) {
        const res = await stack.call(method, path, withKey(key, as));
        expect(res.status, `${method} ${path} (${as})`).toBe(403);
        expect(await json(res), `${method} ${path}`).toMatchObject({ success: false, code: 'FORBIDDEN' });
      }
    }
    // Nothing changed: the key still works and is still the account's key.
    const me = await json(await stack.call('GET', '/api/auth/me', { token: user.token }));
    expect(me.user.apiKey).toBe(user.apiKey);
  });
});

describe('forgot / reset password', () => {
  const linkFrom = (text: string) => {
    const link = /(http:\/\/app\.test\/reset-password\?token=\S+)/.exec(text)?.[1];
    if (!link) throw new Error(`no link in mail: ${text}`);
    return new URL(link);
  };

  it('mails a single-use link that sets a new password', async () => {
    const user = await verifiedUser(stack);
    const unknown = await stack.call('POST', '/api/auth/forgot-password', { body: { email: uniqueEmail('nobody') } });
    const known = await stack.call('POST', '/api/auth/forgot-password', { body: { email: user.email } });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(await json(known)).toEqual(await json(unknown));

    const link = linkFrom(stack.lastMailTo(user.email).text);
    const token = link.searchParams.get('token')!;
    const newPassword = 'N3w-Password';

    const weak = await stack.call('POST', '/api/auth/reset-password', { body: { token, password: 'short', confirmPassword: 'short' } });
    expect(weak.status).toBe(400);
    expect((await json(weak)).message).toBe('Password must be at least 8 characters');
    const mismatch = await stack.call('POST', '/api/auth/reset-password', {
      body: { token, password: newPassword, confirmPassword: 'N3w-Passwordx' },
    });
    expect((await json(mismatch)).message).toBe('Passwords must match');

    const reset = await stack.call('POST', '/api/auth/reset-password', {
      body: { token, password: newPassword, confirmPassword: newPassword },
    });
    expect(reset.status).toBe(200);
    expect((await stack.call('POST', '/api/auth/login', { body: { email: user.email, password: STRONG_PASSWORD } })).status).toBe(401);
    expect((await stack.call('POST', '/api/auth/login', { body: { email: user.email, password: newPassword } })).status).toBe(200);

    const reused = await stack.call('POST', '/api/auth/reset-password', {
      body: { token, password: 'An0ther-Pass', confirmPassword: 'An0ther-Pass' },
    });
    expect(reused.status).toBe(400);
    expect((await json(reused)).message).toBe('This password reset link is invalid or has expired. Please request a new one.');
  });

  it('ends every session issued before the reset; a new login and its refresh work', async () => {
    const user = await verifiedUser(stack);
    const me = (token: string) => stack.call('GET', '/api/auth/me', { token });
    expect((await me(user.token)).status).toBe(200);
    // Sessions from before this claim existed carry none: they too must end once the password changes.
    const legacy = stack.app.jwt.sign({ sub: user.userId, role: 'user' });
    expect((await me(legacy)).status).toBe(200);

    await stack.call('POST', '/api/auth/forgot-password', { body: { email: user.email } });
    const token = linkFrom(stack.lastMailTo(user.email).text).searchParams.get('token')!;
    const password = 'N3w-Password';
    expect((await stack.call('POST', '/api/auth/reset-password', { body: { token, password, confirmPassword: password } })).status).toBe(
      200,
    );

    for (const old of [user.token, legacy]) {
      const refused = await me(old);
      expect(refused.status).toBe(401);
      expect((await json(refused)).message).toBe('Invalid or expired token');
    }
    const login = await json(await stack.call('POST', '/api/auth/login', { body: { email: user.email, password } }));
    expect((await me(login.token)).status).toBe(200);
    const refreshed = await json(await stack.call('POST', '/api/auth/refresh', { token: login.token }));
    expect((await me(refreshed.token)).status).toBe(200);
  });

  it('refuses unknown and expired tokens', async () => {
    const body = { password: 'N3w-Password', confirmPassword: 'N3w-Password' };
    expect((await stack.call('POST', '/api/auth/reset-password', { body: { ...body, token: 'made-up' } })).status).toBe(400);

    const user = await verifiedUser(stack);
    await stack.call('POST', '/api/auth/forgot-password', { body: { email: user.email } });
    const token = linkFrom(stack.lastMailTo(user.email).text).searchParams.get('token')!;
    await stack.db
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', user.userId)
      .execute();
    expect((await stack.call('POST', '/api/auth/reset-password', { body: { ...body, token } })).status).toBe(400);
  });
});

describe('administrator', () => {
  it('bootstraps a verified admin who can read /api/admin/stats; others get 403', async () => {
    const login = await stack.call('POST', '/api/auth/login', { body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
    expect(login.status).toBe(200);
    const session = await json(login);
    expect(session.user).toMatchObject({ accountType: 'administrator', verificationStatus: 'verified', apiKey: expect.any(String) });

    const stats = await stack.call('GET', '/api/admin/stats', { token: session.token });
    expect(stats.status).toBe(200);
    const body = await json(stats);
    const total = Number(
      (
        await stack.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(body).toEqual({
      success: true,
      stats: {
        totalUsers: total,
        newUsers: { last24h: total, last7d: total, last30d: total },
        totalGenerations: 0,
        generations: { last24h: 0, last7d: 0, last30d: 0 },
      },
    });

    const user = await verifiedUser(stack);
    const forbidden = await stack.call('GET', '/api/admin/stats', { token: user.token });
    expect(forbidden.status).toBe(403);
    expect(await json(forbidden)).toMatchObject({ success: false, code: 'FORBIDDEN' });
    expect((await stack.call('GET', '/api/admin/stats')).status).toBe(401);
  });

  it('counts sign-ups by window', async () => {
    const admin = await json(await stack.call('POST', '/api/auth/login', { body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } }));
    const old = await verifiedUser(stack);
    await stack.db
      .updateTable('users')
      .set({ created_at: new Date(Date.now() - 10 * 24 * 3600 * 1000) })
      .where('id', '=', old.userId)
      .execute();
    const { stats } = await json(await stack.call('GET', '/api/admin/stats', { token: admin.token }));
    expect(stats.newUsers.last7d).toBe(stats.totalUsers - 1);
    expect(stats.newUsers.last30d).toBe(stats.totalUsers);
  });

  it('promotes an existing account on restart without touching its password', async () => {
    const user = await verifiedUser(stack);
    const { bootstrapAdmin } = await import('../src/lib/admin-bootstrap.ts');
    await bootstrapAdmin(stack.app, user.email, 'Ignored-Passw0rd');
    const login = await stack.call('POST', '/api/auth/login', { body: { email: user.email, password: user.password } });
    expect(login.status).toBe(200);
    expect((await json(login)).user.accountType).toBe('administrator');
  });
});
