import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NoCredentials, PingResponse } from '@render/contracts';

const pingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/ping',
    { schema: { tags: ['system'], security: NoCredentials, summary: 'Liveness check', response: { 200: PingResponse } } },
    async () => ({
      success: true as const,
      message: 'pong',
      time: new Date().toISOString(),
    }),
  );
};

export default pingRoutes;
