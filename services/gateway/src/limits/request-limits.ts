import { AppError } from '@render/contracts';
import type { FastifyRequest } from 'fastify';
import type { BucketLimit, ConcurrencyLimit } from './rate-limit-fields.ts';

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
