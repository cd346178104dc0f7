import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AccountRoutes } from '@render/contracts';
import { serveAccount } from '../lib/serve-account.ts';

const adminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { users, credits: ledger } = app.repositories;

  serveAccount(app)(AccountRoutes.adminStats, async () => {
    const [counts, generations] = await Promise.all([users.signupCounts(), ledger.generationCounts()]);
    return {
      success: true as const,
      stats: {
        totalUsers: counts.total,
        newUsers: { last24h: counts.last24h, last7d: counts.last7d, last30d: counts.last30d },
        // A generation is a successful conversion by an account (a charged ledger row); demo calls without
        // an API key are not counted here.
        totalGenerations: generations.total,
        generations: { last24h: generations.last24h, last7d: generations.last7d, last30d: generations.last30d },
      },
    };
  });
};

export default adminRoutes;
