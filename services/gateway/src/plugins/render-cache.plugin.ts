import { randomUUID } from 'node:crypto';
import { AppError } from '@render/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { canonicalJson } from '../http/canonical-json.ts';
import { ImageCache } from '../images/image-cache.ts';
import type { RenderOutcome } from './render-queue.plugin.ts';

export interface RenderCache {
  /**
   * Answers a convert call that asked for `cache` seconds: from the cache when an identical request (same
   * caller, same route, same body) was rendered within them, else by `render` (billed as usual), whose
   * image is then kept. Identical misses at the same time render once, across gateway replicas: the first
   * takes a lock in Redis and renders, the others wait for its image, and only the renderer is charged.
   * `version` is what else the image depends on (a template's last change), so a new one misses.
   */
  through(
    request: FastifyRequest,
    body: object,
    seconds: number,
    render: () => Promise<RenderOutcome>,
    version?: string,
  ): Promise<CachedAnswer>;
}

export interface CachedAnswer {
  outcome: RenderOutcome;
  /** Whether the image came from the cache (another request's render): then nothing was charged. */
  hit: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    renderCache: RenderCache;
  }
}

export interface RenderCacheOptions {
  prefix: string;
  /** How long a render may take: a waiter gives up on the lock holder after this. */
  deadlineMs: number;
  maxEntries: number;
  maxEntryBytes: number;
}

const POLL_FIRST_MS = 20;
const POLL_MAX_MS = 200;
// Deletes the lock only if it is still ours (it may have expired and been taken by another request).
const RELEASE_LOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whose the cached image is: an account's own, or the anonymous callers' shared one. */
const scopeOf = (request: FastifyRequest) => (request.caller?.kind === 'account' ? `account:${request.caller.userId}` : 'anonymous');

async function renderCachePlugin(app: FastifyInstance, opts: RenderCacheOptions) {
  const images = new ImageCache(app.redis, {
    prefix: opts.prefix,
    namespace: 'render-cache',
    ttlSeconds: 86_400,
    maxEntries: opts.maxEntries,
    maxEntryBytes: opts.maxEntryBytes,
  });
  const lockKey = (key: string) => `${opts.prefix}:render-cache-lock:${key}`;
  // Identical misses within this process share one render (and one lock attempt).
  const inflight = new Map<string, Promise<CachedAnswer>>();

  const fromCache = (key: string): Promise<RenderOutcome | undefined> =>
    images.get(key).then(
      (hit) => {
        if (!hit) return undefined;
        const { bytes, format, mimeType, width, height, warnings, metadata } = hit;
        const meta = { format, mimeType, width, height, warnings, size: bytes.length, renderMs: 0, queueMs: 0 };
        return { image: bytes, meta: metadata ? { ...meta, metadata } : meta };
      },
      () => undefined,
    );

  /**
   * The caller of a cached answer must still be who they say: an API key's reservation (made in onRequest)
   * may still be under way, and a refused key gets its 401. A used-up window does not matter: a hit is free.
   */
  async function assertCredentials(request: FastifyRequest) {
    const outcome = await request.billing?.outcome;
    if (outcome && !outcome.reserved && !(outcome.error instanceof AppError && outcome.error.code === 'PAYMENT_REQUIRED'))
      throw outcome.error;
  }

  async function renderOrWait(key: string, seconds: number, render: () => Promise<RenderOutcome>): Promise<CachedAnswer> {
    const token = randomUUID();
    const locked = await app.redis.set(lockKey(key), token, 'PX', opts.deadlineMs + 5_000, 'NX').catch(() => 'OK');
    if (locked === 'OK') {
      try {
        const outcome = await render();
        const { image, meta } = outcome;
        await images
          .set(
            key,
            {
              bytes: image,
              format: meta.format,
              mimeType: meta.mimeType,
              width: meta.width,
              height: meta.height,
              warnings: meta.warnings,
              ...(meta.metadata ? { metadata: meta.metadata } : {}),
            },
            seconds,
          )
          .catch((err: Error) => app.log.warn({ err: err.message }, 'render not cached'));
        return { outcome, hit: false };
      } finally {
        await app.redis.eval(RELEASE_LOCK, 1, lockKey(key), token).catch(() => undefined);
      }
    }
    // Another replica renders it: wait for its image; if its lock goes without one (its render failed or it
    // stopped), render here after all.
    const end = Date.now() + opts.deadlineMs;
    for (let wait = POLL_FIRST_MS; Date.now() < end; wait = Math.min(wait * 2, POLL_MAX_MS)) {
      await sleep(wait);
      const cached = await fromCache(key);
      if (cached) return { outcome: cached, hit: true };
      if (!(await app.redis.exists(lockKey(key)).catch(() => 0))) return renderOrWait(key, seconds, render);
    }
    throw new AppError('RENDER_TIMEOUT', 'The identical request this one waits for did not finish in time; please retry');
  }

  async function through(request: FastifyRequest, body: object, seconds: number, render: () => Promise<RenderOutcome>, version = '') {
    // Neither the cache's lifetime nor the answer's form (JSON or bytes, under either name) changes the image.
    const { cache: _, output: _output, outputType: _outputType, ...rest } = body as Record<string, unknown>;
    const key = ImageCache.keyOf(scopeOf(request), request.routeOptions.url ?? request.url, canonicalJson(rest), version);
    const cached = await fromCache(key);
    if (cached) {
      await assertCredentials(request);
      return { outcome: cached, hit: true };
    }
    // The same request already rendering here: share its image; if it fails (its caller hung up, say), this
    // one goes on by itself.
    const shared = await inflight.get(key)?.catch(() => undefined);
    if (shared) {
      await assertCredentials(request);
      return { outcome: shared.outcome, hit: true };
    }
    const answer = renderOrWait(key, seconds, render).finally(() => inflight.delete(key));
    inflight.set(key, answer);
    return answer;
  }

  app.decorate('renderCache', { through } satisfies RenderCache);
}

export default fp(renderCachePlugin, { name: 'render-cache', dependencies: ['redis'], fastify: '5.x' });
