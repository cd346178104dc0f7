import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '@render/contracts';
import { CreditLedgerRepository } from '@render/db';
import { requireInternalToken } from '@render/fastify-kit';
import { Type } from '@sinclair/typebox';
import { type CreditPolicy, creditLimit, creditLimitMessage, windowStart } from '../lib/credits.ts';

const RequestId = Type.String({ minLength: 1, maxLength: 200 });

const ReserveBody = Type.Object(
  // A pattern rather than format: a malformed id must be a 400, not a Postgres cast error.
  {
    userId: Type.String({ pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' }),
    requestId: RequestId,
  },
  { additionalProperties: false },
);
const SettleBody = Type.Object(
  { requestId: RequestId, outcome: Type.Union([Type.Literal('charged'), Type.Literal('released')]) },
  { additionalProperties: false },
);

/**
 * Service-to-service credit accounting for the gateway: reserve one credit before a render is queued,
 * settle it afterwards (charged on an image, released on any failure, so a failed render costs nothing).
 * Not forwarded from outside; needs X-Internal-Token.
 */
const internalCreditsRoutes: FastifyPluginAsyncTypebox<CreditPolicy> = async (app, policy) => {
  const ledger = new CreditLedgerRepository(app.db);

  app.addHook('onRequest', requireInternalToken(app.internalToken));

  app.post(
    '/internal/credits/reserve',
    {
      schema: {
        tags: ['internal'],
        summary: 'Reserve one credit for a render (idempotent per requestId)',
        body: ReserveBody,
        response: { 200: Type.Object({ reservationId: Type.String() }) },
      },
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
      schema: {
        tags: ['internal'],
        summary: 'Charge or release a reservation (idempotent)',
        body: SettleBody,
        response: { 200: Type.Object({ status: Type.Union([Type.Literal('charged'), Type.Literal('released'), Type.Null()]) }) },
      },
    },
    async (request) => {
      const row = await ledger.settle(request.body.requestId, request.body.outcome);
      // An unknown requestId is not an error: settle must be safe to repeat and to call after a lost reserve answer.
      return { status: row && row.status !== 'reserved' ? row.status : null };
    },
  );
};

export default internalCreditsRoutes;
