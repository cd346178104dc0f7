import { ApiKeysRepository, PostgresTokenBuckets } from '@render/db';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { KeyUse } from '../lib/key-use.ts';
import { ApiKeyCipher } from '../lib/secrets.ts';

/** Every auth replica shares these (buckets in Postgres), so more replicas do not mean more attempts. */
export interface RateLimits {
  loginPerAccount: PostgresTokenBuckets;
  loginPerIp: PostgresTokenBuckets;
  /** Verification and reset mails per address: 1 a minute and 5 an hour. */
  mailPerMinute: PostgresTokenBuckets;
  mailPerHour: PostgresTokenBuckets;
}

const MAIL_HOUR_MS = 3_600_000;
/** Bucket rows older than their window have refilled, so they can go; swept this often. */
const PRUNE_INTERVAL_MS = 10 * 60_000;

declare module 'fastify' {
  interface FastifyInstance {
    apiKeyCipher: ApiKeyCipher;
    /** When API keys were last used (written at most once a minute per key). */
    keyUse: KeyUse;
    rateLimits: RateLimits;
    /** The shared secret /internal/* callers send as X-Internal-Token. */
    internalToken: string;
  }
}

interface SecurityOptions {
  apiKeyEncryptionKey: string;
  internalToken: string;
  loginMaxPerAccount: number;
  loginMaxPerIp: number;
  loginWindowSeconds: number;
}

async function securityPlugin(app: FastifyInstance, opts: SecurityOptions) {
  const window = opts.loginWindowSeconds * 1000;
  app.decorate('apiKeyCipher', new ApiKeyCipher(opts.apiKeyEncryptionKey));
  app.decorate('internalToken', opts.internalToken);
  app.decorate(
    'keyUse',
    new KeyUse(new ApiKeysRepository(app.db), (err) => app.log.warn({ err: err.message }, 'API key last use not written')),
  );
  const buckets = (name: string, capacity: number, windowMs: number) => new PostgresTokenBuckets(app.db, name, capacity, windowMs);
  app.decorate('rateLimits', {
    loginPerAccount: buckets('login:account', opts.loginMaxPerAccount, window),
    loginPerIp: buckets('login:ip', opts.loginMaxPerIp, window),
    mailPerMinute: buckets('mail:minute', 1, 60_000),
    mailPerHour: buckets('mail:hour', 5, MAIL_HOUR_MS),
  });
  const longestWindow = Math.max(window, MAIL_HOUR_MS);
  const timer = setInterval(() => {
    PostgresTokenBuckets.prune(app.db, longestWindow).catch((err: Error) => app.log.warn({ err: err.message }, 'rate-limit prune failed'));
  }, PRUNE_INTERVAL_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}

export default fp(securityPlugin, { name: 'security', fastify: '5.x', dependencies: ['db'] });
