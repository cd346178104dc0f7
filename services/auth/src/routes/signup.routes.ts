import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AccountRoutes, AppError, AuthMessages } from '@render/contracts';
import { takeAllShared } from '@render/db';
import { safeEqual } from '@render/fastify-kit';
import {
  CODE_MAX_ATTEMPTS,
  issueVerificationCode,
  mailVerificationCode,
  rotateApiKey,
  sendError,
  userView,
  verificationCodeHash,
} from '../lib/accounts.ts';
import { languageFromAcceptLanguage } from '../lib/languages.ts';
import { hashPassword } from '../lib/passwords.ts';
import { serveAccount } from '../lib/serve-account.ts';
import { checkName, checkNewPassword, checkPlannedServices, normaliseEmail } from '../lib/signup-rules.ts';

const signupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { users, emailCodes: codes } = app.repositories;
  const { mailPerMinute, mailPerHour } = app.rateLimits;
  const serve = serveAccount(app);

  serve(AccountRoutes.signup, async (request, reply) => {
    const body = request.body;
    const name = checkName(body.name);
    const email = normaliseEmail(body.email);
    checkNewPassword(body.password, body.confirmPassword);
    const plannedServices = checkPlannedServices(body.plannedServices);

    // Cheap pre-check so a duplicate does not cost a password hash; the unique index still decides races.
    if (await users.findByEmail(email)) return sendError(reply, 409, 'CONFLICT', AuthMessages.emailTaken);
    const passwordHash = await hashPassword(body.password);

    const created = await app.repositories.transaction(async (trx) => {
      const user = await trx.users.create({
        name,
        email,
        password_hash: passwordHash,
        company: body.company?.trim() || null,
        usage_source: body.usageSource,
        referral_source: body.referralSource,
        planned_services: plannedServices,
        // The web app sends its language; an API caller is written to in the one its Accept-Language ranks first.
        language: body.language ?? languageFromAcceptLanguage(request.headers['accept-language']),
      });
      if (!user) return undefined;
      await rotateApiKey(trx, app.apiKeyCipher, user.id);
      return { user, code: await issueVerificationCode(trx, user.id) };
    });
    if (!created) return sendError(reply, 409, 'CONFLICT', AuthMessages.emailTaken);

    // The sign-up mail counts against the resend limit, so "resend" right after sign-up waits a minute.
    await takeAllShared(email, mailPerMinute, mailPerHour);
    await mailVerificationCode(app, created.user, created.code);
    return reply.status(201).send({ success: true as const, message: AuthMessages.registered, userId: created.user.id });
  });

  serve(AccountRoutes.verify, async (request) => {
    const { userId, verificationCode } = request.body;
    const user = await users.findById(userId);
    if (!user) throw new AppError('VALIDATION_ERROR', AuthMessages.codeExpired);
    if (user.status === 'verified') throw new AppError('VALIDATION_ERROR', AuthMessages.alreadyVerified);

    const code = await codes.findCurrent(user.id, 'verify');
    if (!code || code.expires_at.getTime() <= Date.now()) throw new AppError('VALIDATION_ERROR', AuthMessages.codeExpired);
    if (code.attempts >= CODE_MAX_ATTEMPTS) throw new AppError('VALIDATION_ERROR', AuthMessages.codeLocked);

    if (!safeEqual(verificationCodeHash(user.id, verificationCode.trim()), code.code_hash)) {
      const attempts = await codes.recordFailedAttempt(code.id);
      const left = CODE_MAX_ATTEMPTS - attempts;
      if (left <= 0) throw new AppError('VALIDATION_ERROR', AuthMessages.codeLocked);
      throw new AppError('VALIDATION_ERROR', `Invalid verification code. ${left} attempt${left === 1 ? '' : 's'} left.`);
    }
    // A concurrent request with the same code may have won; only one of them signs in.
    if (!(await codes.consume(code.id))) throw new AppError('VALIDATION_ERROR', AuthMessages.codeExpired);
    const verified = (await users.markVerified(user.id)) ?? user;
    return {
      success: true as const,
      message: AuthMessages.verified,
      token: app.issueToken(verified),
      user: await userView(app, verified),
    };
  });

  serve(AccountRoutes.resendVerification, async (request) => {
    const email = normaliseEmail(request.body.email);
    // Limited per address whether or not an account exists, so the 429 reveals nothing either.
    const taken = await takeAllShared(email, mailPerMinute, mailPerHour);
    if (!taken.allowed)
      throw new AppError('RATE_LIMITED', AuthMessages.tooManyRequests, undefined, { retryAfterSeconds: taken.retryAfterSeconds });
    const user = await users.findByEmail(email);
    if (user && user.status === 'pending') {
      const code = await issueVerificationCode(app.repositories, user.id);
      await mailVerificationCode(app, user, code);
    }
    return { success: true as const, message: AuthMessages.resendSent };
  });
};

export default signupRoutes;
