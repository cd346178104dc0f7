import { AppError, type BucketState, RenderLimits, type ScreenshotRenderPayload } from '@render/contracts';
import { Counter, MemoryTokenBuckets } from '@render/fastify-kit';
import { RedisTokenBuckets, type RenderKind, type RenderPayload } from '@render/queue';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { InFlightCounts } from '../limits/in-flight-counts.ts';
import type { BucketLimit } from '../limits/rate-limit-fields.ts';
import { type RenderCost, renderCost } from '../limits/render-cost.ts';
import { limitsOf } from '../limits/request-limits.ts';

export interface AnonymousLimitsOptions {
  /** Quota units per minute and per day per address, shared by every replica (Redis). */
  perMinute: number;
  perDay: number;
  /** Renders in flight at once per address, on this replica. */
  maxInFlight: number;
  /** Largest image (width × height × scale²) without credentials. */
  maxPixels: number;
  /** Redis key prefix of the buckets (the queue prefix). */
  keyPrefix: string;
}

export interface AnonymousLimits {
  readonly settings: Readonly<Omit<AnonymousLimitsOptions, 'keyPrefix'>>;
  /**
   * A call without credentials arrives (onRequest, before its body is read): one unit from its address's
   * minute and day buckets, or a 429 saying when to come back and how to get more.
   */
  admit(request: FastifyRequest): Promise<void>;
  /**
   * Its render is about to be queued: within the size cap (403 past it), one of the address's in-flight slots
   * (429 past them), and the rest of its cost in units (429 when the buckets lack them). Answers the slot's
   * release, to call once the render ends.
   */
  begin<K extends RenderKind>(request: FastifyRequest, kind: K, payload: RenderPayload<K>): Promise<() => void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    anonymousLimits: AnonymousLimits;
  }
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const SIGN_UP = 'Sign up for a free API key to render without these limits';
const fmt = (n: number) => n.toLocaleString('en-US');
const megapixels = (pixels: number) => (pixels / 1_000_000).toLocaleString('en-US', { maximumFractionDigits: 1 });

/** "42 s", "12 min", "3 h 5 min": how long until the retry, for the messages (Retry-After has the seconds). */
function duration(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  return minutes < 120 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/**
 * Everything a caller without credentials is held to, per address: a quota of units per minute and per day
 * (a render costs units by its size and format: `renderCostUnits`), a size cap, and renders in flight. Together
 * they keep the playgrounds working while bounding the work one address can ask for, and below what a Free
 * account gets (see README, "Limits").
 */
async function anonymousLimitsPlugin(app: FastifyInstance, opts: AnonymousLimitsOptions) {
  const { perMinute, perDay, maxInFlight, maxPixels } = opts;
  const limits = [
    { capacity: perMinute, windowMs: MINUTE_MS },
    { capacity: perDay, windowMs: DAY_MS },
  ];
  // Shared by every replica. Without Redis nothing renders anyway, but the check itself must not turn into a
  // 500: each process then limits on its own.
  const shared = new RedisTokenBuckets(app.redis, `${opts.keyPrefix}:rl:anon`, limits);
  const fallback = new MemoryTokenBuckets(limits);
  const take = (ip: string, units: number) => shared.take(ip, units).catch(() => fallback.take(ip, units));
  const inFlight = new InFlightCounts();
  const refused = new Counter({
    name: 'render_anonymous_limited_total',
    help: 'Calls without credentials refused by the anonymous limits',
    labelNames: ['limit'] as const,
    registers: [app.metrics],
  });

  /** Records the buckets' states on the request (its RateLimit fields). */
  function record(request: FastifyRequest, states: BucketState[]): void {
    const buckets: BucketLimit[] = [
      { name: 'anon-minute', windowSeconds: MINUTE_MS / 1000, state: states[0] as BucketState },
      { name: 'anon-day', windowSeconds: DAY_MS / 1000, state: states[1] as BucketState },
    ];
    const requestLimits = limitsOf(request);
    requestLimits.buckets = buckets;
    requestLimits.concurrency = { name: 'anon-in-flight', quota: maxInFlight, inUse: () => inFlight.of(request.ip) };
  }

  function tooMany(states: BucketState[], cost?: RenderCost): AppError {
    const [minute, day] = states as [BucketState, BucketState];
    const wait = Math.max(minute.retryAfterMs, day.retryAfterMs);
    const byDay = !day.allowed;
    refused.inc({ limit: byDay ? 'day' : 'minute' });
    const quota = byDay
      ? `anonymous use is limited to ${perDay} units a day per address`
      : `anonymous use is limited to ${perMinute} per minute per address`;
    const what = cost
      ? `This render counts ${cost.units} units (${megapixels(cost.pixels)} megapixels as ${cost.format.toUpperCase()}) and ${Math.min(minute.remaining, day.remaining)} are left: ${quota}`
      : `Too many conversions without an API key: ${quota}`;
    return new AppError('RATE_LIMITED', `${what}. ${SIGN_UP}, or retry in ${duration(wait)}.`, undefined, {
      retryAfterSeconds: wait / 1000,
    });
  }

  async function admit(request: FastifyRequest): Promise<void> {
    const taken = await take(request.ip, 1);
    record(request, taken.buckets);
    if (!taken.allowed) throw tooMany(taken.buckets);
  }

  /** The size cap, and a cost no minute could ever pay: both 403, since only an API key gets them through. */
  function checkCost(cost: RenderCost): void {
    if (cost.pixels > maxPixels) {
      refused.inc({ limit: 'size' });
      throw new AppError(
        'ANONYMOUS_LIMIT',
        `Without an API key an image may have at most ${fmt(maxPixels)} pixels (width × height × scale²); this one would have ${fmt(cost.pixels)}. ` +
          `Use a smaller size, or sign up for a free API key to render up to ${fmt(RenderLimits.maxPixels)} pixels.`,
      );
    }
    if (cost.units > perMinute) {
      refused.inc({ limit: 'cost' });
      throw new AppError(
        'ANONYMOUS_LIMIT',
        `This render counts ${cost.units} units (${megapixels(cost.pixels)} megapixels as ${cost.format.toUpperCase()}), more than the ${perMinute} a minute allowed without an API key. ` +
          'Use a smaller size or another format, or sign up for a free API key.',
      );
    }
  }

  function acquire(request: FastifyRequest): () => void {
    if (inFlight.of(request.ip) >= maxInFlight) {
      refused.inc({ limit: 'in_flight' });
      throw new AppError(
        'RATE_LIMITED',
        `Too many renders in flight from your address: without an API key ${maxInFlight} may run at once. Retry when one has finished, or sign up for a free API key.`,
        undefined,
        { retryAfterSeconds: 1 },
      );
    }
    return inFlight.add(request.ip);
  }

  async function begin<K extends RenderKind>(request: FastifyRequest, kind: K, payload: RenderPayload<K>): Promise<() => void> {
    // A full page or an element is as tall as the page makes it: the worker cuts it at the cap.
    if (kind === 'screenshot') (payload as ScreenshotRenderPayload).maxCapturePixels = maxPixels;
    const cost = renderCost(kind, payload);
    checkCost(cost);
    const release = acquire(request);
    // `admit` took the first unit already, so renders of one unit (the common case) cost no second call.
    if (cost.units > 1) {
      try {
        const taken = await take(request.ip, cost.units - 1);
        record(request, taken.buckets);
        if (!taken.allowed) throw tooMany(taken.buckets, cost);
      } catch (err) {
        release();
        throw err;
      }
    }
    return release;
  }

  app.decorate('anonymousLimits', { settings: { perMinute, perDay, maxInFlight, maxPixels }, admit, begin } satisfies AnonymousLimits);
}

export default fp(anonymousLimitsPlugin, { name: 'anonymous-limits', dependencies: ['redis', 'metrics', 'limit-headers'], fastify: '5.x' });
