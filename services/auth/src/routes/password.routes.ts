import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AccountRoutes, AppError, AuthMessages } from '@render/contracts';
import { takeAllShared } from '@render/db';
import { resetMail } from '../lib/account-mails.ts';
import { RESET_TTL_MS } from '../lib/accounts.ts';
import { hashPassword } from '../lib/passwords.ts';
import { newResetToken, sha256 } from '../lib/secrets.ts';
import { serveAccount } from '../lib/serve-account.ts';
import { checkNewPassword, normaliseEmail } from '../lib/signup-rules.ts';

const passwordRoutes: FastifyPluginAsyncTypebox<{ appUrl: string }> = async (app, opts) => {
  const { users, passwordResets: resets } = app.repositories;
  const { mailPerMinute, mailPerHour } = app.rateLimits;

  const serve = serveAccount(app);

  serve(AccountRoutes.forgotPassword, async (request) => {
    const email = normaliseEmail(request.body.email);
    const user = await users.findByEmail(email);
    // Over the limit the mail is silently skipped: a 429 here would differ from the generic answer
    // and the point of the limit is only to stop someone flooding a mailbox.
    if (user && (await takeAllShared(`reset:${email}`, mailPerMinute, mailPerHour)).allowed) {
      const token = newResetToken();
      await resets.create({ userId: user.id, tokenHash: sha256(token), expiresAt: new Date(Date.now() + RESET_TTL_MS) });
      const link = `${opts.appUrl.replace(/\/$/, '')}/reset-password?token=${encodeURIComponent(token)}`;
      await app.mailer
        .send(resetMail(user, link))
        .catch((err: Error) => app.log.error({ err: err.message }, 'could not send the password reset e-mail'));
    }
    return { success: true as const, message: AuthMessages.resetRequested };
  });

  serve(AccountRoutes.resetPassword, async (request) => {
    const { token, password, confirmPassword } = request.body;
    // Checked before the token is spent, so a weak password does not burn the link.
    checkNewPassword(password, confirmPassword);
    const passwordHash = await hashPassword(password);
    const reset = await resets.consumeValid(sha256(token));
    if (!reset) throw new AppError('VALIDATION_ERROR', AuthMessages.resetInvalid);
    await users.updatePasswordHash(reset.user_id, passwordHash);
    return { success: true as const, message: AuthMessages.resetDone };
  });
};

export default passwordRoutes;
