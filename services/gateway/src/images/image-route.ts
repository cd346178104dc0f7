import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  IdempotencyHeaders,
  type ImageRouteContract,
  type OutputMode,
  outputModeOf,
  type RecentRenderKind,
  type RouteSchema,
} from '@render/contracts';
import { guardFor } from '@render/fastify-kit';
import type { RenderKind, RenderPayload } from '@render/queue';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Static, TObject } from 'typebox';
import { creditGivenBack } from '../limits/request-limits.ts';
import { imageResponses, sendImage } from './image-reply.ts';

type App = Parameters<FastifyPluginAsyncTypebox>[0];

/**
 * The options every image route is registered with: its caller hook by the contract's access rule (`anyone`:
 * credentials optional, without them the per-IP anonymous limit applies; `signedIn`: a billable account;
 * `public`: no credentials read, signed URLs), and its schema with the image answers (binary in each of the
 * contract's formats, or JSON with base64) beside the contract's other statuses. Credentials (or the
 * anonymous per-IP limit) are checked in onRequest, before the body is even parsed.
 */
export function imageRoute<R extends ImageRouteContract>(app: App, route: R, ledgerKind: RecentRenderKind) {
  const { identify, requireBilledAccount } = app.identity;
  const hook = guardFor({ hook: 'onRequest', rules: { anyone: identify, signedIn: requireBilledAccount, public: null } }, route);
  const schema: R['schema'] = route.schema;
  const response = { ...imageResponses([...route.formats], route.access === 'anyone'), ...schema.response };
  return { ...(hook ? { onRequest: hook } : {}), config: { ledgerKind }, schema: { ...schema, response } };
}

/** A render call's contract: its body is what the job payload is built from. */
type RenderContract<B extends TObject> = ImageRouteContract<'POST', RouteSchema & { body: B }>;

export interface RenderRouteSpec<B extends TObject, K extends RenderKind> {
  /** The render queue (and job schema) the payload goes to. */
  kind: K;
  /** What its renders are in the account's usage lists, when not `kind` (a template's are 'template'). */
  ledgerKind?: RecentRenderKind;
  /** Checks what the schema cannot and builds the job payload, or the promise of one (a template being filled). */
  toPayload(body: Static<B>, request: FastifyRequest): RenderPayload<K> | Promise<RenderPayload<K>>;
  /**
   * For `cache`: what the image depends on beyond the body (a template's version), asked before the cache
   * is read, so a changed source misses and a gone one gets its error rather than an old image.
   */
  cacheVersion?(body: Static<B>, request: FastifyRequest): Promise<string>;
}

const hasWebhook = (request: FastifyRequest) => (request.body as { webhook?: unknown } | undefined)?.webhook !== undefined;

/**
 * A billed render call: body → job payload → reserve, render, settle (`credits`) → the image, as JSON (base64)
 * or bytes by `output` / `outputType` (either name on every route: `outputModeOf`).
 */
export function renderRoute<B extends TObject, K extends RenderKind>(app: App, route: RenderContract<B>, spec: RenderRouteSpec<B, K>) {
  const options = imageRoute(app, route, spec.ledgerKind ?? spec.kind);
  // An async render (a `webhook`) creates something: an Idempotency-Key makes its retry safe (`idempotency`).
  const config = { ...options.config, idempotent: hasWebhook };
  const schema = { ...options.schema, headers: IdempotencyHeaders };
  app.post(route.url, { ...options, config, schema }, async (request, reply) => {
    // Validated against `body` by Fastify; its generic type is only lost to the type provider's mapping.
    const input = request.body as Static<B>;
    // Read first: two names that disagree are a 400 whatever else the call asks for.
    const output = outputModeOf(input as { output?: OutputMode; outputType?: OutputMode });
    const webhook = (input as { webhook?: string }).webhook;
    // Async: the body is checked and the payload built (a template filled) first, so what is wrong with the
    // request is still its 4xx; then 202 at once, the render (the same billed pipeline) in the background.
    if (webhook !== undefined) {
      const target = app.asyncRenders.webhookTarget(webhook);
      const label = spec.ledgerKind ?? spec.kind;
      const accepted = await app.asyncRenders.submit(request, {
        kind: spec.kind,
        label,
        payload: await spec.toPayload(input, request),
        webhook: target,
      });
      // The reply's type is inferred from the image responses only; 202 is declared with them (`errors`).
      return (reply as unknown as FastifyReply)
        .status(202)
        .header('Location', accepted.statusUrl)
        .send({ success: true as const, data: accepted });
    }
    const render = async () => app.credits.renderBilled(request, spec.kind, spec.toPayload(input, request));
    const seconds = (input as { cache?: number }).cache ?? 0;
    if (seconds <= 0) return sendImage(reply, await render(), output);
    // A hit comes with no render of its own: the credit reserved in onRequest is given back unclaimed.
    const version = await spec.cacheVersion?.(input, request);
    const { outcome, hit } = await app.renderCache.through(request, input, seconds, render, version);
    if (hit) creditGivenBack(request);
    return sendImage(reply.header('X-Cache', hit ? 'HIT' : 'MISS'), outcome, output);
  });
}
