import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { PublicRoute, RouteSchema } from '@render/contracts';
import { type AccessGuards, type ContractHandler, type ServeOptions, serveRoute } from '@render/fastify-kit';
import type { FastifyInstance } from 'fastify';

/**
 * What the contracts' access rules mean in this service. The guards run when the request arrives, before its
 * body is read or validated: a signed-out caller gets its 401 (an API key on a session-only call its 403)
 * rather than a 400 about the body, and billing's 503 only once the caller is known.
 */
export const accountGuards = (app: FastifyInstance): AccessGuards => ({
  hook: 'onRequest',
  rules: { public: null, signedIn: app.authenticateReader, session: app.authenticate, admin: app.requireAdmin },
});

/** Serves the account contracts (`AccountRoutes`) in `app`, each with its access rule's guard. */
export function serveAccount(app: FastifyInstance) {
  const guards = accountGuards(app);
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  return <S extends RouteSchema>(
    route: PublicRoute<PublicRoute['method'], S>,
    handler: ContractHandler<S, TypeBoxTypeProvider>,
    options?: ServeOptions,
  ) => serveRoute(typed, guards, route, handler, options);
}
