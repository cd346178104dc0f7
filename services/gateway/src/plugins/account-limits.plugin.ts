import { AppError } from '@render/contracts';
import { Counter } from '@render/fastify-kit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { InFlightCounts } from '../limits/in-flight-counts.ts';

/** Who a render is for, as far as limits go (`RenderOptions.account`). */
export interface RenderAccount {
  id: string;
  plan: 'free' | 'pro';
  role: 'user' | 'admin';
}

export interface AccountLimits {
  /**
   * Takes one of the account's in-flight render slots, or throws a 429 (Retry-After: 1) naming the plan's
   * limit. The returned release must be called once the render ends, however it ends; calling it again does
   * nothing. Admins are not limited.
   */
  acquire(account: RenderAccount): () => void;
  /** Renders in flight for the account on this gateway replica. */
  inFlight(accountId: string): number;
  /** Renders in flight allowed per account of `plan` on this replica. */
  limitOf(plan: RenderAccount['plan']): number;
}

declare module 'fastify' {
  interface FastifyInstance {
    accountLimits: AccountLimits;
  }
}

export interface AccountLimitsOptions {
  freeMaxInFlight: number;
  proMaxInFlight: number;
}

const RETRY_AFTER_SECONDS = 1;
const planName = { free: 'Free', pro: 'Pro' } as const;

/**
 * Per-account concurrency: one account must not fill a render queue for everybody else.
 *
 * The count is kept in this process, per gateway replica: with R replicas an account may have up to
 * R × its plan's limit in flight. A count shared through Redis would cost two more round trips per render
 * (take and give back) on the billed path, whose latency is the product's main goal; the queue depth limit
 * (`MAX_QUEUE_DEPTH`) still bounds the total. Anonymous callers are not counted here: they are limited per
 * IP by `identity`.
 */
export function createAccountLimits(opts: AccountLimitsOptions, onRefused?: (account: RenderAccount) => void): AccountLimits {
  const inFlight = new InFlightCounts();
  const limitOf = (plan: RenderAccount['plan']) => (plan === 'pro' ? opts.proMaxInFlight : opts.freeMaxInFlight);

  function acquire(account: RenderAccount): () => void {
    if (account.role === 'admin') return () => {};
    const limit = limitOf(account.plan);
    if (inFlight.of(account.id) >= limit) {
      onRefused?.(account);
      const upgrade = account.plan === 'free' ? ', or upgrade to Pro for more' : '';
      throw new AppError(
        'RATE_LIMITED',
        `Too many renders in flight: the ${planName[account.plan]} plan allows ${limit} at a time per account. Retry when one has finished${upgrade}.`,
        undefined,
        { retryAfterSeconds: RETRY_AFTER_SECONDS },
      );
    }
    return inFlight.add(account.id);
  }

  return { acquire, inFlight: (accountId) => inFlight.of(accountId), limitOf };
}

async function accountLimitsPlugin(app: FastifyInstance, opts: AccountLimitsOptions) {
  const refused = new Counter({
    name: 'render_account_limited_total',
    help: 'Renders refused because the account had its plan’s limit of renders in flight on this replica',
    labelNames: ['plan'] as const,
    registers: [app.metrics],
  });
  app.decorate(
    'accountLimits',
    createAccountLimits(opts, (account) => refused.inc({ plan: account.plan })),
  );
}

export default fp(accountLimitsPlugin, { name: 'account-limits', dependencies: ['metrics'], fastify: '5.x' });
