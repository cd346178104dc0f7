import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyServerOptions } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';

// What a caller's id may be: what ids are made of (UUIDs, ULIDs, base64, trace ids), nothing that could
// break a log line or a header (no spaces, quotes or control characters), and bounded.
const SAFE_REQUEST_ID = /^[A-Za-z0-9._~:+/=@-]{1,128}$/;

/** The caller's `X-Request-Id` when it is a safe, bounded token; otherwise a fresh UUID. */
export function requestIdOf(raw: Pick<IncomingMessage, 'headers'>): string {
  const sent = raw.headers[REQUEST_ID_HEADER];
  return typeof sent === 'string' && SAFE_REQUEST_ID.test(sent) ? sent : randomUUID();
}

/**
 * Server options every service is built with: the request's id is the caller's `X-Request-Id` (validated:
 * Fastify's own `requestIdHeader` takes any string) or a UUID. `RequestLogController` logs it as `requestId`
 * on each line of the request. The gateway passes it on to the services it calls and to the render worker,
 * which adopt it.
 */
export const requestIdOptions = {
  genReqId: requestIdOf,
  requestIdHeader: false,
} satisfies Partial<FastifyServerOptions>;
