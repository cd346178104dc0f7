import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AccountRoutes, ApiKeyMessages, AppError, UsageLimits } from '@render/contracts';
import type { FastifyRequest } from 'fastify';
import { CREDIT_WINDOW_DAYS, type CreditPolicy, creditLimit, windowStart } from '../lib/credits.ts';
import { serveAccount } from '../lib/serve-account.ts';
import { dailySeries } from '../lib/usage-days.ts';

// Every usage call reads the account, so a script may ask with its API key as well as with a session.
const usageRoutes: FastifyPluginAsyncTypebox<CreditPolicy> = async (app, policy) => {
  const { credits: ledger, apiKeys } = app.repositories;
  const serve = serveAccount(app);

  /** The `keyId` filter, when one is asked for: one of the account's keys (revoked ones too: their renders stay), else 400. */
  async function ownKey(request: FastifyRequest): Promise<string | undefined> {
    const keyId = (request.query as { keyId?: string } | undefined)?.keyId;
    if (keyId === undefined) return undefined;
    if (!(await apiKeys.ownsKey(request.account.id, keyId))) throw new AppError('VALIDATION_ERROR', ApiKeyMessages.keyIdInvalid);
    return keyId;
  }

  serve(AccountRoutes.usage, async (request) => {
    const since = windowStart();
    const used = await ledger.countUsed(request.account.id, since, 'usage', await ownKey(request));
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
  });

  serve(AccountRoutes.usageDaily, async (request) => {
    const now = new Date();
    const since = windowStart(now);
    const counted = await ledger.dailyRenders(request.account.id, since, await ownKey(request));
    return { success: true as const, data: { since: since.toISOString(), days: dailySeries(since, now, counted) } };
  });

  serve(AccountRoutes.usageRecent, async (request) => {
    const limit = Number(request.query.limit ?? UsageLimits.recentDefault);
    const rows = await ledger.recentRenders(request.account.id, limit, await ownKey(request));
    return { success: true as const, data: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })) };
  });
};

export default usageRoutes;
