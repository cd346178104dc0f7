import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError, AuthInternalRoutes } from '@render/contracts';
import { isUnlimited, toSettledRender } from '@render/db';
import { requireInternalToken } from '@render/fastify-kit';
import {
  type CreditPolicy,
  creditLimitMessage,
  creditReturnsAt,
  creditRules,
  creditsShortMessage,
  planRules,
  windowStart,
} from '../lib/credits.ts';
import { keyFields } from '../lib/named-keys.ts';

/**
 * Service-to-service credit accounting for the gateway: reserve one credit before a render is queued,
 * settle it afterwards (charged on an image, released on any failure, so a failed render costs nothing).
 * Not forwarded from outside; needs X-Internal-Token.
 */
const internalCreditsRoutes: FastifyPluginAsyncTypebox<CreditPolicy> = async (app, policy) => {
  const { credits: ledger } = app.repositories;
  const rules = creditRules(policy);

  app.addHook('onRequest', requireInternalToken(app.internalToken));

  app.post('/internal/credits/reserve', { schema: AuthInternalRoutes.reserveCredit.schema }, async (request, reply) => {
    const { requestId, charged = [], kind, format, spares = [], ...account } = request.body;
    const byKey = 'apiKeyHash' in account;
    // The plan is read from the database at reserve time, so an upgrade applies to the very next call. Asked
    // by API key, this is also the key's verification: a revoked (regenerated) key finds no account.
    const result = await ledger.reserve(account, { requestId, kind, format }, rules, windowStart(), charged.map(toSettledRender), spares);
    if (result.ok) {
      const limit = isUnlimited(rules, result.owner) ? null : rules.limit;
      const { key, ...owner } = result.owner;
      if (key) await app.keyUse.record(key.keyId);
      return {
        reservationId: result.reservationId,
        ...owner,
        ...keyFields(key),
        remaining: result.remaining,
        limit,
        spares: result.spares,
      };
    }
    if (result.reason === 'unknown_user') {
      if (byKey) throw new AppError('UNAUTHORIZED', 'Invalid API key');
      throw new AppError('NOT_FOUND', 'Unknown account');
    }
    const returnsAt = result.oldestAt ? creditReturnsAt(result.oldestAt) : null;
    return reply.code(402).send({
      success: false,
      code: 'PAYMENT_REQUIRED',
      message: creditLimitMessage(returnsAt),
      // Asked by account id, the owner is the caller already; by API key it tells the gateway whose key it was.
      ...(byKey
        ? { owner: { userId: result.owner.userId, role: result.owner.role, plan: result.owner.plan, ...keyFields(result.owner.key) } }
        : {}),
      limit: rules.limit,
      ...(returnsAt ? { resetsAt: returnsAt.toISOString() } : {}),
    });
  });

  // A batch's credits, all or none, in one transaction (rather than one call per credit).
  app.post('/internal/credits/reserve-batch', { schema: AuthInternalRoutes.reserveCredits.schema }, async (request, reply) => {
    const { userId, requests, charged = [] } = request.body;
    const result = await ledger.reserveMany(userId, requests, rules, windowStart(), charged.map(toSettledRender));
    if (result.ok) return { reserved: result.reserved, remaining: result.remaining, limit: result.limit };
    if (result.reason === 'unknown_user') throw new AppError('NOT_FOUND', 'Unknown account');
    if (result.reason === 'taken') throw new AppError('CONFLICT', 'A request id of this batch is already another account’s');
    const returnsAt = result.oldestAt ? creditReturnsAt(result.oldestAt) : null;
    return reply.code(402).send({
      success: false,
      code: 'PAYMENT_REQUIRED',
      message: creditsShortMessage(result.needed, result.limit - result.used, returnsAt),
      limit: result.limit,
      ...(returnsAt ? { resetsAt: returnsAt.toISOString() } : {}),
    });
  });

  // The gateway's GET /api/limits (and so the web app's copy) learns the launch period here: one setting.
  app.get('/internal/plan-rules', { schema: AuthInternalRoutes.planRules.schema }, async () => planRules(policy));

  app.post('/internal/credits/settle', { schema: AuthInternalRoutes.settleCredit.schema }, async (request) => {
    const { outcome, ...render } = request.body;
    const row = await ledger.settle(render, outcome);
    // An unknown requestId is not an error: settle must be safe to repeat and to call after a lost reserve answer.
    return { status: row?.status === 'charged' || row?.status === 'released' ? row.status : null };
  });

  // The gateway's charges of a few milliseconds, in one UPDATE.
  app.post('/internal/credits/settle-batch', { schema: AuthInternalRoutes.settleCredits.schema }, async (request) => ({
    settled: await ledger.settleMany(request.body.requestIds.map(toSettledRender), request.body.outcome),
  }));
};

export default internalCreditsRoutes;
