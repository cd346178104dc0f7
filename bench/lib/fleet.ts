import { setTimeout as sleep } from 'node:timers/promises';
import { waitForPing } from '@render/test-stack/process-http';
import { cleanupAll, freePort, type Service, type StartMode, startNodeService } from '@render/test-stack/processes';
import { addBuckets, type Buckets, histogramBuckets, parseMetrics } from './prometheus.ts';

export interface FleetWorker {
  service: Service;
  pages: number;
  /** Its health/metrics port (WORKER_HTTP_PORT=0, read from its "health and metrics listening" line). */
  metricsPort: number;
}

/**
 * One gateway and any number of render-worker processes on one Redis and queue prefix, HTML queue only,
 * started as the images run them. Workers can be added and stopped while the gateway stays up.
 */
export class Fleet {
  readonly workers: FleetWorker[] = [];
  gateway: Service | undefined;
  gatewayPort = 0;

  constructor(
    private readonly repoRoot: string,
    private readonly opts: { redisUrl: string; queuePrefix: string; chromiumPath: string; start: StartMode; queues?: string },
  ) {}

  private env(): NodeJS.ProcessEnv {
    return { ...process.env, REDIS_URL: this.opts.redisUrl, QUEUE_PREFIX: this.opts.queuePrefix };
  }

  /** `extraEnv`: e.g. the account services' addresses, for calls with an API key. */
  async startGateway(extraEnv: NodeJS.ProcessEnv = {}): Promise<number> {
    this.gatewayPort = await freePort();
    this.gateway = startNodeService(
      this.opts.start,
      { name: 'gateway', pkg: '@render/gateway', entry: 'services/gateway/src/server.ts' },
      {
        ...this.env(),
        PORT: String(this.gatewayPort),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        // Anonymous load from one IP, far above the demo pages' per-IP limit.
        ANON_RATE_LIMIT_PER_MINUTE: '100000000',
        ANON_RATE_LIMIT_PER_DAY: '100000000',
        ANON_MAX_IN_FLIGHT: '100000000',
        ANON_MAX_PIXELS: '16000000',
        MAX_QUEUE_DEPTH: '5000',
        ...extraEnv,
      },
      this.repoRoot,
    );
    await waitForPing(this.gatewayPort, this.gateway, 60_000);
    return this.gatewayPort;
  }

  /** Starts `count` workers at once and resolves when every one is ready (its pages warm). */
  async addWorkers(count: number, pages: number, extraEnv: NodeJS.ProcessEnv = {}): Promise<FleetWorker[]> {
    const started = Array.from({ length: count }, () => {
      const service = startNodeService(
        this.opts.start,
        { name: `render-worker-${this.workers.length + 1}`, pkg: '@render/render-worker', entry: 'services/render-worker/src/main.ts' },
        {
          ...this.env(),
          RENDER_QUEUES: this.opts.queues ?? 'html',
          RENDER_PAGES: String(pages),
          CHROMIUM_PATH: this.opts.chromiumPath,
          LOG_LEVEL: 'info',
          WORKER_HTTP_PORT: '0',
          ...extraEnv,
        },
        this.repoRoot,
      );
      const entry = { service, pages, metricsPort: 0 };
      this.workers.push(entry);
      return entry;
    });
    await Promise.all(
      started.map(async (w) => {
        const listening = w.service.waitForLine((l) => l.includes('"health and metrics listening"'), 120_000);
        const ready = w.service.waitForLine((l) => l.includes('"render worker ready"'), 180_000);
        ready.catch(() => undefined);
        w.metricsPort = Number(/"port":(\d+)/.exec(await listening)?.[1]);
        await ready;
      }),
    );
    return started;
  }

  async stopWorkers(): Promise<void> {
    const all = this.workers.splice(0);
    await Promise.all(all.map((w) => w.service.stop()));
  }

  async stop(): Promise<void> {
    await this.gateway?.stop();
    await this.stopWorkers();
  }

  warnings(): string[] {
    return [...(this.gateway?.warnings ?? []), ...this.workers.flatMap((w) => w.service.warnings)];
  }

  /** render_duration_seconds buckets summed over every running worker. */
  async renderBuckets(): Promise<Buckets> {
    const scrapes = await Promise.all(
      this.workers.map(async (w) => {
        const text = await fetch(`http://127.0.0.1:${w.metricsPort}/metrics`).then((r) => r.text());
        return histogramBuckets(parseMetrics(text), 'render_duration_seconds');
      }),
    );
    return addBuckets(...scrapes);
  }
}

/** Stops the fleet, then its dedicated Redis and whatever else is registered; the services' warnings. */
export async function stopFleet(fleet: Fleet, redis: { stop(): Promise<void> }): Promise<string[]> {
  const warnings = fleet.warnings();
  await fleet.stop();
  await redis.stop();
  await cleanupAll();
  return warnings;
}

/** Lets a just-loaded process settle (GC, page tidying) before its memory is read. */
export const settle = (ms: number) => sleep(ms);
