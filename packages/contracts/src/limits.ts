// Limits a caller can see: what a token bucket has left (for the RateLimit and Retry-After headers), the cost
// of an anonymous render, and what GET /api/limits answers (the web app's copy reads it).
import { type Static, Type } from 'typebox';

/** docs/spec/limits.md: the Free plan gets 50 credits over a rolling 30-day window; Pro is unlimited. */
export const FREE_PLAN_CREDITS = 50;
export const CREDIT_WINDOW_DAYS = 30;

/** What one take left in a token bucket, so the answer can say it (RateLimit, Retry-After). */
export interface BucketState {
  allowed: boolean;
  /** The bucket's size (the policy's quota). */
  capacity: number;
  /** Whole tokens left after this take. */
  remaining: number;
  /** Milliseconds until the next whole token is back; 0 when the bucket is full. */
  nextTokenMs: number;
  /** Milliseconds until the tokens asked for are there; 0 when they were taken. */
  retryAfterMs: number;
}

/**
 * A bucket's state from its (fractional) tokens after a take of `asked`, refilled at `refillPerMs`. The one
 * formula the memory, Redis and Postgres buckets share, so all three report alike.
 */
export function bucketState(tokens: number, capacity: number, refillPerMs: number, allowed: boolean, asked: number): BucketState {
  // Floating-point refills can land a hair under a whole token; a millionth is not worth a refusal's wait.
  const level = Math.min(capacity, tokens + 1e-9);
  const remaining = Math.max(0, Math.floor(level));
  const nextTokenMs = remaining >= capacity ? 0 : Math.max(1, Math.ceil((remaining + 1 - level) / refillPerMs));
  const retryAfterMs = allowed ? 0 : Math.max(1, Math.ceil((asked - level) / refillPerMs));
  return { allowed, capacity, remaining, nextTokenMs, retryAfterMs };
}

/** What one take from a key's token buckets answered: allowed or not, and each bucket's state after it (what is left). */
export interface BucketTake {
  allowed: boolean;
  /** In the order of the store's limits. */
  buckets: BucketState[];
}

/**
 * Token buckets per key, wherever they are kept, behind one interface: fastify-kit's `MemoryTokenBuckets` (one
 * process), queue's `RedisTokenBuckets` (every replica on one Redis) and db's `PostgresBucketSet` (every
 * replica on one database). A take asks `units` (1 by default) of each of the key's buckets and reports, per
 * bucket, what is left and when to come back (`BucketState`: the RateLimit and Retry-After headers read it).
 * Memory and Redis take from all or none; Postgres charges each bucket (see `PostgresBucketSet`).
 */
export interface TokenBucketStore {
  take(key: string, units?: number): Promise<BucketTake>;
}

/**
 * The cost of an anonymous render in quota units: one per started 1024 × 1024 pixels of the image (width ×
 * height × scale²; so a 1280 × 800 screenshot is one), at least one, times its format's weight (AVIF is encoded on the CPU, a PDF prints every page).
 * Renders with an API key are not weighed: each delivered image is one credit.
 */
export const AnonymousCost = {
  unitPixels: 1024 * 1024,
  formatWeights: { png: 1, jpeg: 1, webp: 1, svg: 1, pdf: 2, avif: 4 } as Readonly<Record<string, number>>,
} as const;

export function renderCostUnits(pixels: number, format: string): number {
  // An SVG answered as SVG never reaches a browser: its size is only numbers in the markup.
  if (format === 'svg') return 1;
  const weight = AnonymousCost.formatWeights[format] ?? 1;
  return Math.max(1, Math.ceil(pixels / AnonymousCost.unitPixels) * weight);
}

const Count = Type.Integer({ minimum: 0 });
const NullableCount = Type.Union([Count, Type.Null()]);

/** GET /internal/plan-rules: the credit rules as the account service applies them now. */
export const PlanRulesResponse = Type.Object({
  /** The launch period (LAUNCH_UNLIMITED): every account converts without a credit limit. */
  launchPeriod: Type.Boolean(),
  /** Credits of a Free account per window; null while the launch period lifts the limit. */
  freeCredits: NullableCount,
  windowDays: Type.Integer({ minimum: 1 }),
});
export type PlanRulesResponse = Static<typeof PlanRulesResponse>;

/** GET /api/limits: every limit a caller meets, so pages and clients need not hard-code them. */
export const LimitsResponse = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object({
      launchPeriod: Type.Boolean({
        description: 'The launch period is on: Free accounts have no credit limit (Pro and administrators never do)',
      }),
      anonymous: Type.Object({
        perMinute: Type.Integer({ minimum: 1, description: 'Quota units per minute per address (RateLimit-Policy "anon-minute")' }),
        perDay: Type.Integer({ minimum: 1, description: 'Quota units per day per address (RateLimit-Policy "anon-day")' }),
        maxInFlight: Type.Integer({ minimum: 1, description: 'Renders in flight at once per address (RateLimit-Policy "anon-in-flight")' }),
        maxPixels: Type.Integer({ minimum: 1, description: 'Largest image without credentials: width × height × scale²' }),
        unitPixels: Type.Integer({
          minimum: 1,
          description: 'A render costs one unit per started block of this many pixels, at least one',
        }),
        formatWeights: Type.Record(Type.String(), Type.Number(), { description: 'Units are multiplied by the output format’s weight' }),
      }),
      plans: Type.Object({
        free: Type.Object({
          credits: Type.Union([Count, Type.Null()], { description: 'Credits per window; null during the launch period' }),
          windowDays: Type.Integer({ minimum: 1 }),
          maxInFlight: Type.Integer({ minimum: 1 }),
        }),
        pro: Type.Object({ credits: Type.Null(), maxInFlight: Type.Integer({ minimum: 1 }) }),
      }),
    }),
  },
  { $id: 'LimitsResponse' },
);
export type LimitsResponse = Static<typeof LimitsResponse>;
