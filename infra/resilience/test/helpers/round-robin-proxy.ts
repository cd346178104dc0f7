/**
 * The load balancer in front of the gateways, as an operator would run one: @fastify/reply-from with several
 * bases, which it spreads over with undici's BalancedPool (round-robin, weighted down on upstream errors).
 * Bodies pass through as streams; every method and path is forwarded.
 */
import replyFrom from '@fastify/reply-from';
import Fastify, { type FastifyInstance } from 'fastify';

export interface RoundRobinProxy {
  url: string;
  close(): Promise<void>;
}

export async function startRoundRobinProxy(upstreams: string[]): Promise<RoundRobinProxy> {
  if (upstreams.length < 2) throw new Error('a round-robin proxy needs two upstreams or more');
  // The gateway's 5 MiB bodies, with room for the JSON around them.
  const app: FastifyInstance = Fastify({ bodyLimit: 6 * 1024 * 1024 });
  await app.register(replyFrom, { base: upstreams });
  app.removeAllContentTypeParsers();
  // The body stays the request's stream, which reply-from pipes upstream as it is (a parsed body would be
  // re-encoded: a Buffer as JSON would become {"type":"Buffer",...}).
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  app.all('/*', (request, reply) => reply.from(request.url));
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url: address, close: () => app.close() };
}
