import type { FastifyInstance } from 'fastify';
import type { ForwardHooks } from '../routes/forward.routes.ts';

/**
 * Forwarded calls that change nothing a gateway keeps about an account between calls (its API key, plan or
 * role): signing in or up, a token refresh, emails, and the Stripe pages opened (a plan changes only when
 * Stripe's webhook says so). Every other successful change is published to all replicas (`accountChanges`).
 */
const UNCHANGING = new Set([
  '/api/auth/signup',
  '/api/auth/login',
  '/api/auth/refresh',
  '/api/auth/verify',
  '/api/auth/resend-verification',
  '/api/auth/forgot-password',
  '/api/auth/upgrade',
  '/api/auth/manage-billing',
]);
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** What the gateway does around a forwarded account call (see `ForwardHooks`). */
export function accountForwardHooks(app: FastifyInstance): ForwardHooks {
  return {
    async before(method, path) {
      // Charges are settled a few milliseconds after their answers: usage read now must count them all.
      if (READS.has(method) && (path.startsWith('/api/auth/usage') || path.startsWith('/api/admin'))) await app.authClient.flushCharges();
    },
    async after(method, path, status) {
      if (READS.has(method) || status >= 400 || UNCHANGING.has(path)) return;
      // Before the answer: the caller's next call, on any replica, must not find its old key leased.
      await app.accountChanges.publish().catch((err: Error) => {
        // Redis is away: every replica's subscription dropped with it, and they lease nothing until it is back.
        app.log.warn({ err: err.message }, 'account change not published');
      });
    },
  };
}
