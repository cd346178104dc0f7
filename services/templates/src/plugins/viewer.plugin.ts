import { AppError, TemplateMessages } from '@render/contracts';
import { requireInternalToken } from '@render/fastify-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

export interface Viewer {
  userId: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** preHandler: the call must be made for a signed-in user. */
    requireViewer(request: FastifyRequest): Promise<void>;
  }
  interface FastifyRequest {
    /** The user the gateway authenticated, or null for a visitor. */
    viewer: Viewer | null;
  }
}

export const USER_ID_HEADER = 'x-user-id';
/** Probes and Prometheus (fastify-kit's health and metrics routes) are answered without the token. */
const OPERATIONAL_ROUTES = new Set(['/health/live', '/health/ready', '/metrics']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Who is calling. The gateway authenticates users (session tokens and API keys) and forwards the user id
 * in X-User-Id next to the internal token; without the token nothing is served but the health and metrics
 * routes, so the header cannot be forged from outside.
 */
async function viewerPlugin(app: FastifyInstance, opts: { internalToken: string }) {
  app.decorateRequest('viewer', null);
  const requireToken = requireInternalToken(opts.internalToken);
  app.addHook('onRequest', async (request) => {
    if (!OPERATIONAL_ROUTES.has(request.routeOptions.url ?? '')) await requireToken(request);
  });
  app.addHook('onRequest', async (request) => {
    const userId = request.headers[USER_ID_HEADER];
    if (typeof userId === 'string' && UUID.test(userId)) request.viewer = { userId };
  });
  app.decorate('requireViewer', async (request: FastifyRequest) => {
    if (!request.viewer) throw new AppError('UNAUTHORIZED', TemplateMessages.signInRequired);
  });
}

export default fp(viewerPlugin, { name: 'viewer', fastify: '5.x' });
