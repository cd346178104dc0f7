import cors from '@fastify/cors';
import { AppError } from '@render/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/** Which other origins browsers may call the API from (`CORS_ORIGINS`). */
export interface CorsPolicy {
  /** Origins allowed everything the web app may do (sessions included). */
  origins: Set<string>;
  /** `*`: any origin, for anonymous and API-key calls only. */
  anyOrigin: boolean;
}

/**
 * `CORS_ORIGINS`: empty (CORS off: browsers on other origins cannot read answers), or a comma-separated list of
 * origins (`https://app.example.com`) and/or `*`. Anything else stops the boot with a message saying which entry.
 */
export function parseCorsOrigins(raw: string): CorsPolicy | null {
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) return null;
  const policy: CorsPolicy = { origins: new Set(), anyOrigin: false };
  for (const entry of entries) {
    if (entry === '*') {
      policy.anyOrigin = true;
      continue;
    }
    let origin: string | undefined;
    try {
      const url = new URL(entry);
      if (url.protocol === 'http:' || url.protocol === 'https:') origin = url.origin;
    } catch {
      origin = undefined;
    }
    if (origin !== entry)
      throw new Error(`CORS_ORIGINS: "${entry}" is not an origin (scheme://host[:port], no path or trailing slash), nor "*"`);
    policy.origins.add(origin);
  }
  return policy;
}

/** Request headers a page on another origin may send. */
export const CORS_ALLOWED_HEADERS = ['content-type', 'authorization', 'x-api-key', 'idempotency-key', 'x-request-id'];

/** Answer headers its scripts may read: the render's, the limits', the request id. */
export const CORS_EXPOSED_HEADERS = [
  'X-Request-Id',
  'X-Render-Time',
  'X-Queue-Time',
  'Server-Timing',
  'X-Cache',
  'X-Render-Warnings',
  'X-Credits-Remaining',
  'X-Credits-Limit',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'Location',
  'Content-Disposition',
  'Idempotent-Replayed',
];

/** A session token (not an API key, which starts with rk_) in the Authorization header. */
const carriesSessionToken = (request: FastifyRequest) => {
  const match = /^Bearer\s+(\S+)/i.exec(request.headers.authorization ?? '');
  return match?.[1] !== undefined && !match[1].startsWith('rk_');
};

/**
 * CORS for browsers on other origins (`CORS_ORIGINS`; none by default). Listed origins may make any call the web
 * app makes. `*` admits every origin for anonymous and API-key calls only: a session token sent from an origin
 * not listed (and not the gateway's own) is refused with a 403, so a third-party page can never act with a
 * visitor's session. No answer allows credentials (cookies): the API uses none. Preflights are answered for
 * every path (204, cached 10 minutes by the browser); an origin not allowed gets no CORS headers, so its
 * browser refuses the answer.
 */
async function corsPlugin(app: FastifyInstance, policy: CorsPolicy) {
  await app.register(cors, {
    origin: (origin, callback) => {
      if (origin && policy.origins.has(origin)) callback(null, origin);
      else callback(null, policy.anyOrigin ? '*' : false);
    },
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    credentials: false,
    maxAge: 600,
    // Any OPTIONS gets a 204: a malformed preflight gets no CORS headers rather than an answer in another shape.
    strictPreflight: false,
  });
  if (!policy.anyOrigin) return;
  app.addHook('onRequest', async (request) => {
    const origin = request.headers.origin;
    if (!origin || policy.origins.has(origin) || origin === `${request.protocol}://${request.host}`) return;
    if (carriesSessionToken(request))
      throw new AppError(
        'FORBIDDEN',
        'Session tokens are accepted only from the web app’s own origin: from another origin, send your API key (X-API-Key or Authorization: Bearer rk_…)',
      );
  });
}

export default fp(corsPlugin, { name: 'cors', fastify: '5.x' });
