import { loadWorkerConfig } from './config.ts';
import { startRenderWorker } from './render.worker.ts';

/** What starts this service in-process (the tests' stacks): its config loader and its start, as main.ts uses them. */
export const workerService = { loadConfig: loadWorkerConfig, start: startRenderWorker };
