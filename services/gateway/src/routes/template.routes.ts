import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AppError,
  ErrorResponse,
  NoCredentials,
  PublicTemplateListQuery,
  RenderLimits,
  SignedIn,
  SignedInOrAnonymous,
  StarResponse,
  StringEnum,
  SuccessResponse,
  type SvgOutputFormat,
  SvgOutputFormats,
  TemplateDefaults,
  TemplateGenerateBody,
  TemplateIdParams,
  TemplateInput,
  TemplateLimits,
  TemplateListQuery,
  TemplateListResponse,
  type TemplateRenderInput,
  TemplateResponse,
  templateErrorResponses,
  templateImageSigningString,
  withMessages,
} from '@render/contracts';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { imageResponses, secureSvgReply, sendImage } from '../lib/image-reply.ts';
import { TemplateImageCache } from '../lib/template-image-cache.ts';
import type { AccountCaller, BilledRenderOptions } from '../plugins/account.plugin.ts';
import type { RenderOutcome } from '../plugins/render-queue.plugin.ts';

export interface TemplateRoutesOptions {
  cache: { prefix: string; ttlSeconds: number; maxEntries: number; maxEntryBytes: number };
  /** Cache-Control max-age of signed images: how long a browser or CDN may show one without asking. */
  browserMaxAgeSeconds: number;
}

const ImageQuery = Type.Object(
  {
    format: Type.Optional(
      withMessages(StringEnum(SvgOutputFormats), {
        enum: 'format must be one of: png, jpeg, webp, svg',
        type: 'format must be one of: png, jpeg, webp, svg',
      }),
    ),
    quality: Type.Optional(
      withMessages(Type.String({ pattern: '^[0-9]{1,3}$' }), { format: 'quality must be a whole number between 1 and 100' }),
    ),
    sig: Type.Optional(Type.String({ maxLength: 128 })),
  },
  {
    // Every other parameter is a variable; a repeated one (an array) is refused rather than guessed at.
    additionalProperties: withMessages(Type.String({ maxLength: TemplateLimits.variableValueMax }), {
      type: 'Each template variable may appear once in the query',
      maxLength: `Each variable value must be at most ${TemplateLimits.variableValueMax} characters`,
    }),
    maxProperties: TemplateLimits.maxVariables + 3,
  },
);

const RESERVED = new Set(['format', 'quality', 'sig']);

/**
 * Template calls. CRUD, lists and stars are validated here against the shared contracts and passed to the
 * templates service for the authenticated user; generation and signed images are rendered here, because
 * the gateway owns the render queue and credits.
 */
const templateRoutes: FastifyPluginAsyncTypebox<TemplateRoutesOptions> = async (app, opts) => {
  const { accountClient, templatesClient } = app;
  const cache = new TemplateImageCache(app.redis, opts.cache);
  const inflight = new Map<string, Promise<RenderOutcome>>();

  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    const userId = request.caller?.kind === 'account' ? request.caller.userId : undefined;
    const { status, body } = await templatesClient.forward(request.method, request.url, {
      userId,
      body: request.body,
      requestId: request.id,
    });
    return reply.status(status).send(body);
  };
  /**
   * A filled template is an ordinary SVG job (one credit for `request.caller`); its image URLs go along for
   * the worker to fetch. The credit is reserved while the templates service fills the template.
   */
  const renderTemplate = (
    request: FastifyRequest,
    input: Promise<TemplateRenderInput>,
    format: SvgOutputFormat,
    quality: number,
    options?: BilledRenderOptions,
  ) =>
    accountClient.renderBilled(
      request,
      'svg',
      input.then((filled) => ({
        svg: filled.svg,
        format,
        width: filled.width,
        height: filled.height,
        quality,
        transparent: false,
        ...(filled.images.length > 0 ? { images: filled.images } : {}),
      })),
      options,
    );

  const signedIn = { onRequest: accountClient.requireAccount };
  const tags = ['templates'];
  const listResponse = { 200: TemplateListResponse, ...templateErrorResponses };
  const oneResponse = { 200: TemplateResponse, ...templateErrorResponses };

  app.get(
    '/api/template',
    {
      ...signedIn,
      schema: { tags, security: SignedIn, summary: 'Own and public templates', querystring: TemplateListQuery, response: listResponse },
    },
    forward,
  );
  app.get(
    '/api/template/user',
    { ...signedIn, schema: { tags, security: SignedIn, summary: 'Own templates', querystring: TemplateListQuery, response: listResponse } },
    forward,
  );
  app.get(
    '/api/template/starred',
    {
      ...signedIn,
      schema: { tags, security: SignedIn, summary: 'Starred templates', querystring: TemplateListQuery, response: listResponse },
    },
    forward,
  );
  app.get(
    '/api/template/public',
    {
      onRequest: accountClient.identifyIfSignedIn,
      schema: {
        tags,
        security: SignedInOrAnonymous,
        summary: 'Public templates (sortBy=date newest first, or stars)',
        querystring: PublicTemplateListQuery,
        response: listResponse,
      },
    },
    forward,
  );
  app.post(
    '/api/template',
    {
      ...signedIn,
      schema: {
        tags,
        security: SignedIn,
        summary: 'Create a private template',
        body: TemplateInput,
        response: { 201: TemplateResponse, ...templateErrorResponses },
      },
    },
    forward,
  );
  app.get(
    '/api/template/:id',
    { ...signedIn, schema: { tags, security: SignedIn, summary: 'One template', params: TemplateIdParams, response: oneResponse } },
    forward,
  );
  app.put(
    '/api/template/:id',
    {
      ...signedIn,
      schema: {
        tags,
        security: SignedIn,
        summary: 'Replace a private template you own',
        params: TemplateIdParams,
        body: TemplateInput,
        response: oneResponse,
      },
    },
    forward,
  );
  app.delete(
    '/api/template/:id',
    {
      ...signedIn,
      schema: {
        tags,
        security: SignedIn,
        summary: 'Delete a template you own',
        params: TemplateIdParams,
        response: { 200: SuccessResponse, ...templateErrorResponses },
      },
    },
    forward,
  );
  app.post(
    '/api/template/:id/publish',
    {
      ...signedIn,
      schema: {
        tags,
        security: SignedIn,
        summary: 'Make a template public (irreversible)',
        params: TemplateIdParams,
        response: oneResponse,
      },
    },
    forward,
  );
  app.post(
    '/api/template/:id/duplicate',
    {
      ...signedIn,
      schema: {
        tags,
        security: SignedIn,
        summary: 'Copy a template into a new private one',
        params: TemplateIdParams,
        response: { 201: TemplateResponse, ...templateErrorResponses },
      },
    },
    forward,
  );
  for (const method of ['POST', 'DELETE'] as const) {
    app.route({
      method,
      url: '/api/template/:id/star',
      ...signedIn,
      schema: {
        tags,
        security: SignedIn,
        summary: method === 'POST' ? 'Star a template' : 'Remove your star',
        params: TemplateIdParams,
        response: { 200: StarResponse, ...templateErrorResponses },
      },
      handler: forward,
    });
  }

  app.post(
    '/api/template/generate',
    {
      ...signedIn,
      schema: {
        tags,
        security: SignedIn,
        summary: 'Render a template with variables (one credit)',
        body: TemplateGenerateBody,
        response: { ...imageResponses(['png', 'jpeg', 'webp', 'svg']), 403: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request, reply) => {
      const { templateId, variables, outputType, format, quality } = request.body;
      const caller = request.caller as AccountCaller;
      const input = templatesClient.renderInput(templateId, caller.userId, variables ?? {});
      return sendImage(reply, await renderTemplate(request, input, format, quality), outputType);
    },
  );

  app.get(
    '/api/template/:id/image',
    {
      schema: {
        tags,
        security: NoCredentials,
        summary: 'A template rendered from a signed URL (for <img> tags); cached, charged to the owner once',
        description:
          'Query: the variables as name=value, optional format and quality, and sig = hex HMAC-SHA256 keyed with the owner\'s API key over "<template id>?<all other parameters sorted by name, percent-encoded, joined with &>".',
        params: TemplateIdParams,
        querystring: ImageQuery,
        response: { ...imageResponses(['png', 'jpeg', 'webp', 'svg']), 403: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      // The raw query, not the parsed one: the signature covers exactly the pairs that were sent.
      const params = [...new URLSearchParams(request.url.split('?')[1] ?? '')];
      const signature = params.find(([name]) => name === 'sig')?.[1];
      const { ownerId, updatedAt } = await templatesClient.owner(id);
      if (!signature || !/^[0-9a-fA-F]{64}$/.test(signature)) throw new AppError('FORBIDDEN', 'Invalid or missing signature (sig)');
      const signingString = templateImageSigningString(id, params);
      const owner = await accountClient.verifySignature(ownerId, signingString, signature);

      const format = request.query.format ?? TemplateDefaults.format;
      const quality = Number(request.query.quality ?? TemplateDefaults.quality);
      if (quality < RenderLimits.minQuality || quality > RenderLimits.maxQuality) {
        throw new AppError('VALIDATION_ERROR', `quality must be between ${RenderLimits.minQuality} and ${RenderLimits.maxQuality}`);
      }
      const key = TemplateImageCache.keyOf(id, updatedAt, signingString);
      const etag = `"${key}"`;
      // Made for <img> tags on other sites: the app-wide same-origin resource policy would block those.
      reply
        .header('Cache-Control', `public, max-age=${opts.browserMaxAgeSeconds}`)
        .header('ETag', etag)
        .header('Cross-Origin-Resource-Policy', 'cross-origin');
      if (request.headers['if-none-match'] === etag)
        return secureSvgReply(reply as FastifyReply, format)
          .status(304)
          .send();

      const hit = await cache.get(key).catch(() => undefined);
      if (hit) {
        reply.header('X-Cache', 'HIT');
        const meta = {
          format: hit.format,
          mimeType: hit.mimeType,
          width: hit.width,
          height: hit.height,
          size: hit.bytes.length,
          renderMs: 0,
          queueMs: 0,
        };
        return sendImage(reply, { image: hit.bytes, meta }, 'binary');
      }

      // A page full of the same <img> (or a crawler burst) arrives all at once: within this process the
      // first miss renders and the others wait for it, so the owner is charged once.
      let render = inflight.get(key);
      const first = !render;
      if (!render) {
        render = (async () => {
          const variables = Object.fromEntries(params.filter(([name]) => !RESERVED.has(name)));
          const input = templatesClient.renderInput(id, ownerId, variables);
          request.caller = owner;
          // Others may be waiting on this render and it is cached: the first caller hanging up does not end it.
          const outcome = await renderTemplate(request, input, format, quality, { endsWithClient: false });
          const { image, meta } = outcome;
          await cache
            .set(key, { bytes: image, format: meta.format, mimeType: meta.mimeType, width: meta.width, height: meta.height })
            .catch((err: Error) => request.log.warn({ err: err.message }, 'template image not cached'));
          return outcome;
        })().finally(() => inflight.delete(key));
        inflight.set(key, render);
      }
      const outcome = await render;
      reply.header('X-Cache', first ? 'MISS' : 'HIT');
      return sendImage(reply, outcome, 'binary');
    },
  );
};

export default templateRoutes;
