import type { TSchema } from 'typebox';
import type { HttpMethod, RouteAccess, RouteHead } from './route-heads.ts';
import { NoCredentials, type SecurityRequirements, SessionOnly, SignedIn, SignedInOrAnonymous } from './security.ts';

export * from './route-heads.ts';

/** A route's schema as Fastify takes it: what the serving side validates with and the gateway documents. */
export interface RouteSchema {
  tags?: string[];
  summary?: string;
  description?: string;
  security?: SecurityRequirements;
  params?: TSchema;
  querystring?: TSchema;
  body?: TSchema;
  response?: Record<number, TSchema>;
  /** Served, but left out of the OpenAPI document. */
  hide?: boolean;
}

/**
 * One route declared once, for both sides of a call: the service registers it with this schema, and the
 * gateway validates (or checks the answer) with the same one. The schema's own type is kept, so a Fastify
 * type provider still infers the request and reply types from it.
 */
export interface RouteContract<M extends HttpMethod = HttpMethod, S extends RouteSchema = RouteSchema> {
  method: M;
  url: string;
  schema: S;
}

export const defineRoute = <M extends HttpMethod, S extends RouteSchema>(method: M, url: string, schema: S): RouteContract<M, S> => ({
  method,
  url,
  schema,
});

/** The OpenAPI security requirements each access rule is documented with. */
export const AccessSecurity: Record<RouteAccess, SecurityRequirements> = {
  public: NoCredentials,
  anyone: SignedInOrAnonymous,
  signedIn: SignedIn,
  session: SessionOnly,
  admin: SessionOnly,
};

/**
 * A public route, declared once: its method, path, schemas (params, querystring, body, answers by status),
 * who may call it, and whether an `Idempotency-Key` makes its retry safe. The gateway documents (and where it
 * serves the route itself, validates) with it, the service that serves it registers it with `serveRoute`, and
 * the web app's client calls it.
 */
export interface PublicRoute<M extends HttpMethod = HttpMethod, S extends RouteSchema = RouteSchema> extends RouteContract<M, S> {
  access: RouteAccess;
  /** It creates something: an Idempotency-Key makes its retry safe (the gateway keeps its answer). */
  idempotent?: true;
}

export function publicRoute<M extends HttpMethod, S extends RouteSchema>(
  method: M,
  url: string,
  access: RouteAccess,
  schema: S,
  options: { idempotent?: true } = {},
): PublicRoute<M, S & { security: SecurityRequirements }> {
  const { tags, ...rest } = schema;
  return {
    method,
    url,
    access,
    schema: { tags, security: AccessSecurity[access], ...rest } as S & { security: SecurityRequirements },
    ...options,
  };
}

/** A public route from its head (`route-heads.ts`: method, path, access rule, idempotency) and its schemas. */
export const publicRouteOf = <H extends RouteHead, S extends RouteSchema>(head: H, schema: S) =>
  publicRoute(head.method as H['method'], head.url, head.access, schema, head.idempotent ? { idempotent: true } : {});
