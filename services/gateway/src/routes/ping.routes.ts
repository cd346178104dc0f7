import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SystemRoutes } from '@render/contracts';

const pingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ping } = SystemRoutes;
  app.get(ping.url, { schema: ping.schema }, async () => ({
    success: true as const,
    message: 'pong',
    time: new Date().toISOString(),
  }));
};

export default pingRoutes;
