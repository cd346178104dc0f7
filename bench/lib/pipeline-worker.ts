/**
 * The render worker, started as ./scripts/dev starts it, with one change: its html renderer answers a fixed
 * PNG instead of driving Chromium. The queue, the reply, Redis, the gateway and HTTP all run as in
 * production, so timing this worker's requests gives what the service costs beyond the browser (the
 * bench's "pipeline" phase). Never part of a deployment.
 */
import { renderers } from '@render/render-worker';
import { fixedPng } from './fixed-image.ts';
import { HEIGHT, WIDTH } from './workload.ts';

/** About the bench page's PNG (15.2 KB with Chromium's fast encoding). */
export const PIPELINE_IMAGE_BYTES = 15_200;

const image = fixedPng(WIDTH, HEIGHT, PIPELINE_IMAGE_BYTES);
renderers.html = async () => ({ bytes: image, format: 'png', mimeType: 'image/png', width: WIDTH, height: HEIGHT });
await import('@render/render-worker/main');
