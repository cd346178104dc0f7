import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError, MimeTypes, RenderLinkLimits, RenderLinkMessages, RenderRoutes, renderLinkSigningString } from '@render/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { checkLinkBody, decodeLinkBody, payloadOf } from '../convert/render-link-body.ts';
import { accountOf } from '../identity/caller.ts';
import { sendImage } from '../images/image-reply.ts';
import { imageRoute } from '../images/image-route.ts';

/** What the signature covers: the raw query pairs, exactly as they were sent. */
const rawPairs = (request: FastifyRequest) => [...new URLSearchParams(request.url.split('?')[1] ?? '')];

function ttlOf(raw: string | undefined): number {
  const ttl = raw === undefined ? RenderLinkLimits.defaultTtlSeconds : Number(raw);
  if (ttl < RenderLinkLimits.minTtlSeconds || ttl > RenderLinkLimits.maxTtlSeconds)
    throw new AppError('VALIDATION_ERROR', RenderLinkMessages.ttl);
  return ttl;
}

/**
 * An image's headers, only once it is there (an error must not be kept by browsers and CDNs for the ttl): the
 * link's ttl as max-age, and made for <img> tags on other sites, which the app-wide same-origin resource
 * policy would block.
 */
const imageHeaders = (reply: FastifyReply, ttl: number) =>
  reply.header('Cache-Control', `public, max-age=${ttl}`).header('Cross-Origin-Resource-Policy', 'cross-origin');

/**
 * `GET /api/render/{kind}`: a render link, the image of any kind from a URL (for <img> tags on other sites).
 * The query is the kind's POST body, checked by its schema; the key's owner (the signature checked by the
 * account service, or its absence allowed by the account's setting) is charged once per cache miss, through
 * the render cache (decision 0024) for the link's ttl. HEAD checks the link and renders nothing.
 */
const renderLinkRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { renderLink } = RenderRoutes;
  const options = imageRoute(app, renderLink, 'html');
  // One route for every kind: the ledger records the job's own kind (`ledgerKindOf`'s fallback).
  const config = {};
  app.get(renderLink.url, { ...options, config }, async (request, reply) => {
    const { kind } = request.params;
    const { key, sig, ttl: rawTtl } = request.query;
    const ttl = ttlOf(rawTtl);
    const body = decodeLinkBody(kind, request.query as Record<string, string>);
    checkLinkBody(request, kind, body);
    const signingString = renderLinkSigningString(kind, rawPairs(request));
    const owner = await app.authClient.renderLinkOwner(key.toLowerCase(), signingString, sig, request.id);
    request.caller = accountOf(owner);

    // A HEAD (link checkers, unfurlers) learns the link is good and what it answers, without a render or a charge.
    if (request.method === 'HEAD') {
      imageHeaders(reply as FastifyReply, ttl);
      const format = (body.format as keyof typeof MimeTypes | undefined) ?? 'png';
      return (reply as FastifyReply).type(MimeTypes[format] ?? MimeTypes.png).send();
    }
    const render = () => app.credits.renderBilled(request, kind, payloadOf(kind, body), { endsWithClient: false });
    // The ttl is part of the entry: a link asking for 60 s never gets an image another link kept for a day.
    const { outcome, hit } = await app.renderCache.through(request, body, ttl, render, `ttl:${ttl}`);
    return sendImage(imageHeaders(reply as FastifyReply, ttl).header('X-Cache', hit ? 'HIT' : 'MISS'), outcome, 'binary');
  });
};

export default renderLinkRoutes;
