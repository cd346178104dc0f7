import type { PublicRoute, RouteAccess, RouteSchema } from '@render/contracts';
import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifyTypeProvider,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from 'fastify';

/** A check that lets a caller through (resolving) or refuses it (throwing its `AppError`). */
export type AccessGuard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * What each access rule means to one service: its guard, or `null` for a rule that needs none (`public`, or
 * `anyone` where the service reads credentials itself). `hook` is the request phase the guards run in.
 */
export interface AccessGuards {
  hook: 'onRequest' | 'preValidation' | 'preHandler';
  rules: Partial<Record<RouteAccess, AccessGuard | null>>;
}

type Instance<TP extends FastifyTypeProvider> = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TP
>;

export type ContractHandler<S extends RouteSchema, TP extends FastifyTypeProvider> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  S,
  TP
>;

/** Route options a service may still add: a body limit, config. Never a method, path, schema or guard. */
export type ServeOptions = Pick<RouteShorthandOptions, 'bodyLimit' | 'config'>;

/**
 * The schema a service serves a contract with: its input schemas validate, and its successful answers are
 * serialised with theirs. Error answers are the error handler's problem bodies, sent as they are (the
 * contract's error statuses document them for the gateway's OpenAPI document).
 */
export function servedSchema(schema: RouteSchema): RouteSchema {
  if (!schema.response) return schema;
  const response = Object.fromEntries(Object.entries(schema.response).filter(([status]) => Number(status) < 400));
  return { ...schema, response };
}

/** The guard a service has for a contract's access rule; a rule the service has not said how to check fails at start. */
export function guardFor(guards: AccessGuards, route: PublicRoute): AccessGuard | null {
  const guard = guards.rules[route.access];
  if (guard === undefined) throw new Error(`${route.method} ${route.url}: this service has no guard for access "${route.access}"`);
  return guard;
}

/**
 * Registers a contract's handler: the method, path, schema and access rule all come from the contract, so a
 * service cannot serve a route at another address or with another rule than the one documented and called.
 */
export function serveRoute<S extends RouteSchema, TP extends FastifyTypeProvider>(
  app: Instance<TP>,
  guards: AccessGuards,
  route: PublicRoute<PublicRoute['method'], S>,
  handler: ContractHandler<S, TP>,
  options: ServeOptions = {},
): void {
  const guard = guardFor(guards, route);
  // The handler's types come from the contract's schema (the signature above); Fastify's own option types
  // cannot follow a generic type provider through `route`, hence the plain instance here.
  (app as unknown as FastifyInstance).route({
    ...options,
    method: route.method,
    url: route.url,
    schema: servedSchema(route.schema),
    ...(guard ? { [guards.hook]: guard } : {}),
    handler: handler as unknown as RouteHandlerMethod,
  });
}
