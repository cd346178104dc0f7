import { randomUUID } from 'node:crypto';
import { HtmlRenderPayload } from '@render/contracts';
import { createLogger } from '@render/logger';
import { renderJobs } from '@render/queue';
import { Queue } from 'bullmq';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadWorkerConfig } from '../src/config.ts';
import { startWorkerHttpServer, type WorkerHttpServer } from '../src/http-server.ts';
import { type RenderWorkerHandle, startRenderWorker } from '../src/render.worker.ts';

const redisUrl = process.env.TEST_REDIS_URL;
if (!redisUrl) throw new Error('TEST_REDIS_URL is required (run the tests through ./scripts/test)');

const prefix = `health-${randomUUID().slice(0, 8)}`;
let worker: RenderWorkerHandle;
let http: WorkerHttpServer;
let base: string;
let queue: Queue;

beforeAll(async () => {
  const config = loadWorkerConfig({
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: prefix,
    RENDER_QUEUES: 'html',
    RENDER_PAGES: '1',
    WORKER_HTTP_PORT: '0',
    CHROMIUM_PATH: process.env.CHROMIUM_PATH,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
  });
  const logger = createLogger('render-worker-test', config.LOG_LEVEL);
  worker = await startRenderWorker({ ...config, CHROMIUM_ENV: process.env }, logger);
  http = await startWorkerHttpServer({
    port: config.WORKER_HTTP_PORT,
    host: '127.0.0.1',
    registry: worker.metrics.registry,
    readiness: worker.readiness,
    logger,
  });
  base = `http://127.0.0.1:${http.port}`;
  queue = new Queue(renderJobs.html.queueName, { connection: { url: redisUrl }, prefix });
}, 60_000);

afterAll(async () => {
  await queue?.close();
  await http?.close();
  await worker?.close();
});

describe('render worker health and metrics', () => {
  it('is live, and ready once its pages are warm', async () => {
    const live = await fetch(`${base}/health/live`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    // Ready once its Redis connections are up and its pages warm: on a busy machine a connection may still be
    // opening when start returns, so the probe may say 503 for a moment first.
    let ready = await fetch(`${base}/health/ready`);
    for (let i = 0; i < 100 && ready.status !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      ready = await fetch(`${base}/health/ready`);
    }
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', checks: { redis: 'ok', chromium: 'ok', pages: 'ok' } });
  });

  it('counts a render in render_duration_seconds', async () => {
    const payload = Value.Default(HtmlRenderPayload, { html: '<p>health</p>' });
    expect(renderJobs.html.isValid(payload)).toBe(true);
    await queue.add('html', { payload, replyTo: `${prefix}:nobody` });
    let text = '';
    for (let i = 0; i < 100; i++) {
      text = await (await fetch(`${base}/metrics`)).text();
      if (/render_duration_seconds_count\{[^}]*\} [1-9]/.test(text)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(text).toMatch(/render_duration_seconds_count\{[^}]*kind="html"[^}]*\} [1-9]/);
    expect(text).toContain('process_resident_memory_bytes');
    for (const name of ['render_failures_total', 'browser_restarts_total', 'pages_recycled_total', 'egress_refusals_total'])
      expect(text).toContain(`# TYPE ${name} counter`);
  });

  it('is not ready while draining', async () => {
    const closing = worker.close();
    const ready = await fetch(`${base}/health/ready`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { checks: Record<string, string> }).checks.draining).toBe('shutting down');
    await closing;
  });
});
