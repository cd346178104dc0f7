import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AccountRoutes, AppError, AuthMessages } from '@render/contracts';
import { sharedTake } from '@render/db';
import { sendError, userView } from '../lib/accounts.ts';
import { hashPassword, needsRehash, verifyPassword } from '../lib/passwords.ts';
import { serveAccount } from '../lib/serve-account.ts';
import { normaliseEmail } from '../lib/signup-rules.ts';

const sessionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { users } = app.repositories;
  const { loginPerAccount, loginPerIp } = app.rateLimits;
  // Compared against when the e-mail is unknown, so both failures take one scrypt's time.
  const dummyHash = await hashPassword('not-a-real-password-0');
  const serve = serveAccount(app);

  serve(AccountRoutes.login, async (request, reply) => {
    const email = normaliseEmail(request.body.email);
    // Both buckets are charged on every attempt: the IP one slows spraying many accounts, the account
    // one slows guessing one password from many addresses.
    const taken = sharedTake(await Promise.all([loginPerIp.take(request.ip), loginPerAccount.take(email)]));
    if (!taken.allowed) {
      throw new AppError('RATE_LIMITED', AuthMessages.tooManyLogins, undefined, {
        retryAfterSeconds: taken.retryAfterSeconds,
      });
    }

    const user = await users.findByEmail(email);
    const passwordOk = await verifyPassword(request.body.password, user?.password_hash ?? dummyHash);
    if (!user || !passwordOk) throw new AppError('UNAUTHORIZED', AuthMessages.invalidCredentials);
    // Only after the password matched, so this cannot be used to probe which e-mails are registered.
    if (user.status !== 'verified') return sendError(reply, 403, 'FORBIDDEN', AuthMessages.unverified, { userId: user.id });
    // The one moment the plain password is known: a hash made with older parameters is replaced.
    if (needsRehash(user.password_hash)) {
      await users.upgradePasswordHash(user.id, user.password_hash, await hashPassword(request.body.password));
    }
    return { success: true as const, message: AuthMessages.loginSuccess, token: app.issueToken(user), user: await userView(app, user) };
  });

  serve(AccountRoutes.me, async (request) => ({ success: true as const, user: await userView(app, request.account) }));

  serve(AccountRoutes.updateProfile, async (request) => {
    const updated = await users.updateLanguage(request.account.id, request.body.language);
    if (!updated) throw new AppError('UNAUTHORIZED', AuthMessages.invalidToken);
    return { success: true as const, user: await userView(app, updated) };
  });

  // The stored role, not the old claim, so a demotion takes effect on the next refresh.
  serve(AccountRoutes.refresh, async (request) => ({ success: true as const, token: app.issueToken(request.account) }));
};

export default sessionRoutes;
