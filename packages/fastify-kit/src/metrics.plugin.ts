import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/** @fastify/swagger's flag: kept out of the OpenAPI document (these are for orchestrators, not API users). */
const hidden = { hide: true } as FastifySchema;

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's one Prometheus registry; services register their own metrics on it. */
    metrics: Registry;
    /** The port of the separate metrics listener (`MetricsOptions.port`), once it listens; else undefined. */
    metricsPort: number | undefined;
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
  /**
   * Serve `GET /metrics` on this port instead of the service's own (0: any free port), without a guard: a
   * port that only Prometheus reaches (the Kubernetes NetworkPolicy), which plain scrape configs and
   * ServiceMonitors can scrape without sending a header.
   */
  port?: number;
  host?: string;
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

  if (opts.port === undefined) {
    app.decorate('metricsPort', undefined);
    app.get('/metrics', { schema: hidden, ...(opts.guard ? { onRequest: opts.guard } : {}) }, async (_request, reply) => {
      const text = await registry.metrics();
      return reply.header('content-type', registry.contentType).header('cache-control', 'no-store').send(text);
    });
    return;
  }
  const server = await listenForMetrics(registry, opts.port, opts.host ?? '0.0.0.0', app);
  app.decorate('metricsPort', (server.address() as AddressInfo).port);
  app.addHook('onClose', () => new Promise<void>((resolve) => server.close(() => resolve())));
}

/** A plain HTTP listener that answers `GET /metrics` and 404 to anything else. */
async function listenForMetrics(registry: Registry, port: number, host: string, app: FastifyInstance): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '/').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    registry
      .metrics()
      .then((text) => res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' }).end(text))
      .catch((err: Error) => {
        app.log.warn({ err: err.message }, 'metrics collection failed');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics collection failed\n');
      });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

export default fp(metricsPlugin, { name: 'metrics', fastify: '5.x' });
