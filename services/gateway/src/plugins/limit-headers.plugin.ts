import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { rateLimit, rateLimitPolicy } from '../limits/rate-limit-fields.ts';
import { creditsOfRefusal, limitsOf, type RequestLimits } from '../limits/request-limits.ts';

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
