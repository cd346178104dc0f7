import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { encodeReply, type RenderJobData, renderJobs } from '@render/queue';
import type { RenderWorkerHandle } from '@render/render-worker';
import { decodePng } from '@render/test-stack/images';
import { testRedisUrl } from '@render/test-stack/redis';
import { type Job, UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { startGateway, startWorker, type TestGateway, uniquePrefix } from './helpers/stack.ts';

const busyLoop = (ms: number, colour: string) =>
  `<body style="margin:0;background:${colour}"><script>const end = Date.now() + ${ms}; while (Date.now() < end) {}</script></body>`;

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const fn of cleanups.reverse()) {
    const t = Date.now();
    await fn().catch(() => undefined);
    if (process.env.TEST_DEBUG) console.log('cleanup', Date.now() - t, fn.toString().slice(0, 80));
  }
});

/** A worker with one page and the render budget `workerTimeoutMs`, and a gateway that waits `deadlineMs` for it; closed after the file. */
async function startOnePagePair(prefix: string, workerTimeoutMs: string, deadlineMs: string): Promise<TestGateway> {
  const worker = await startWorker({ QUEUE_PREFIX: prefix, RENDER_PAGES: '1', RENDER_TIMEOUT_MS: workerTimeoutMs });
  cleanups.push(() => worker.close());
  const gateway = await startGateway({ QUEUE_PREFIX: prefix, RENDER_DEADLINE_MS: deadlineMs });
  cleanups.push(() => gateway.close());
  return gateway;
}

describe('deadlines and queue limits', () => {
  it('a render that outlives the gateway deadline → 504, and the worker then serves the next job', async () => {
    const prefix = uniquePrefix('deadline');
    const gateway = await startOnePagePair(prefix, '3000', '1500');

    const started = Date.now();
    const res = await gateway.post('/api/html-to-img/convert', { html: busyLoop(60_000, '#f00') });
    expect(res.status).toBe(504);
    expect(await res.json()).toMatchObject({ success: false, code: 'RENDER_TIMEOUT', message: 'Rendering did not finish within 1500 ms' });
    expect(Date.now() - started).toBeLessThan(5_000);

    // The stuck page is abandoned after the worker's own 3 s render budget and replaced.
    const next = await startGateway({ QUEUE_PREFIX: prefix, RENDER_DEADLINE_MS: '20000' });
    cleanups.push(() => next.close());
    const ok = await next.post('/api/html-to-img/convert', { html: '<body style="background:#00f"></body>', width: 100, height: 100 });
    expect(ok.status).toBe(200);
    expect(decodePng(Buffer.from(await ok.arrayBuffer())).pixel(50, 50)).toEqual([0, 0, 255, 255]);
  });

  it('an endless script inside the worker’s render budget → clear 422, not retried', async () => {
    const prefix = uniquePrefix('endless');
    const gateway = await startOnePagePair(prefix, '1500', '15000');
    const started = Date.now();
    const res = await gateway.post('/api/html-to-img/convert', { html: '<script>for(;;){}</script>' });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ code: 'RENDER_FAILED', message: expect.stringMatching(/^Rendering timed out after 1500 ms/) });
    expect(Date.now() - started).toBeLessThan(6_000); // one attempt, not two
    const ok = await gateway.post('/api/html-to-img/convert', { html: '<p>fine</p>' });
    expect(ok.status).toBe(200);
  });

  it('a full queue → 429 QUEUE_FULL with Retry-After instead of queueing without bound', async () => {
    const gateway = await startGateway({ QUEUE_PREFIX: uniquePrefix('full'), MAX_QUEUE_DEPTH: '1', RENDER_DEADLINE_MS: '3000' });
    cleanups.push(() => gateway.close());
    // Nobody serves this prefix: the first job waits in the queue until its deadline.
    const first = gateway.post('/api/html-to-img/convert', { html: '<p>1</p>' });
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    const second = await gateway.post('/api/html-to-img/convert', { html: '<p>2</p>' });
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toBe('2'); // QUEUE_FULL_RETRY_AFTER_SECONDS' default
    expect(await second.json()).toEqual({
      success: false,
      code: 'QUEUE_FULL',
      message: 'The render queue is full right now; please retry in 2 s',
      type: '/docs?tab=errors#queue-full',
      title: 'Render queue full',
      status: 429,
      detail: 'The render queue is full right now; please retry in 2 s',
      instance: '/api/html-to-img/convert',
      requestId: second.headers.get('x-request-id'),
    });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect((await first).status).toBe(504);
  });

  it('Redis unreachable → 503 at once, not a hang', async () => {
    const gateway = await startGateway({ REDIS_URL: 'redis://127.0.0.1:1', REDIS_BOOT_WAIT_MS: '50', QUEUE_PREFIX: uniquePrefix('down') });
    cleanups.push(() => gateway.close());
    const started = Date.now();
    const res = await gateway.post('/api/html-to-img/convert', { html: '<p>x</p>' });
    expect(res.status).toBe(503);
    // Every 503 says when to come back: a Redis restart takes seconds.
    expect(res.headers.get('retry-after')).toBe('2');
    expect(await res.json()).toMatchObject({
      code: 'QUEUE_UNAVAILABLE',
      message: 'The render queue is unavailable right now; please retry shortly',
    });
    expect(Date.now() - started).toBeLessThan(1_000);
    // Validation still answers without Redis.
    expect((await gateway.post('/api/html-to-img/convert', {})).status).toBe(400);
  });
});

const killGroup = (child: ChildProcess, signal: NodeJS.Signals) => {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
};

describe('a worker killed mid-job', () => {
  const workerMain = fileURLToPath(new URL('../../render-worker/src/main.ts', import.meta.url));

  async function spawnWorker(prefix: string): Promise<ChildProcess> {
    const child = spawn(process.execPath, ['--import', 'tsx', workerMain], {
      env: {
        ...process.env,
        REDIS_URL: await testRedisUrl(),
        QUEUE_PREFIX: prefix,
        RENDER_QUEUES: 'html',
        RENDER_PAGES: '1',
        LOCK_DURATION_MS: '2000',
        STALLED_INTERVAL_MS: '1000',
        LOG_LEVEL: 'info',
        // Any free port for its health and metrics server: tests may run beside a dev stack on 3003.
        WORKER_HTTP_PORT: '0',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
      // Its own process group, so a kill takes Chromium down with it, as a container stop would.
      detached: true,
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('worker did not start')), 30_000);
      child.stdout!.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('render worker ready')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => reject(new Error(`worker exited early (${code})`)));
    });
    return child;
  }

  it('the request still ends with an image: the job moves to another worker', async () => {
    const prefix = uniquePrefix('kill');
    const doomed = await spawnWorker(prefix);
    cleanups.push(async () => killGroup(doomed, 'SIGKILL'));
    const gateway: TestGateway = await startGateway({ QUEUE_PREFIX: prefix, RENDER_DEADLINE_MS: '30000' });
    cleanups.push(() => gateway.close());

    const pending = gateway.post('/api/html-to-img/convert', { html: busyLoop(2_000, '#0f0'), width: 100, height: 100 });
    await new Promise((r) => setTimeout(r, 800)); // the doomed worker is now inside the job
    doomed.kill('SIGKILL'); // only the Node process: its Chromium must go with it (CDP pipe closes)

    let rescuer: RenderWorkerHandle | undefined;
    const rescue = startWorker({ QUEUE_PREFIX: prefix, RENDER_PAGES: '1', LOCK_DURATION_MS: '2000', STALLED_INTERVAL_MS: '1000' }).then(
      (w) => {
        rescuer = w;
      },
    );
    cleanups.push(async () => {
      await rescue;
      await rescuer?.close();
    });

    const res = await pending;
    expect(res.status).toBe(200);
    expect(decodePng(Buffer.from(await res.arrayBuffer())).pixel(50, 50)).toEqual([0, 255, 0, 255]);
  });

  it('SIGTERM drains the in-flight job before the worker exits', async () => {
    const prefix = uniquePrefix('drain');
    const child = await spawnWorker(prefix);
    cleanups.push(async () => killGroup(child, 'SIGKILL'));
    const gateway = await startGateway({ QUEUE_PREFIX: prefix, RENDER_DEADLINE_MS: '20000' });
    cleanups.push(() => gateway.close());

    const pending = gateway.post('/api/html-to-img/convert', { html: busyLoop(1_500, '#00f'), width: 100, height: 100 });
    await new Promise((r) => setTimeout(r, 700));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const res = await pending;
    expect(res.status).toBe(200);
    expect(await exited).toBe(0);
  });
});

describe('the reply channel drops while a job renders', () => {
  /**
   * A stand-in worker for the html queue: its first attempt at each job cuts this gateway's reply connection
   * and then answers, so the answer is published to nobody (as when Redis restarts or a proxy drops the
   * connection mid-render); later attempts answer normally.
   */
  async function flakyWorker(prefix: string, firstAttempt: 'answer' | 'fail') {
    const redis = new Redis(await testRedisUrl(), { maxRetriesPerRequest: null });
    const image = Buffer.from('not really a PNG, but the gateway only relays it');
    const seen: string[] = [];
    const connection = redis.duplicate();
    const worker = new Worker(
      renderJobs.html.queueName,
      async (job: Job<RenderJobData>) => {
        seen.push(job.id!);
        const replyTo = job.data.replyTo!;
        const meta = { format: 'png', mimeType: 'image/png', width: 10, height: 10, size: image.length, renderMs: 1, queueMs: 0 } as const;
        if (seen.filter((id) => id === job.id).length === 1) {
          await killSubscriberOf(redis, replyTo);
          if (firstAttempt === 'fail') {
            await redis.publish(
              replyTo,
              encodeReply({ jobId: job.id!, ok: false, code: 'RENDER_FAILED', message: 'Failed to generate image: boom' }),
            );
            throw new UnrecoverableError('Failed to generate image: boom');
          }
          await redis.publish(replyTo, encodeReply({ jobId: job.id!, ok: true, meta, image }));
          return meta;
        }
        await redis.publish(replyTo, encodeReply({ jobId: job.id!, ok: true, meta, image }));
        return meta;
      },
      { connection, prefix },
    );
    const close = async () => {
      await worker.close();
      await Promise.all([connection.quit(), redis.quit()]);
    };
    return { image, seen, close };
  }

  /** Closes the connection subscribed to `channel` (the gateway names it after its reply channel). */
  async function killSubscriberOf(redis: Redis, channel: string) {
    const gatewayId = channel.slice(channel.lastIndexOf(':') + 1);
    const clients = (await redis.client('LIST')) as string;
    const line = clients.split('\n').find((l) => l.includes(`name=gateway-replies-${gatewayId} `));
    if (!line) throw new Error(`no subscriber named after ${channel}`);
    expect(await redis.client('KILL', 'ID', /\bid=(\d+)/.exec(line)![1]!)).toBe(1);
    expect(await redis.publish(channel, 'probe')).toBe(0); // nobody listens now: what follows is lost
  }

  /** One convert call through a fresh gateway whose stand-in worker loses its first answer. */
  async function convertLosingFirstAnswer(label: string, firstAttempt: 'answer' | 'fail') {
    const prefix = uniquePrefix(label);
    const worker = await flakyWorker(prefix, firstAttempt);
    cleanups.push(() => worker.close());
    // Without the recovery, these calls would wait for this deadline and answer 504.
    const gateway = await startGateway({ QUEUE_PREFIX: prefix, RENDER_DEADLINE_MS: '20000' });
    cleanups.push(() => gateway.close());
    const res = await gateway.post('/api/html-to-img/convert', { html: '<p>hi</p>', width: 100, height: 100 });
    return { res, worker };
  }

  it('a finished render whose answer was lost is queued again, and the caller gets its image', async () => {
    const { res, worker } = await convertLosingFirstAnswer('lost-reply', 'answer');
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(worker.image);
    // The same job, twice: the first answer went nowhere.
    expect(worker.seen).toHaveLength(2);
    expect(worker.seen[1]).toBe(worker.seen[0]);
  });

  it('a failure whose answer was lost is answered from the failed job, not with a 504 at the deadline', async () => {
    const { res, worker } = await convertLosingFirstAnswer('lost-failure', 'fail');
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ success: false, code: 'RENDER_FAILED', message: 'Failed to generate image: boom' });
    expect(worker.seen).toHaveLength(1);
  });
});
