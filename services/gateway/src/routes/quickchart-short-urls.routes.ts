import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError, CompatRoutes, QuickChartShortIdPattern, routePath } from '@render/contracts';
import { guardFor } from '@render/fastify-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { quickChartSettingsOf, withOverrides } from '../convert/quickchart-request.ts';
import { imageRoute } from '../images/image-route.ts';
import { answerQuickChart, keyFromQuery, withQuickChartError } from '../images/quickchart-answer.ts';

const { quickChartCreate, quickChartRender } = CompatRoutes;
const SHORT_ID = new RegExp(QuickChartShortIdPattern);

const notFound = () =>
  new AppError('NOT_FOUND', 'Chart not found: this short URL does not exist or has expired (create a new one with POST /chart/create)');

const paramsOf = (request: FastifyRequest) => ({
  ...((request.query ?? {}) as Record<string, unknown>),
  ...((request.body ?? {}) as Record<string, unknown>),
});

/** Where the short URL is served: this server as the caller reached it (X-Forwarded-* from trusted proxies). */
const shortUrlOf = (request: FastifyRequest, id: string) =>
  `${request.protocol}://${request.host}${routePath(quickChartRender.url, { id })}`;

/**
 * QuickChart's short URLs. `POST /chart/create` checks the parameters as `/chart` does and has the templates
 * service keep them (no render, no credit); `GET /chart/render/{id}` reads them back, applies the query's
 * overrides and renders exactly as `GET /chart` (queue, limits, billing, errors).
 */
const quickChartShortUrlsRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const app = fastify as unknown as FastifyInstance;
  const createGuard = guardFor({ hook: 'onRequest', rules: { anyone: app.identity.identifyUnbilled } }, quickChartCreate);

  async function create(request: FastifyRequest, reply: FastifyReply) {
    return withQuickChartError(reply, async () => {
      const settings = quickChartSettingsOf(paramsOf(request));
      const owner = request.caller?.kind === 'account' ? request.caller.userId : undefined;
      const { id } = await app.templatesClient.createChartShortUrl(settings, owner, request.id);
      return { success: true as const, url: shortUrlOf(request, id) };
    });
  }

  /** The stored request with the query's overrides; 404 for an id that is unknown, expired, or could not be one. */
  async function storedParams(request: FastifyRequest): Promise<Record<string, unknown>> {
    const { id } = request.params as { id: string };
    if (!SHORT_ID.test(id)) throw notFound();
    const stored = await app.templatesClient.chartShortUrl(id, request.id);
    return withOverrides(stored.request, (request.query ?? {}) as Record<string, unknown>);
  }

  app.route({
    method: 'POST',
    url: quickChartCreate.url,
    schema: quickChartCreate.schema,
    onRequest: [keyFromQuery, ...(createGuard ? [createGuard] : [])],
    handler: create,
  });

  const renderOptions = imageRoute(fastify, quickChartRender, 'chart');
  app.route({
    method: 'GET',
    url: quickChartRender.url,
    ...renderOptions,
    onRequest: [keyFromQuery, ...(renderOptions.onRequest ? [renderOptions.onRequest] : [])],
    handler: (request: FastifyRequest, reply: FastifyReply) => answerQuickChart(app, request, reply, storedParams(request)),
  } as never);
};

export default quickChartShortUrlsRoutes;
