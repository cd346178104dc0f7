import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AsyncRenderAccepted,
  IdempotencyHeaders,
  type MimeTypes,
  NoCredentials,
  type OutputMode,
  outputModeOf,
  type RecentRenderKind,
  type RouteSchema,
  type SecurityRequirements,
  SignedIn,
  SignedInOrAnonymous,
} from '@render/contracts';
import type { RenderKind, RenderPayload } from '@render/queue';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Static, TObject, TSchema } from 'typebox';
import { creditGivenBack } from '../limits/request-limits.ts';
import { imageResponses, sendImage } from './image-reply.ts';

type App = Parameters<FastifyPluginAsyncTypebox>[0];

export type ImageFormat = keyof typeof MimeTypes;

/**
 * Who may call an image route: `anyone` (credentials optional; without them the per-IP anonymous limit
 * applies), `signedIn` (credentials required), or `public` (no credentials read; signed URLs).
 */
export type ImageAccess = 'anyone' | 'signedIn' | 'public';

const security: Record<ImageAccess, SecurityRequirements> = { anyone: SignedInOrAnonymous, signedIn: SignedIn, public: NoCredentials };

export interface ImageRouteSpec<S extends RouteSchema> {
  tags: string[];
  access: ImageAccess;
  /** What the route's renders are in the account's usage lists (the ledger). */
  ledgerKind: RecentRenderKind;
  /** The formats the route can answer with, each documented with its media type. */
  formats: ImageFormat[];
  /** summary, description and the request's body, params or querystring. */
  schema: S;
  /** Statuses beyond those of every image route (e.g. a template's 403 and 404). */
  errors?: Record<number, TSchema>;
}

/**
 * The options every image route is declared with: its caller hook and its schema, with the security and
 * the responses (binary in each format, or JSON with base64) of an image answer. Credentials (or the
 * anonymous per-IP limit) are checked in onRequest, before the body is even parsed.
 */
export function imageRoute<S extends RouteSchema>(app: App, spec: ImageRouteSpec<S>) {
  const { identify, requireBilledAccount } = app.identity;
  const hook = spec.access === 'anyone' ? identify : spec.access === 'signedIn' ? requireBilledAccount : undefined;
  return {
    ...(hook ? { onRequest: hook } : {}),
    config: { ledgerKind: spec.ledgerKind },
    schema: {
      tags: spec.tags,
      security: security[spec.access],
      ...spec.schema,
      response: { ...imageResponses(spec.formats, spec.access === 'anyone'), ...spec.errors },
    },
  };
}

export interface RenderRouteSpec<B extends TObject, K extends RenderKind> {
  url: string;
  /** The render queue (and job schema) the payload goes to. */
  kind: K;
  /** What its renders are in the account's usage lists, when not `kind` (a template's are 'template'). */
  ledgerKind?: RecentRenderKind;
  summary: string;
  description?: string;
  body: B;
  formats: ImageFormat[];
  access?: 'anyone' | 'signedIn';
  tags?: string[];
  errors?: Record<number, TSchema>;
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
export function renderRoute<B extends TObject, K extends RenderKind>(app: App, spec: RenderRouteSpec<B, K>) {
  const { summary, description, body } = spec;
  const options = imageRoute(app, {
    tags: spec.tags ?? ['convert'],
    access: spec.access ?? 'anyone',
    ledgerKind: spec.ledgerKind ?? spec.kind,
    formats: spec.formats,
    errors: { 202: AsyncRenderAccepted, ...spec.errors },
    schema: { summary, ...(description ? { description } : {}), body },
  });
  // An async render (a `webhook`) creates something: an Idempotency-Key makes its retry safe (`idempotency`).
  const config = { ...options.config, idempotent: hasWebhook };
  const schema = { ...options.schema, headers: IdempotencyHeaders };
  app.post(spec.url, { ...options, config, schema }, async (request, reply) => {
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
