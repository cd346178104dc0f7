import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CreditLedgerRepository } from '@render/db';
import { Type } from '@sinclair/typebox';
import { CREDIT_WINDOW_DAYS, type CreditPolicy, creditLimit, windowStart } from '../lib/credits.ts';

const Nullable = <T extends ReturnType<typeof Type.Integer>>(schema: T) => Type.Union([schema, Type.Null()]);

export const UsageResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    /** Credits of the plan in the window; null when unlimited. */
    totalCredits: Nullable(Type.Integer()),
    used: Type.Integer(),
    limit: Nullable(Type.Integer()),
    remaining: Nullable(Type.Integer()),
    plan: Type.Union([Type.Literal('free'), Type.Literal('pro')]),
    window: Type.Object({ days: Type.Integer(), since: Type.String() }),
  }),
});

const usageRoutes: FastifyPluginAsyncTypebox<CreditPolicy> = async (app, policy) => {
  const ledger = new CreditLedgerRepository(app.db);

  app.get(
    '/api/auth/usage',
    {
      preHandler: app.authenticate,
      schema: { tags: ['auth'], summary: 'Credits used in the current rolling window', response: { 200: UsageResponse } },
    },
    async (request) => {
      const since = windowStart();
      const used = await ledger.countUsed(request.account.id, since);
      const limit = creditLimit(request.account, policy);
      return {
        success: true as const,
        data: {
          totalCredits: limit,
          used,
          limit,
          remaining: limit === null ? null : Math.max(0, limit - used),
          plan: request.account.plan,
          window: { days: CREDIT_WINDOW_DAYS, since: since.toISOString() },
        },
      };
    },
  );
};

export default usageRoutes;
