import { postgresCheck, registerPostgres } from '@render/db';
import { registerInternalServiceBase, serviceServerOptions } from '@render/fastify-kit';
import { loggerOptions } from '@render/logger';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { TemplatesConfig } from './config.ts';
import viewer from './plugins/viewer.plugin.ts';
import chartShortUrlsRoutes from './routes/chart-short-urls.routes.ts';
import internalRoutes from './routes/internal.routes.ts';
import templatesRoutes from './routes/templates.routes.ts';

// Each log line is named by the request's X-Request-Id (the gateway's, which it sends along).
export const serverOptions = (config: TemplatesConfig): FastifyServerOptions =>
  serviceServerOptions({ logger: loggerOptions('templates', config.LOG_LEVEL), bodyLimit: config.BODY_LIMIT_BYTES });

/** The templates service as one plugin: dependencies first, then routes. server.ts and the tests both register it. */
export default async function app(fastify: FastifyInstance, opts: { config: TemplatesConfig }) {
  const { config } = opts;
  await registerInternalServiceBase(fastify, { service: 'templates', checks: [postgresCheck(fastify)] });
  await registerPostgres(fastify, config.DATABASE_URL);
  await fastify.register(viewer, { internalToken: config.INTERNAL_TOKEN });
  await fastify.register(templatesRoutes);
  await fastify.register(internalRoutes);
  await fastify.register(chartShortUrlsRoutes, { ttlDays: config.CHART_SHORT_URL_TTL_DAYS });
}
