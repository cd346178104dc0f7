import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/** @fastify/swagger's flag: kept out of the OpenAPI document (these are for orchestrators, not API users). */
const hidden = { hide: true } as FastifySchema;

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's one Prometheus registry; services register their own metrics on it. */
    metrics: Registry;
  }
}

export interface MetricsOptions {
  /** Label `service` added to every metric. */
  service: string;
  /**
   * onRequest guard for `GET /metrics` (e.g. `requireInternalToken(token)`); none, it is open (services
   * that only the cluster reaches).
   */
  guard?: (request: FastifyRequest) => Promise<void>;
}

/** Request durations in seconds: sub-millisecond cached answers up to renders near their deadline. */
export const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * One registry per process with Node's default metrics and `http_request_duration_seconds` (route pattern,
 * never the raw URL: unknown paths are `unmatched`), served as Prometheus text at `GET /metrics`.
 */
async function metricsPlugin(app: FastifyInstance, opts: MetricsOptions) {
  const registry = new Registry();
  registry.setDefaultLabels({ service: opts.service });
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route pattern, method and status code',
    labelNames: ['route', 'method', 'status_code'] as const,
    buckets: HTTP_BUCKETS,
    registers: [registry],
  });
  app.decorate('metrics', registry);

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    if (route === '/metrics') return;
    duration.observe({ route, method: request.method, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });

  app.get('/metrics', { schema: hidden, ...(opts.guard ? { onRequest: opts.guard } : {}) }, async (_request, reply) => {
    const text = await registry.metrics();
    return reply.header('content-type', registry.contentType).header('cache-control', 'no-store').send(text);
  });
}

export default fp(metricsPlugin, { name: 'metrics', fastify: '5.x' });
