export { chromiumLaunchOptions } from './browser/chromium-args.ts';
export { DEFAULT_FONTCONFIG_FILE, loadWorkerConfig, type WorkerConfig } from './config.ts';
export { startWorkerHttpServer, type WorkerHttpServer } from './http-server.ts';
export { createWorkerMetrics, type WorkerMetrics } from './metrics.ts';
export { parseQueues, type RenderWorkerHandle, startRenderWorker } from './render.worker.ts';
// The bench's pipeline phase swaps the html renderer for a fixed image, to time everything but Chromium.
export { renderers } from './renderers/index.ts';
