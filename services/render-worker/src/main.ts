import { createLogger } from '@render/logger';
import { loadWorkerConfig } from './config.ts';
import { startWorkerHttpServer } from './http-server.ts';
import { createWorkerMetrics } from './metrics.ts';
import { type RenderWorkerHandle, startRenderWorker } from './render.worker.ts';

const config = loadWorkerConfig();
const logger = createLogger('render-worker', config.LOG_LEVEL);
const metrics = createWorkerMetrics();
let worker: RenderWorkerHandle | undefined;
// Listening first: the process is live while Chromium and the warm pages start, and ready once they are.
const http = await startWorkerHttpServer({
  port: config.WORKER_HTTP_PORT,
  host: config.HOST,
  registry: metrics.registry,
  readiness: async () => (worker ? worker.readiness() : { worker: 'starting' }),
  logger,
});
logger.info({ host: config.HOST, port: http.port }, 'health and metrics listening');
worker = await startRenderWorker(config, logger, metrics);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    logger.info({ signal }, 'draining in-flight jobs');
    // /health/ready answers 503 (draining) until the process exits.
    await worker?.close();
    await http.close();
    process.exit(0);
  });
}
