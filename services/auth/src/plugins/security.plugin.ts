import { TokenBuckets } from '@render/fastify-kit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiKeyCipher } from '../lib/secrets.ts';

export interface RateLimits {
  loginPerAccount: TokenBuckets;
  loginPerIp: TokenBuckets;
  /** Verification and reset mails per address: 1 a minute and 5 an hour. */
  mailPerMinute: TokenBuckets;
  mailPerHour: TokenBuckets;
}

declare module 'fastify' {
  interface FastifyInstance {
    apiKeyCipher: ApiKeyCipher;
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
  app.decorate('rateLimits', {
    loginPerAccount: new TokenBuckets(opts.loginMaxPerAccount, window),
    loginPerIp: new TokenBuckets(opts.loginMaxPerIp, window),
    mailPerMinute: new TokenBuckets(1, 60_000),
    mailPerHour: new TokenBuckets(5, 3_600_000),
  });
}

export default fp(securityPlugin, { name: 'security', fastify: '5.x' });
