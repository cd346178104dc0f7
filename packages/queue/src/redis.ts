import { Redis, type RedisOptions } from 'ioredis';

/**
 * Two connection shapes, because they fail differently on purpose:
 * - `command` connections serve HTTP requests: when Redis is down a command must fail at once (so the
 *   gateway answers 503) instead of sitting in ioredis's offline queue until the client gives up.
 * - `blocking` connections (BullMQ workers, QueueEvents) must never give up retrying, as BullMQ requires.
 */
export function createRedis(url: string, role: 'command' | 'blocking', name?: string, opts: { autoPipelining?: boolean } = {}): Redis {
  const common: RedisOptions = {
    connectionName: name,
    // Commands issued in the same tick leave in one socket write; on small VMs a write costs more than the
    // command, so this is the cheapest throughput win there is.
    enableAutoPipelining: opts.autoPipelining ?? false,
    autoPipeliningIgnoredCommands: ['bzpopmin', 'bzpopmax', 'brpoplpush', 'blmove', 'brpop', 'blpop', 'xread'],
    connectTimeout: 5_000,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  };
  const options: RedisOptions =
    role === 'command'
      ? { ...common, maxRetriesPerRequest: 1, enableOfflineQueue: false }
      : { ...common, maxRetriesPerRequest: null, enableOfflineQueue: true };
  const redis = new Redis(url, options);
  // Owners attach their own (rate-limited) logging; without any listener ioredis prints every retry's error.
  redis.on('error', () => {});
  return redis;
}

/** Resolves when the client is ready, or after `timeoutMs` (boot must not hang on a missing Redis). */
export function waitForReady(redis: Redis, timeoutMs: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      resolve(false);
    }, timeoutMs);
    const onReady = () => {
      clearTimeout(timer);
      resolve(true);
    };
    redis.once('ready', onReady);
  });
}
