import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFrom, json, type Stack, signupBody, startStack, verifiedUser } from './helpers/stack.ts';

// Verification and reset mails go out over real SMTP (the stack's in-process server) in the account's
// language, each with a text part and an HTML part.
let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});

afterAll(async () => {
  await stack?.close();
});

async function signup(overrides: Record<string, unknown>, headers: Record<string, string> = {}) {
  const body = signupBody(overrides);
  const res = await stack.call('POST', '/api/auth/signup', { body, headers });
  expect(res.status).toBe(201);
  return { body, mail: stack.lastMailTo(body.email) };
}

describe('verification mail', () => {
  it('is French, with a text and an HTML part, when the web app signs up in French', async () => {
    const { body, mail } = await signup({ language: 'fr', name: 'Émile <Zola>' });
    expect(mail.contentType).toMatch(/^multipart\/alternative/);
    const code = codeFrom(mail);
    expect(mail.subject).toBe(`Votre code de vérification : ${code}`);
    expect(mail.text).toContain('Bonjour Émile <Zola>,');
    expect(mail.text).toContain(`Votre code de vérification est ${code}.`);
    expect(mail.text).toContain('Il expire dans 15 minutes.');
    expect(mail.html).toContain('<html lang="fr">');
    expect(mail.html).toContain(`>${code}</p>`);
    // The name is the user's own text: escaped in HTML, never markup.
    expect(mail.html).toContain('Bonjour Émile &lt;Zola&gt;,');
    expect(mail.html).not.toContain('<Zola>');

    const userId = (await stack.db.selectFrom('users').select('id').where('email', '=', body.email).executeTakeFirstOrThrow()).id;
    const verify = await stack.call('POST', '/api/auth/verify', { body: { userId, verificationCode: code } });
    expect(verify.status).toBe(200);
    expect((await json(verify)).user.language).toBe('fr');
  });

  it('follows an API caller’s Accept-Language when the body names no language', async () => {
    const french = await signup({}, { 'accept-language': 'fr-CA,fr;q=0.9,en;q=0.8' });
    expect(french.mail.subject).toMatch(/^Votre code de vérification : \d{6}$/);
    expect(french.mail.html).toContain('<html lang="fr">');

    const german = await signup({}, { 'accept-language': 'de-DE,de;q=0.9,fr;q=0.8' });
    expect(german.mail.subject).toMatch(/^Your verification code: \d{6}$/);
    expect(german.mail.text).toContain('Hello Ada Lovelace,');
    expect(german.mail.html).toContain('<html lang="en">');

    // French ranked below English by q: English.
    const ranked = await signup({}, { 'accept-language': 'fr;q=0.4,en' });
    expect(ranked.mail.subject).toMatch(/^Your verification code/);

    // The body wins over the header.
    const chosen = await signup({ language: 'en' }, { 'accept-language': 'fr' });
    expect(chosen.mail.subject).toMatch(/^Your verification code/);
  });

  it('refuses a language the app is not written in', async () => {
    const res = await stack.call('POST', '/api/auth/signup', { body: signupBody({ language: 'de' }) });
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ code: 'VALIDATION_ERROR', message: 'language must be "en" or "fr"' });
  });
});

describe('profile language', () => {
  it('changes the language of the next mails (password reset, French, both parts)', async () => {
    const user = await verifiedUser(stack);
    const me = await stack.call('GET', '/api/auth/me', { token: user.token });
    expect((await json(me)).user.language).toBe('en');

    const changed = await stack.call('PATCH', '/api/auth/me', { token: user.token, body: { language: 'fr' } });
    expect(changed.status).toBe(200);
    expect((await json(changed)).user).toMatchObject({ email: user.email, language: 'fr' });

    const forgot = await stack.call('POST', '/api/auth/forgot-password', { body: { email: user.email } });
    expect(forgot.status).toBe(200);
    const mail = stack.lastMailTo(user.email);
    expect(mail.subject).toBe('Réinitialisez votre mot de passe');
    expect(mail.contentType).toMatch(/^multipart\/alternative/);
    const link = /http:\/\/app\.test\/reset-password\?token=[^\s]+/.exec(mail.text)?.[0];
    expect(link).toBeDefined();
    expect(mail.text).toContain('Ouvrez ce lien pour choisir un nouveau mot de passe');
    expect(mail.html).toContain(`href="${link}"`);
    expect(mail.html).toContain('Choisir un nouveau mot de passe');

    // And back (a second reset mail within the minute would be held back by the mail limit; resend is not).
    const back = await stack.call('PATCH', '/api/auth/me', { token: user.token, body: { language: 'en' } });
    expect((await json(back)).user.language).toBe('en');
  });

  it('needs a session token and a known language', async () => {
    const user = await verifiedUser(stack);
    const signedOut = await stack.call('PATCH', '/api/auth/me', { body: { language: 'fr' } });
    expect(signedOut.status).toBe(401);
    const withKey = await stack.call('PATCH', '/api/auth/me', { headers: { 'x-api-key': user.apiKey }, body: { language: 'fr' } });
    expect(withKey.status).toBe(403);
    const unknown = await stack.call('PATCH', '/api/auth/me', { token: user.token, body: { language: 'es' } });
    expect(unknown.status).toBe(400);
    const empty = await stack.call('PATCH', '/api/auth/me', { token: user.token, body: {} });
    expect(empty.status).toBe(400);
    expect((await json(empty)).message).toBe('language is required');
  });
});
