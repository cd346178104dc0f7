import { type PublicRoute, type RouteSchema, routePath } from '@render/contracts';
import type { Static, TSchema } from 'typebox';
import { apiJson, type RequestOptions } from './api-client.ts';

/** A schema's static type, or `never` when the contract has none. */
type Of<S, K extends string> = S extends { [key in K]: infer T extends TSchema } ? Static<T> : never;

/** What a contract answers on success: its 200 (or 201) schema's type. */
export type RouteAnswer<R extends PublicRoute> = R['schema']['response'] extends { 200: infer T extends TSchema }
  ? Static<T>
  : R['schema']['response'] extends { 201: infer T extends TSchema }
    ? Static<T>
    : unknown;

/** What a call to a contract takes: its path parameters, query and body, each only when the contract has one. */
export type RouteInput<S extends RouteSchema> = ([Of<S, 'params'>] extends [never] ? unknown : { params: Of<S, 'params'> }) &
  ([Of<S, 'querystring'>] extends [never] ? unknown : { query?: { [K in keyof Of<S, 'querystring'>]?: string | number } }) &
  ([Of<S, 'body'>] extends [never] ? unknown : { body: Of<S, 'body'> });

type CallOptions = Pick<RequestOptions, 'signal' | 'anonymous' | 'headers'>;

/**
 * Calls a public route through its contract (packages/contracts): the method and path come from it, the
 * parameters and body are typed by its schemas, and the answer by its success schema. No URL is typed here.
 */
export function callRoute<R extends PublicRoute>(
  route: R,
  ...[input, options]: keyof RouteInput<R['schema']> extends never
    ? [input?: Record<string, never>, options?: CallOptions]
    : [input: RouteInput<R['schema']>, options?: CallOptions]
): Promise<RouteAnswer<R>> {
  const given = (input ?? {}) as { params?: Record<string, string>; query?: Record<string, unknown>; body?: unknown };
  let path = given.params ? routePath(route.url, given.params) : route.url;
  const query = Object.entries(given.query ?? {}).filter(([, value]) => value !== undefined && value !== '');
  if (query.length > 0) path += `?${new URLSearchParams(query.map(([name, value]) => [name, String(value)])).toString()}`;
  return apiJson<RouteAnswer<R>>(path, { ...options, method: route.method, body: given.body });
}
