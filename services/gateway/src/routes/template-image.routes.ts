import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AppError,
  isPrototypeKeyName,
  PrototypeKeyNames,
  RenderLimits,
  RenderRoutes,
  type SvgOutputFormat,
  TemplateDefaults,
  type TemplateImageQuery,
  templateImageSigningString,
} from '@render/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import { templatePayload } from '../convert/template-payload.ts';
import { type CachedImage, ImageCache } from '../images/image-cache.ts';
import { secureSvgReply, sendImage } from '../images/image-reply.ts';
import { imageRoute } from '../images/image-route.ts';
import type { RenderOutcome } from '../plugins/render-queue.plugin.ts';

export interface TemplateImageRoutesOptions {
  cache: { prefix: string; ttlSeconds: number; maxEntries: number; maxEntryBytes: number };
  /** Cache-Control max-age of signed images: how long a browser or CDN may show one without asking. */
  browserMaxAgeSeconds: number;
}

const RESERVED = new Set(['format', 'quality', 'sig']);

/** What the signature covers: the raw query pairs, exactly as they were sent. */
const signedPairs = (request: FastifyRequest) => [...new URLSearchParams(request.url.split('?')[1] ?? '')];

function renditionOf(query: Static<typeof TemplateImageQuery>): { format: SvgOutputFormat; quality: number } {
  const format = query.format ?? TemplateDefaults.format;
  const quality = Number(query.quality ?? TemplateDefaults.quality);
  if (quality < RenderLimits.minQuality || quality > RenderLimits.maxQuality) {
    throw new AppError('VALIDATION_ERROR', `quality must be between ${RenderLimits.minQuality} and ${RenderLimits.maxQuality}`);
  }
  return { format, quality };
}

interface RenditionJob {
  id: string;
  ownerId: string;
  pairs: Array<[string, string]>;
  format: SvgOutputFormat;
  quality: number;
}

const outcomeOf = ({ bytes, ...meta }: CachedImage): RenderOutcome => ({
  image: bytes,
  meta: { ...meta, size: bytes.length, renderMs: 0, queueMs: 0 },
});

/**
 * `GET /api/template/{id}/image`: a template rendered from a signed URL, for <img> tags on other sites. The
 * signature is checked by the account service with the owner's API key; identical requests are served from
 * a Redis cache and charged to the owner once.
 */
const templateImageRoutes: FastifyPluginAsyncTypebox<TemplateImageRoutesOptions> = async (app, opts) => {
  const { identity, templatesClient, credits } = app;
  const cache = new ImageCache(app.redis, { ...opts.cache, namespace: 'tpl-img' });
  const inflight = new Map<string, Promise<RenderOutcome>>();

  /** The owner to charge, when `sig` is their signature of this exact query. */
  async function signedBy(request: FastifyRequest, id: string, ownerId: string, pairs: Array<[string, string]>) {
    const signature = pairs.find(([name]) => name === 'sig')?.[1];
    if (!signature || !/^[0-9a-fA-F]{64}$/.test(signature)) throw new AppError('FORBIDDEN', 'Invalid or missing signature (sig)');
    const signingString = templateImageSigningString(id, pairs);
    return { owner: await identity.signatureOwner(ownerId, signingString, signature, request.id), signingString };
  }

  /**
   * A page full of the same <img> (or a crawler burst) arrives all at once: within this process the first
   * miss renders and the others wait for it, so the owner is charged once.
   */
  function renderOnce(key: string, render: () => Promise<RenderOutcome>): { outcome: Promise<RenderOutcome>; first: boolean } {
    const running = inflight.get(key);
    if (running) return { outcome: running, first: false };
    const outcome = render().finally(() => inflight.delete(key));
    inflight.set(key, outcome);
    return { outcome, first: true };
  }

  /** Renders for `request.caller` (the owner) and keeps the image for the next identical request. */
  async function renderAndCache(request: FastifyRequest, key: string, job: RenditionJob) {
    const { id, ownerId, pairs, format, quality } = job;
    const variables = Object.fromEntries(pairs.filter(([name]) => !RESERVED.has(name)));
    const payload = templatePayload(templatesClient.renderInput(id, ownerId, variables, request.id), format, quality);
    // Others may be waiting on this render and it is cached: the first caller hanging up does not end it.
    const outcome = await credits.renderBilled(request, 'svg', payload, { endsWithClient: false });
    const { image, meta } = outcome;
    await cache
      .set(key, {
        bytes: image,
        format: meta.format,
        mimeType: meta.mimeType,
        width: meta.width,
        height: meta.height,
        warnings: meta.warnings,
      })
      .catch((err: Error) => request.log.warn({ err: err.message }, 'template image not cached'));
    return outcome;
  }

  const { templateImage } = RenderRoutes;
  app.get(templateImage.url, imageRoute(app, templateImage, 'template'), async (request, reply) => {
    const { id } = request.params;
    const pairs = signedPairs(request);
    const prototypeKey = pairs.find(([name]) => isPrototypeKeyName(name));
    if (prototypeKey) {
      throw new AppError(
        'VALIDATION_ERROR',
        `Query parameter "${prototypeKey[0]}" is not allowed: ${PrototypeKeyNames.join(', ')} cannot name template variables`,
      );
    }
    const { ownerId, updatedAt } = await templatesClient.owner(id, request.id);
    const { owner, signingString } = await signedBy(request, id, ownerId, pairs);
    const { format, quality } = renditionOf(request.query);

    const key = ImageCache.keyOf(id, updatedAt, signingString);
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
    if (hit) return sendImage(reply.header('X-Cache', 'HIT'), outcomeOf(hit), 'binary');

    request.caller = owner;
    const { outcome, first } = renderOnce(key, () => renderAndCache(request, key, { id, ownerId, pairs, format, quality }));
    const rendered = await outcome;
    return sendImage(reply.header('X-Cache', first ? 'MISS' : 'HIT'), rendered, 'binary');
  });
};

export default templateImageRoutes;
