import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fetchService } from '../lib/service-fetch.ts';

export interface ForwardOptions {
  /** Path prefixes served by the target, e.g. ['/api/auth', '/api/admin']. */
  prefixes: string[];
  target: string;
  timeoutMs: number;
  /** Named in the 503 when the target cannot be reached. */
  serviceName: string;
}

// Hop-by-hop headers describe one connection, not the request; the length is recomputed by fetch.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'host',
  'content-length',
]);

/**
 * Forwards whole path prefixes to another service. The body is forwarded as the exact bytes received
 * (webhook signatures are computed over them), so this scope parses nothing. The web app and API users
 * only ever talk to the gateway.
 */
export default async function forwardRoutes(app: FastifyInstance, opts: ForwardOptions) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value === undefined || HOP_BY_HOP.has(name)) continue;
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    headers.set('x-forwarded-for', request.ip);
    headers.set('x-request-id', request.id);

    const upstream = await fetchService(
      new URL(request.url, opts.target),
      {
        method: request.method,
        headers,
        body: request.method === 'GET' || request.method === 'HEAD' || !request.body ? undefined : new Uint8Array(request.body as Buffer),
        redirect: 'manual',
      },
      { timeoutMs: opts.timeoutMs, serviceName: opts.serviceName },
    );
    reply.status(upstream.status);
    upstream.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name) && name !== 'content-encoding') reply.header(name, value);
    });
    return reply.send(Buffer.from(await upstream.arrayBuffer()));
  };

  for (const prefix of opts.prefixes) {
    app.all(prefix, { schema: { hide: true } }, forward);
    app.all(`${prefix}/*`, { schema: { hide: true } }, forward);
  }
}
