import { randomBytes, scryptSync } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  codeFrom,
  expectRegistered,
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
  stack = await startStack();
});

afterAll(async () => {
  await stack?.close();
});

describe('signup → mail → verify → login → me → refresh', () => {
  it('runs the whole flow over HTTP with the code read from the mail', async () => {
    const body = signupBody({ email: `Grace.Hopper-${Date.now()}@Example.COM` });
    const email = body.email.toLowerCase();
    const signup = await stack.call('POST', '/api/auth/signup', { body });
    const created = await expectRegistered(signup);

    const mail = stack.lastMailTo(email);
    const code = codeFrom(mail);
    expect(mail.subject).toContain(code);

    // Pending accounts cannot log in yet; the answer carries the userId so the app can go to /verify.
    const early = await stack.call('POST', '/api/auth/login', { body: { email, password: STRONG_PASSWORD } });
    expect(early.status).toBe(403);
    expect(early.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(await json(early)).toEqual({
      success: false,
      message: 'Please verify your email before logging in',
      code: 'FORBIDDEN',
      // The sentence's stable id: the web app translates by it (packages/contracts message-catalog.ts).
      messageId: 'auth.unverified',
      userId: created.userId,
      type: '/docs?tab=errors#forbidden',
      title: 'Forbidden',
      status: 403,
      detail: 'Please verify your email before logging in',
      instance: '/api/auth/login',
      requestId: early.headers.get('x-request-id'),
    });

    const verify = await stack.call('POST', '/api/auth/verify', { body: { userId: created.userId, verificationCode: code } });
    expect(verify.status).toBe(200);
    const verified = await json(verify);
    expect(verified.success).toBe(true);
    expect(verified.token).toEqual(expect.any(String));
    expect(verified.user).toMatchObject({ id: created.userId, email, verificationStatus: 'verified', accountType: 'regular' });

    // The code is single use.
    const again = await stack.call('POST', '/api/auth/verify', { body: { userId: created.userId, verificationCode: code } });
    expect(again.status).toBe(400);

    // Login is case-insensitive on the e-mail.
    const login = await stack.call('POST', '/api/auth/login', { body: { email: email.toUpperCase(), password: STRONG_PASSWORD } });
    expect(login.status).toBe(200);
    const session = await json(login);
    expect(session).toMatchObject({ success: true, message: 'Login successful!', token: expect.any(String) });

    const me = await stack.call('GET', '/api/auth/me', { token: session.token });
    expect(me.status).toBe(200);
    const { user } = await json(me);
    expect(user).toEqual({
      id: created.userId,
      name: 'Ada Lovelace',
      email,
      company: 'Analytical Engines Ltd',
      accountType: 'regular',
      verificationStatus: 'verified',
      memberSince: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      apiKey: expect.stringMatching(/^rk_live_[A-Za-z0-9_-]{43}$/),
      plan: 'free',
      language: 'en',
      renderLinksSignedOnly: false,
    });

    const refresh = await stack.call('POST', '/api/auth/refresh', { token: session.token });
    expect(refresh.status).toBe(200);
    const { token } = await json(refresh);
    const meAgain = await stack.call('GET', '/api/auth/me', { token });
    expect(meAgain.status).toBe(200);
    expect((await json(meAgain)).user.id).toBe(created.userId);

    // Stored hashed and encrypted, never in clear.
    const row = await stack.db.selectFrom('users').select(['password_hash']).where('id', '=', created.userId).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$131072\$8\$1\$/);
    const key = await stack.db.selectFrom('api_keys').select(['key_ciphertext', 'key_hash', 'prefix']).executeTakeFirstOrThrow();
    expect(key.key_ciphertext).not.toContain('rk_live_');
    expect(key.key_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('password hashes made with older parameters', () => {
  // What this service stored before OWASP's parameters were adopted: scrypt N=2^15, r=8, p=1.
  const legacyHash = (password: string) => {
    const salt = randomBytes(16);
    const hash = scryptSync(password.normalize('NFKC'), salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    return ['scrypt', 2 ** 15, 8, 1, salt.toString('base64'), hash.toString('base64')].join('$');
  };
  const storedHash = async (userId: string) =>
    (await stack.db.selectFrom('users').select(['password_hash']).where('id', '=', userId).executeTakeFirstOrThrow()).password_hash;

  it('still sign in, and the successful login replaces the hash; a wrong password never does', async () => {
    const user = await verifiedUser(stack);
    const old = legacyHash(STRONG_PASSWORD);
    await stack.db.updateTable('users').set({ password_hash: old }).where('id', '=', user.userId).execute();

    for (const password of ['Wr0ngPassword', `${STRONG_PASSWORD} `, STRONG_PASSWORD.toLowerCase()]) {
      const wrong = await stack.call('POST', '/api/auth/login', { body: { email: user.email, password } });
      expect(wrong.status).toBe(401);
      expect(await storedHash(user.userId)).toBe(old);
    }

    const login = await stack.call('POST', '/api/auth/login', { body: { email: user.email, password: STRONG_PASSWORD } });
    expect(login.status).toBe(200);
    const upgraded = await storedHash(user.userId);
    expect(upgraded).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);

    // An upgrade is not a password change: the session issued before it still works.
    expect((await stack.call('GET', '/api/auth/me', { token: user.token })).status).toBe(200);
    // The new hash verifies the same password (and only it), and is not replaced again.
    const again = await stack.call('POST', '/api/auth/login', { body: { email: user.email, password: STRONG_PASSWORD } });
    expect(again.status).toBe(200);
    expect(await storedHash(user.userId)).toBe(upgraded);
    expect((await stack.call('POST', '/api/auth/login', { body: { email: user.email, password: 'Wr0ngPassword' } })).status).toBe(401);
  });

  it('an unverified account is not upgraded before it can sign in', async () => {
    const body = signupBody();
    const signup = await stack.call('POST', '/api/auth/signup', { body });
    const { userId } = await json(signup);
    const old = legacyHash(STRONG_PASSWORD);
    await stack.db.updateTable('users').set({ password_hash: old }).where('id', '=', userId).execute();
    const login = await stack.call('POST', '/api/auth/login', { body: { email: body.email, password: STRONG_PASSWORD } });
    expect(login.status).toBe(403);
    expect(await storedHash(userId)).toBe(old);
  });
});

describe('signup validation (docs/spec/validation.md messages from the server)', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['missing name', { name: undefined }, 'Name is required'],
    ['blank name', { name: '   ' }, 'Name is required'],
    ['short name', { name: 'A' }, 'Name must be at least 2 characters'],
    ['missing email', { email: undefined }, 'Email is required'],
    ['empty email', { email: '' }, 'Email is required'],
    ['invalid email', { email: 'not-an-email' }, 'Invalid email address'],
    ['missing password', { password: undefined }, 'Password is required'],
    ['empty password', { password: '' }, 'Password is required'],
    ['short password', { password: 'Ab1', confirmPassword: 'Ab1' }, 'Password must be at least 8 characters'],
    [
      'weak password',
      { password: 'alllowercase1', confirmPassword: 'alllowercase1' },
      'Password must contain at least one uppercase letter, one lowercase letter, and one number',
    ],
    ['missing confirmation', { confirmPassword: undefined }, 'Please confirm your password'],
    ['empty confirmation', { confirmPassword: '' }, 'Please confirm your password'],
    ['mismatch', { confirmPassword: 'Different1' }, 'Passwords must match'],
    ['missing usage source', { usageSource: undefined }, 'Please select how you plan to use our service'],
    ['unknown usage source', { usageSource: 'hobby' }, 'Please select how you plan to use our service'],
    ['missing referral', { referralSource: undefined }, 'Please select how you heard about us'],
    ['unknown referral', { referralSource: 'tv' }, 'Please select how you heard about us'],
    ['missing services', { plannedServices: undefined }, 'Please select at least one service you plan to use'],
    ['empty services', { plannedServices: [] }, 'Please select at least one service you plan to use'],
    ['unknown service', { plannedServices: ['pdf2img'] }, 'Please select at least one service you plan to use'],
    ['missing terms', { acceptTerms: undefined }, 'You must agree to the terms and conditions'],
    ['declined terms', { acceptTerms: false }, 'You must agree to the terms and conditions'],
  ];

  it.each(cases)('%s → 400 "%s"', async (_label, overrides, message) => {
    const body = JSON.parse(JSON.stringify(signupBody(overrides)));
    const res = await stack.call('POST', '/api/auth/signup', { body });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    const answer = (await json(res)) as { errors?: unknown };
    expect(answer).toEqual({
      success: false,
      message,
      code: 'VALIDATION_ERROR',
      messageId: expect.stringMatching(/^auth\.[a-zA-Z]+$/),
      type: '/docs?tab=errors#validation-error',
      title: 'Invalid request',
      status: 400,
      detail: message,
      instance: '/api/auth/signup',
      requestId: res.headers.get('x-request-id'),
      // A field the schema refuses is listed (with the same sentence); the signup rules checked after it say only the message.
      ...(answer.errors ? { errors: [{ field: expect.any(String), message, messageId: expect.stringMatching(/^auth\./) }] } : {}),
    });
  });

  it('accepts every spec enum value and no company', async () => {
    const res = await stack.call('POST', '/api/auth/signup', {
      body: signupBody({
        company: undefined,
        usageSource: 'education',
        referralSource: 'advertisement',
        plannedServices: ['html2img', 'svg2img', 'website_screenshots', 'code2img', 'chartjs2img', 'd3_charts2img', 'highcharts2img'],
      }),
    });
    expect(res.status).toBe(201);
  });

  it('refuses a duplicate e-mail (any case) with 409', async () => {
    const email = uniqueEmail('dup');
    expect((await stack.call('POST', '/api/auth/signup', { body: signupBody({ email }) })).status).toBe(201);
    const dup = await stack.call('POST', '/api/auth/signup', { body: signupBody({ email: email.toUpperCase() }) });
    expect(dup.status).toBe(409);
    expect(await json(dup)).toMatchObject({ success: false, message: 'An account with this email already exists' });
  });
});

describe('verification codes', () => {
  async function pendingUser() {
    const body = signupBody();
    const res = await stack.call('POST', '/api/auth/signup', { body });
    const { userId } = await json(res);
    return { userId: userId as string, email: body.email, code: codeFrom(stack.lastMailTo(body.email)) };
  }

  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  it('counts wrong codes and locks after 5 attempts', async () => {
    const { userId, code } = await pendingUser();
    for (let left = 4; left >= 1; left--) {
      const res = await stack.call('POST', '/api/auth/verify', { body: { userId, verificationCode: wrong(code) } });
      expect(res.status).toBe(400);
      expect((await json(res)).message).toBe(`Invalid verification code. ${left} attempt${left === 1 ? '' : 's'} left.`);
    }
    const fifth = await stack.call('POST', '/api/auth/verify', { body: { userId, verificationCode: wrong(code) } });
    expect((await json(fifth)).message).toBe('Too many incorrect attempts. Please request a new verification code.');
    // Even the right code no longer works once the attempts are used up.
    const right = await stack.call('POST', '/api/auth/verify', { body: { userId, verificationCode: code } });
    expect(right.status).toBe(400);
    expect((await json(right)).message).toBe('Too many incorrect attempts. Please request a new verification code.');
  });

  it('refuses an expired code', async () => {
    const { userId, code } = await pendingUser();
    await stack.db
      .updateTable('email_codes')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', userId)
      .execute();
    const res = await stack.call('POST', '/api/auth/verify', { body: { userId, verificationCode: code } });
    expect(res.status).toBe(400);
    expect((await json(res)).message).toBe('This verification code has expired. Please request a new one.');
  });

  it('resend: generic 200, new code works and replaces the old one, rate-limited per e-mail', async () => {
    const { userId, email, code } = await pendingUser();
    // Sign-up just sent a mail, so an immediate resend is over the 1-per-minute limit.
    const tooSoon = await stack.call('POST', '/api/auth/resend-verification', { body: { email } });
    expect(tooSoon.status).toBe(429);
    expect(await json(tooSoon)).toMatchObject({ success: false, code: 'RATE_LIMITED' });
    // One mail a minute: the next is due within the minute.
    expect(Number(tooSoon.headers.get('retry-after'))).toBeGreaterThan(50);
    expect(Number(tooSoon.headers.get('retry-after'))).toBeLessThanOrEqual(60);

    // Unknown addresses get the same answer as known ones.
    const unknown = await stack.call('POST', '/api/auth/resend-verification', { body: { email: uniqueEmail('ghost') } });
    expect(unknown.status).toBe(200);
    const generic = await json(unknown);

    // Let the minute pass for this address: its per-minute bucket (a shared row in Postgres) ages 61 s.
    const aged = await stack.db
      .updateTable('rate_limit_buckets')
      .set({ updated_at: sql<Date>`updated_at - interval '61 seconds'` })
      .where('key', 'like', `mail:minute:%:${email}`)
      .executeTakeFirst();
    expect(Number(aged.numUpdatedRows)).toBe(1);
    const sentBefore = stack.inbox.length;
    const resend = await stack.call('POST', '/api/auth/resend-verification', { body: { email } });
    expect(resend.status).toBe(200);
    expect(await json(resend)).toEqual(generic);
    expect(stack.inbox.length).toBe(sentBefore + 1);
    const newCode = codeFrom(stack.lastMailTo(email));

    if (newCode !== code) {
      const old = await stack.call('POST', '/api/auth/verify', { body: { userId, verificationCode: code } });
      expect(old.status).toBe(400);
    }
    const ok = await stack.call('POST', '/api/auth/verify', { body: { userId, verificationCode: newCode } });
    expect(ok.status).toBe(200);
  });
});
