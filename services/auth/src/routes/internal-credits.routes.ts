import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError, AuthInternalRoutes } from '@render/contracts';
import { requireInternalToken } from '@render/fastify-kit';
import { type CreditPolicy, creditLimit, creditLimitMessage, windowStart } from '../lib/credits.ts';

/**
 * Service-to-service credit accounting for the gateway: reserve one credit before a render is queued,
 * settle it afterwards (charged on an image, released on any failure, so a failed render costs nothing).
 * Not forwarded from outside; needs X-Internal-Token.
 */
const internalCreditsRoutes: FastifyPluginAsyncTypebox<CreditPolicy> = async (app, policy) => {
  const { credits: ledger } = app.repositories;

  app.addHook('onRequest', requireInternalToken(app.internalToken));

  app.post(
    '/internal/credits/reserve',
    {
      schema: AuthInternalRoutes.reserveCredit.schema,
    },
    async (request) => {
      const { userId, requestId } = request.body;
      // The plan is read from the database at reserve time, so an upgrade applies to the very next call.
      const result = await ledger.reserve(userId, requestId, (user) => creditLimit(user, policy), windowStart());
      if (!result.ok) {
        if (result.reason === 'unknown_user') throw new AppError('NOT_FOUND', 'Unknown account');
        throw new AppError('PAYMENT_REQUIRED', creditLimitMessage);
      }
      return { reservationId: result.reservationId };
    },
  );

  app.post(
    '/internal/credits/settle',
    {
      schema: AuthInternalRoutes.settleCredit.schema,
    },
    async (request) => {
      const row = await ledger.settle(request.body.requestId, request.body.outcome);
      // An unknown requestId is not an error: settle must be safe to repeat and to call after a lost reserve answer.
      return { status: row && row.status !== 'reserved' ? row.status : null };
    },
  );
};

export default internalCreditsRoutes;
