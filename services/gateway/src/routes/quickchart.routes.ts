import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CompatRoutes } from '@render/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { imageRoute } from '../images/image-route.ts';
import { answerQuickChart, keyFromQuery } from '../images/quickchart-answer.ts';

/**
 * `GET /chart` and `POST /chart`: QuickChart's API over the chart pipeline (same queue, billing and limits
 * as `/api/chart-to-img/convert`, on the worker's QuickChart page). Short URLs: quickchart-short-urls.routes.ts.
 */
const quickChartRoutes: FastifyPluginAsyncTypebox = async (app) => {
  for (const method of ['GET', 'POST'] as const) {
    const options = imageRoute(app, method === 'GET' ? CompatRoutes.quickChartGet : CompatRoutes.quickChartPost, 'chart');
    const onRequest = [keyFromQuery, ...(options.onRequest ? [options.onRequest] : [])];
    app.route({
      method,
      url: CompatRoutes.quickChartGet.url,
      ...options,
      onRequest,
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const query = (request.query ?? {}) as Record<string, unknown>;
        const params = method === 'GET' ? query : { ...query, ...((request.body ?? {}) as Record<string, unknown>) };
        return answerQuickChart(app as unknown as FastifyInstance, request, reply, params);
      },
    } as never);
  }
};

export default quickChartRoutes;
