import { AppError } from '@render/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { type BucketLimit, type ConcurrencyLimit, rateLimit, rateLimitPolicy } from '../limits/rate-limit-fields.ts';

/** An account's credits as its reservation answered them: null `limit` means unlimited. */
export interface CreditStanding {
  limit: number | null;
  /** Left after this call's credit; null when unlimited. */
  remaining: number | null;
  /** When the next credit comes back (a refused call: the oldest one counted leaves the window). */
  resetsAt?: string;
}

/** What the answer says about the caller's limits, gathered while the request runs. */
export interface RequestLimits {
  /** The token buckets the call drew from (anonymous callers: per minute, per day), with their state after it. */
  buckets: BucketLimit[];
  /** The renders-in-flight limit the call counts against, read when the answer goes out. */
  concurrency: ConcurrencyLimit | null;
  /** The account's credits on this call, as its reservation (or refusal) said. */
  credits: CreditStanding | null;
  /**
   * Whether the caller may see them: it sent the account's own credentials. A signed image URL is charged to
   * the template's owner, whose credits are nobody else's business.
   */
  ownCredits: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Null until a limit applies; see `limitsOf`. */
    limits: RequestLimits | null;
  }
}

/** The request's limits, created on first use. */
export function limitsOf(request: FastifyRequest): RequestLimits {
  request.limits ??= { buckets: [], concurrency: null, credits: null, ownCredits: false };
  return request.limits;
}

/** The call's credit goes back unused (a cache hit): the account has one more than its reservation said. */
export function creditGivenBack(request: FastifyRequest): void {
  const credits = request.limits?.credits;
  if (credits && credits.remaining !== null) credits.remaining += 1;
}

/** The standing a used-up window's 402 carries in its details (the account service's refusal), if any. */
export const creditsOfRefusal = (err: unknown): CreditStanding | undefined =>
  err instanceof AppError && err.code === 'PAYMENT_REQUIRED' ? (err.details?.credits as CreditStanding | undefined) : undefined;

/** Without a better figure, a 429 is retried in a second and a 503 in a few (a service restarting). */
const DEFAULT_RETRY_AFTER = { 429: '1', 503: '2' } as const;

const creditValue = (value: number | null) => (value === null ? 'unlimited' : String(value));

function writeLimits(reply: FastifyReply, limits: RequestLimits): void {
  const { buckets, concurrency, credits, ownCredits } = limits;
  if (buckets.length > 0 || concurrency) {
    reply.header('RateLimit-Policy', rateLimitPolicy(buckets, concurrency));
    reply.header('RateLimit', rateLimit(buckets, concurrency));
  }
  // Credits on what was delivered or accepted, and on the refusal that says they are used up.
  const status = reply.statusCode;
  if (credits && ownCredits && ((status >= 200 && status < 300) || status === 402)) {
    reply.header('X-Credits-Limit', creditValue(credits.limit));
    reply.header('X-Credits-Remaining', creditValue(credits.remaining));
    if (credits.resetsAt) reply.header('X-Credits-Reset', credits.resetsAt);
  }
}

/**
 * Limits a caller can see: RateLimit-Policy / RateLimit (IETF httpapi draft) on answers subject to the
 * anonymous limits or an account's renders-in-flight limit, X-Credits-Limit / X-Credits-Remaining on billed
 * answers with credentials, and a Retry-After on every 429 and 503 the gateway sends, whoever made it (a
 * thrown AppError names its own; forwarded answers, health checks and anything else get a default).
 */
async function limitHeadersPlugin(app: FastifyInstance) {
  app.decorateRequest('limits', null);
  // A used-up window's 402 carries the standing the account service answered (see `creditsOfRefusal`).
  app.addHook('onError', async (request, _reply, error) => {
    const credits = creditsOfRefusal(error);
    if (credits) limitsOf(request).credits = credits;
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.limits) writeLimits(reply, request.limits);
    const status = reply.statusCode;
    if ((status === 429 || status === 503) && !reply.hasHeader('retry-after')) reply.header('Retry-After', DEFAULT_RETRY_AFTER[status]);
    return payload;
  });
}

export default fp(limitHeadersPlugin, { name: 'limit-headers', fastify: '5.x' });
