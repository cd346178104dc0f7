import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '@render/logger';
import type { Registry } from 'prom-client';

/** What the worker's readiness rests on: each named check is `ok` or says what is wrong. */
export type ReadinessChecks = () => Promise<Record<string, string>>;

export interface WorkerHttpServer {
  port: number;
  close(): Promise<void>;
}

export interface WorkerHttpOptions {
  port: number;
  host?: string;
  registry: Registry;
  /** Readiness as it is now (the worker may still be starting, or draining). */
  readiness: ReadinessChecks;
  logger: Logger;
}

const send = (res: http.ServerResponse, status: number, body: string, type = 'application/json; charset=utf-8') => {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
  res.end(body);
};

/**
 * The worker's own small HTTP server (it has no API): `GET /health/live`, `GET /health/ready` (200 when
 * Redis, Chromium and its warm pages answer; 503 naming the failing check, also while draining) and
 * `GET /metrics`. The same shapes as fastify-kit's health plugin, without Fastify in the worker.
 */
export async function startWorkerHttpServer(opts: WorkerHttpOptions): Promise<WorkerHttpServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, JSON.stringify({ status: 'method not allowed' }));
    if (path === '/health/live') return send(res, 200, JSON.stringify({ status: 'ok' }));
    if (path === '/health/ready') {
      opts
        .readiness()
        .then((checks) => {
          const ok = Object.values(checks).every((result) => result === 'ok');
          send(res, ok ? 200 : 503, JSON.stringify({ status: ok ? 'ok' : 'unavailable', checks }));
        })
        .catch((err: Error) => send(res, 503, JSON.stringify({ status: 'unavailable', checks: { worker: err.message } })));
      return;
    }
    if (path === '/metrics') {
      opts.registry
        .metrics()
        .then((text) => send(res, 200, text, opts.registry.contentType))
        .catch((err: Error) => {
          opts.logger.warn({ err: err.message }, 'metrics collection failed');
          send(res, 500, JSON.stringify({ status: 'error' }));
        });
      return;
    }
    send(res, 404, JSON.stringify({ status: 'not found' }));
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
