import { createRedis, waitForReady } from '@render/queue';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';

declare module 'fastify' {
  interface FastifyInstance {
    redis: Redis;
  }
}

/** The gateway's command connection: fails fast when Redis is away so requests get a 503, not a hang. */
async function redisPlugin(app: FastifyInstance, opts: { url: string; bootWaitMs: number }) {
  const redis = createRedis(opts.url, 'command', 'gateway', { autoPipelining: true });
  let lastError = '';
  redis.on('error', (err) => {
    // ioredis repeats the same connection error on every retry; log a change, not a flood.
    if (err.message !== lastError) app.log.warn({ err: err.message }, 'redis error');
    lastError = err.message;
  });
  redis.on('ready', () => {
    lastError = '';
  });
  // Give Redis a moment at boot so the first requests do not 503; a Redis that stays down is not fatal.
  if (!(await waitForReady(redis, opts.bootWaitMs))) app.log.warn('redis is not reachable yet; convert calls answer 503 until it is');
  app.decorate('redis', redis);
  app.addHook('onClose', async () => {
    await redis.quit().catch(() => redis.disconnect());
  });
}

export default fp(redisPlugin, { name: 'redis', fastify: '5.x' });
