import type { ContractOf, PublicRoute, RouteHead, RouteSchema } from '@render/contracts';
import { routePath } from '@render/contracts/route-heads';
import type { Static, TSchema } from 'typebox';
import { apiFetch, apiJson, type RequestOptions } from './api-client.ts';

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

/** The full contract of a head (`@render/contracts/route-heads`): its schemas, as types only. */
type Contract<H extends RouteHead> = ContractOf<H> extends PublicRoute ? ContractOf<H> : never;

/** The arguments of a call to `H`: its input (optional when it takes none) and the request options. */
type CallArgs<H extends RouteHead> = keyof RouteInput<Contract<H>['schema']> extends never
  ? [input?: Record<string, never>, options?: CallOptions]
  : [input: RouteInput<Contract<H>['schema']>, options?: CallOptions];

/** The path of a call: the head's url with its parameters filled in, and the query. */
export function routeUrl(head: RouteHead, input: unknown): string {
  const given = (input ?? {}) as { params?: Record<string, string>; query?: Record<string, unknown> };
  let path = given.params ? routePath(head.url, given.params) : head.url;
  const query = Object.entries(given.query ?? {}).filter(([, value]) => value !== undefined && value !== '');
  if (query.length > 0) path += `?${new URLSearchParams(query.map(([name, value]) => [name, String(value)])).toString()}`;
  return path;
}

/**
 * Calls a public route by its head (packages/contracts `route-heads.ts`): the method and path come from it,
 * the parameters and body are typed by its contract's schemas, and the answer by its success schema. No URL
 * is typed here, and no schema is loaded: the heads alone keep the landing page's JavaScript small.
 */
export function callRoute<H extends RouteHead>(head: H, ...[input, options]: CallArgs<H>): Promise<RouteAnswer<Contract<H>>> {
  const body = (input as { body?: unknown } | undefined)?.body;
  return apiJson<RouteAnswer<Contract<H>>>(routeUrl(head, input), { ...options, method: head.method, body });
}

/** `callRoute` for an answer read as it comes (an image's bytes, a 202): the raw Response of a 2xx. */
export function fetchRoute<H extends RouteHead>(head: H, ...[input, options]: CallArgs<H>): Promise<Response> {
  const body = (input as { body?: unknown } | undefined)?.body;
  return apiFetch(routeUrl(head, input), { ...options, method: head.method, body });
}
