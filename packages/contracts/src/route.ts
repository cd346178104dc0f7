import type { TSchema } from 'typebox';
import { AppError } from './errors.ts';
import type { SecurityRequirements } from './security.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

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

/** `url` with its `:name` parameters filled in, each percent-encoded as one path segment. */
export function routePath(url: string, params: Record<string, string>): string {
  return url.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new AppError('INTERNAL_ERROR', `routePath: no value for :${name} of ${url}`);
    return encodeURIComponent(value);
  });
}
