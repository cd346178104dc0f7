export { chromiumLaunchOptions } from './browser/chromium-args.ts';
export { loadWorkerConfig, type WorkerConfig } from './config.ts';
export { parseQueues, type RenderWorkerHandle, startRenderWorker } from './render.worker.ts';
