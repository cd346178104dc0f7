import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { UsersRepository } from '@render/db';
import { AdminStatsResponse } from '../contracts/auth.contracts.ts';

const adminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const users = new UsersRepository(app.db);

  app.get(
    '/api/admin/stats',
    { preHandler: app.requireAdmin, schema: { tags: ['admin'], summary: 'Platform overview', response: { 200: AdminStatsResponse } } },
    async () => {
      const counts = await users.signupCounts();
      return {
        success: true as const,
        stats: {
          totalUsers: counts.total,
          newUsers: { last24h: counts.last24h, last7d: counts.last7d, last30d: counts.last30d },
          // Generation counts come from the usage ledger, which arrives with the credits work; zero until then.
          totalGenerations: 0,
          generations: { last24h: 0, last7d: 0, last30d: 0 },
        },
      };
    },
  );
};

export default adminRoutes;
