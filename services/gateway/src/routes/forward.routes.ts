import { AccountRoutes, AppError, IdempotencyHeaders, type PublicRoute } from '@render/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { confinePath, isGatewayOnlyHeader } from '../lib/forward-path.ts';
import { fetchService } from '../lib/service-fetch.ts';

export interface ForwardOptions {
  /** Path prefixes served by the target, e.g. ['/api/auth', '/api/admin']. */
  prefixes: string[];
  target: string;
  timeoutMs: number;
  /** Named in the 503 when the target cannot be reached. */
  serviceName: string;
  hooks?: ForwardHooks;
}

/** Work around a forwarded call; `path` is without its query string. */
export interface ForwardHooks {
  /** Before the call is forwarded. */
  before?(method: string, path: string): Promise<void>;
  /** Once the target answered, before the answer is sent on. */
  after?(method: string, path: string, status: number): Promise<void>;
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
 *
 * The account service's public calls are registered one by one from their contracts (`AccountRoutes`, which
 * the service serves) so the OpenAPI document shows them; a hidden catch-all forwards anything else under the
 * prefixes, so an unknown path (or an undocumented call, Stripe's webhook) still gets the service's own answer.
 */
export default async function forwardRoutes(app: FastifyInstance, opts: ForwardOptions) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  // The schemas only document: the target validates (and words the errors), and the body here is a Buffer.
  app.setValidatorCompiler(() => () => true);

  const forwardUnder = (prefix: string) => async (request: FastifyRequest, reply: FastifyReply) => {
    const path = confinePath(request.url, prefix);
    if (path === null) throw new AppError('VALIDATION_ERROR', `Invalid path: it must stay under ${prefix}`);

    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value === undefined || HOP_BY_HOP.has(name) || isGatewayOnlyHeader(name)) continue;
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    headers.set('x-forwarded-for', request.ip);
    headers.set('x-request-id', request.id);
    const pathname = path.split('?')[0] as string;
    await opts.hooks?.before?.(request.method, pathname);

    const upstream = await fetchService(
      new URL(path, opts.target),
      {
        method: request.method,
        headers,
        body: request.method === 'GET' || request.method === 'HEAD' || !request.body ? undefined : new Uint8Array(request.body as Buffer),
        redirect: 'manual',
      },
      { timeoutMs: opts.timeoutMs, serviceName: opts.serviceName },
    );
    await opts.hooks?.after?.(request.method, pathname, upstream.status);
    reply.status(upstream.status);
    upstream.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name) && name !== 'content-encoding') reply.header(name, value);
    });
    // A Buffer skips the response serializer: the target's JSON goes out byte for byte, whatever the schema says.
    return reply.send(Buffer.from(await upstream.arrayBuffer()));
  };

  for (const prefix of opts.prefixes) {
    const forward = forwardUnder(prefix);
    for (const route of (Object.values(AccountRoutes) as PublicRoute[]).filter((r) => r.url.startsWith(`${prefix}/`) && !r.schema.hide)) {
      app.route({
        method: route.method,
        url: route.url,
        // A call that creates something takes an Idempotency-Key (`idempotency` keeps its answer).
        schema: route.idempotent ? { ...route.schema, headers: IdempotencyHeaders } : route.schema,
        ...(route.idempotent ? { config: { idempotent: route.idempotent } } : {}),
        handler: forward,
      });
    }
    app.all(prefix, { schema: { hide: true } }, forward);
    app.all(`${prefix}/*`, { schema: { hide: true } }, forward);
  }
}
