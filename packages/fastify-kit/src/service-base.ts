import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { ajvOptions } from './ajv.ts';
import errorHandler from './error-handler.plugin.ts';
import { clientErrorHandler, frameworkErrors } from './framework-errors.ts';
import health, { type HealthCheck } from './health.plugin.ts';
import metrics from './metrics.plugin.ts';
import { requestIdOptions } from './request-id.ts';
import { RequestLogController, type RequestLogOptions } from './request-log.ts';

export interface ServiceServerOptions {
  /** The service's pino options (`@render/logger`'s `loggerOptions`). */
  logger: FastifyServerOptions['logger'];
  bodyLimit: number;
  /** Requests whose successes are logged at debug (see `RequestLogController`). */
  quiet?: RequestLogOptions['quiet'];
}

/** The Fastify options every service starts from; a service adds its own (timeouts, proxy trust) after them. */
export function serviceServerOptions({ logger, bodyLimit, quiet }: ServiceServerOptions): FastifyServerOptions {
  return {
    logger,
    // One line per request instead of Fastify's two.
    logController: new RequestLogController({ quiet }),
    bodyLimit,
    ajv: ajvOptions,
    frameworkErrors,
    clientErrorHandler,
    // X-Request-Id: the caller's (validated) or a new one, in every log line and answer of the request.
    ...requestIdOptions,
  };
}

/**
 * The first plugins of a service only the gateway talks to: the error handler, then /metrics and /health.
 * /metrics is served open: such a service is reachable only inside the cluster (the gateway guards its own).
 */
export async function registerInternalServiceBase(fastify: FastifyInstance, opts: { service: string; checks: HealthCheck[] }) {
  await fastify.register(errorHandler);
  await fastify.register(metrics, { service: opts.service });
  await fastify.register(health, { checks: opts.checks });
}
