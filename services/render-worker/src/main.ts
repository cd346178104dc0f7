import { createLogger } from '@render/logger';
import { loadWorkerConfig } from './config.ts';
import { startRenderWorker } from './render.worker.ts';

const config = loadWorkerConfig();
const logger = createLogger('render-worker', config.LOG_LEVEL);
const worker = await startRenderWorker(config, logger);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    logger.info({ signal }, 'draining in-flight jobs');
    await worker.close();
    process.exit(0);
  });
}
