import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type RenderKind, renderJobs } from '@render/queue';
import type { RenderWorkerHandle } from '@render/render-worker';
import { decodePng, near } from '@render/test-stack/images';
import { testRedisUrl } from '@render/test-stack/redis';
import { type Job, Queue } from 'bullmq';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGateway, startWorker, type TestGateway, uniquePrefix } from './helpers/stack.ts';

// A render that runs out of time because of its page (an endless script, the caller's js that never ends)
// is the content's failure: answered once, never retried, and the page it held is replaced for the next job.
// Retrying it would only hold a page for twice the time (and answer 504 past the gateway's deadline).

const prefix = uniquePrefix('page-timeouts');
const RENDER_TIMEOUT_MS = 3000;
let worker: RenderWorkerHandle;
let gateway: TestGateway;
let site: Server;
let origin: string;
const queues = new Map<RenderKind, Queue>();

beforeAll(async () => {
  site = createServer((req, res) => {
    const body =
      req.url === '/endless'
        ? '<body style="background:#ff0000"><script>for (;;) {}</script></body>'
        : '<body style="margin:0;background:#00ff00"></body>';
    res.writeHead(200, { 'content-type': 'text/html' }).end(body);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  worker = await startWorker({
    QUEUE_PREFIX: prefix,
    RENDER_QUEUES: 'html,screenshot',
    // One page per pool: the render after a stuck one can only succeed on its replacement.
    RENDER_PAGES: '1',
    RENDER_TIMEOUT_MS: String(RENDER_TIMEOUT_MS),
    RENDER_EGRESS_ALLOWLIST: origin.slice('http://'.length),
  });
  gateway = await startGateway({ QUEUE_PREFIX: prefix, RENDER_DEADLINE_MS: '15000' });
  const connection = { url: await testRedisUrl() };
  for (const kind of ['html', 'screenshot'] as const) queues.set(kind, new Queue(renderJobs[kind].queueName, { prefix, connection }));
});

afterAll(async () => {
  await Promise.all([...queues.values()].map((queue) => queue.close()));
  await gateway?.close();
  await worker?.close();
  await new Promise((resolve) => site?.close(resolve));
});

beforeEach(async () => {
  for (const queue of queues.values()) await queue.clean(0, 1000, 'failed');
});

/** The one failed job of `kind` once nothing of it is left to run (a retry would be waiting or active). */
async function failedJob(kind: RenderKind): Promise<Job> {
  const queue = queues.get(kind)!;
  for (let i = 0; i < 200; i++) {
    const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'failed');
    const pending = counts.waiting! + counts.active! + counts.delayed! + counts.prioritized!;
    if (pending === 0 && counts.failed! > 0) {
      const failed = await queue.getFailed();
      expect(failed).toHaveLength(1);
      return failed[0]!;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no failed ${kind} job appeared`);
}

async function expectGreenScreenshot() {
  const res = await gateway.post('/api/screenshot/convert', { url: `${origin}/ok`, width: 100, height: 100 });
  if (res.status !== 200) expect.fail(`expected an image, got ${res.status}: ${await res.text()}`);
  expect(near(decodePng(Buffer.from(await res.arrayBuffer())).pixel(50, 50), [0, 255, 0, 255])).toBe(true);
}

describe('a page that runs out of time is not retried', () => {
  it('screenshot js that never yields: a clear 422, one attempt, and the next capture works', async () => {
    const res = await gateway.post('/api/screenshot/convert', { url: `${origin}/ok`, js: 'while(true){}', width: 100, height: 100 });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      code: 'RENDER_FAILED',
      message: expect.stringMatching(/^Failed to capture screenshot: the js did not finish within [\d.]+ s \(an endless loop\?\)$/),
    });
    const job = await failedJob('screenshot');
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toMatch(/the js did not finish/);
    await expectGreenScreenshot();
  });

  it('a page whose own script never yields: timed out, one attempt, and the next capture works', async () => {
    const res = await gateway.post('/api/screenshot/convert', { url: `${origin}/endless`, width: 100, height: 100 });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      code: 'RENDER_FAILED',
      message: `Failed to capture screenshot: rendering timed out after ${RENDER_TIMEOUT_MS} ms (the content may run an endless script or wait on slow resources)`,
    });
    expect((await failedJob('screenshot')).attemptsMade).toBe(1);
    await expectGreenScreenshot();
  });

  it('HTML whose script never yields: timed out, one attempt, and the next render works', async () => {
    const res = await gateway.post('/api/html-to-img/convert', { html: '<script>while(true){}</script>', width: 100, height: 100 });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { message: string }).message).toMatch(/^Rendering timed out after 3000 ms/);
    expect((await failedJob('html')).attemptsMade).toBe(1);
    const ok = await gateway.post('/api/html-to-img/convert', {
      html: '<body style="margin:0;background:#00ff00"></body>',
      width: 100,
      height: 100,
    });
    expect(ok.status).toBe(200);
    expect(near(decodePng(Buffer.from(await ok.arrayBuffer())).pixel(50, 50), [0, 255, 0, 255])).toBe(true);
  });

  it('past a shorter gateway deadline: 504 to the caller, and the worker still makes one attempt only', async () => {
    const impatient = await startGateway({ QUEUE_PREFIX: prefix, RENDER_DEADLINE_MS: '1500' });
    try {
      const res = await impatient.post('/api/screenshot/convert', { url: `${origin}/ok`, js: 'for (;;) {}', width: 100, height: 100 });
      expect(res.status).toBe(504);
      expect((await failedJob('screenshot')).attemptsMade).toBe(1);
    } finally {
      await impatient.close();
    }
    await expectGreenScreenshot();
  });
});
