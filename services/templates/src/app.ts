import { dbPlugin, repositoriesPlugin } from '@render/db';
import {
  ajvOptions,
  clientErrorHandler,
  errorHandler,
  frameworkErrors,
  health,
  metrics,
  RequestLogController,
  requestIdOptions,
} from '@render/fastify-kit';
import { loggerOptions } from '@render/logger';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { sql } from 'kysely';
import type { TemplatesConfig } from './config.ts';
import viewer from './plugins/viewer.plugin.ts';
import chartShortUrlsRoutes from './routes/chart-short-urls.routes.ts';
import internalRoutes from './routes/internal.routes.ts';
import templatesRoutes from './routes/templates.routes.ts';

export function serverOptions(config: TemplatesConfig): FastifyServerOptions {
  return {
    logger: loggerOptions('templates', config.LOG_LEVEL),
    // One line per request, named by its X-Request-Id (the gateway's, which it sends along).
    logController: new RequestLogController(),
    bodyLimit: config.BODY_LIMIT_BYTES,
    ajv: ajvOptions,
    frameworkErrors,
    clientErrorHandler,
    // X-Request-Id: the caller's (validated) or a new one, in every log line and answer of the request.
    ...requestIdOptions,
  };
}

/** The templates service as one plugin: dependencies first, then routes. server.ts and the tests both register it. */
export default async function app(fastify: FastifyInstance, opts: { config: TemplatesConfig }) {
  const { config } = opts;
  await fastify.register(errorHandler);
  await fastify.register(dbPlugin, { url: config.DATABASE_URL });
  await fastify.register(repositoriesPlugin);
  // /metrics is served open: this service is reachable only inside the cluster (the gateway guards its own).
  await fastify.register(metrics, { service: 'templates' });
  await fastify.register(health, {
    checks: [
      {
        name: 'postgres',
        check: async () => {
          await sql`select 1`.execute(fastify.db);
        },
      },
    ],
  });
  await fastify.register(viewer, { internalToken: config.INTERNAL_TOKEN });
  await fastify.register(templatesRoutes);
  await fastify.register(internalRoutes);
  await fastify.register(chartShortUrlsRoutes, { ttlDays: config.CHART_SHORT_URL_TTL_DAYS });
}
