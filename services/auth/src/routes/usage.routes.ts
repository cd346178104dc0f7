import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { UsageResponse } from '@render/contracts';
import { CREDIT_WINDOW_DAYS, type CreditPolicy, creditLimit, windowStart } from '../lib/credits.ts';

const usageRoutes: FastifyPluginAsyncTypebox<CreditPolicy> = async (app, policy) => {
  const { credits: ledger } = app.repositories;

  app.get(
    '/api/auth/usage',
    {
      preHandler: app.authenticateReader,
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
