// Render links: `GET /api/render/{kind}?<body fields>&key=…&ttl=…&sig=…`, the image of any render kind from a
// URL (for <img> tags), cached for the link's ttl and billed once per cache miss to the key's owner. The
// signing string and the link builder are in signed-render-link.ts (no schema, for browsers and the SDK).
import { type Static, Type } from 'typebox';
import { RENDER_CACHE_MAX_SECONDS } from './render.ts';
import { StringEnum, withMessages } from './schema-helpers.ts';
import { RENDER_LINK_KINDS } from './signed-render-link.ts';

export const RenderLinkLimits = {
  minTtlSeconds: 1,
  maxTtlSeconds: RENDER_CACHE_MAX_SECONDS,
  /** A link without `ttl`: a day, the longest (an embedded image rarely changes). */
  defaultTtlSeconds: RENDER_CACHE_MAX_SECONDS,
} as const;

export const RenderLinkMessages = {
  kind: `kind must be one of ${RENDER_LINK_KINDS.join(', ')}`,
  keyRequired: 'A render link needs key: the SHA-256 (hex) of your API key',
  keyUnknown: 'The render link’s key matches no active API key',
  signatureInvalid: 'Invalid or missing signature (sig)',
  signedOnly: 'This account accepts only signed render links: add sig, the HMAC-SHA256 of the link made with your API key',
  ttl: `ttl must be a whole number of seconds between ${RenderLinkLimits.minTtlSeconds} and ${RenderLinkLimits.maxTtlSeconds}`,
  repeated: 'Each parameter may appear once in a render link',
  notInLinks: 'output, outputType, cache and webhook do not apply to render links: a link answers the image, cached for ttl',
  signedOnlyType: 'signedOnly must be true or false',
} as const;

/** The route's description in the OpenAPI document (its French text is keyed by it). */
export const RenderLinkDescription =
  'The query carries the body of the kind’s POST call (screenshot, chart, code, html or svg): a string field as it is, ' +
  'any other field (number, boolean, object such as a chart config, array) as its JSON text; the decoded body is checked ' +
  'against the same schema, with the same messages. `output`, `outputType`, `cache` and `webhook` do not apply. ' +
  '`key` is the lowercase hex SHA-256 of the account’s API key (it names the key without revealing it). `sig` is the hex ' +
  'HMAC-SHA256, keyed with the API key, of "/api/render/<kind>?<every other parameter (key and ttl included) sorted by name, ' +
  'then value, each percent-encoded as encodeURIComponent does, joined with &>". A link without sig is accepted unless ' +
  'the account requires signed links (PUT /api/auth/render-links). `ttl` (seconds, default and at most 86400) is how long ' +
  'the image is cached: an identical link within it is answered from the cache (X-Cache: HIT) at no charge, and the answer’s ' +
  'Cache-Control max-age is the same. HEAD checks the link and answers its headers without rendering or charging.';

export const RenderLinkParams = Type.Object({
  kind: withMessages(StringEnum(RENDER_LINK_KINDS, { description: 'The render kind: the POST call whose body the query carries' }), {
    type: RenderLinkMessages.kind,
    enum: RenderLinkMessages.kind,
  }),
});

/**
 * The link's query: `key`, optional `ttl` and `sig`, and every other parameter a field of the kind's POST body
 * (a string as it is; numbers, booleans, objects and arrays as JSON), checked against that body's schema.
 */
export const RenderLinkQuery = Type.Object(
  {
    key: withMessages(Type.String({ pattern: '^[0-9a-fA-F]{64}$', description: 'The lowercase hex SHA-256 of the account’s API key' }), {
      required: RenderLinkMessages.keyRequired,
      type: RenderLinkMessages.keyRequired,
      format: RenderLinkMessages.keyRequired,
    }),
    ttl: Type.Optional(
      withMessages(
        Type.String({
          pattern: '^[0-9]{1,6}$',
          description: `Seconds the image is cached (and Cache-Control max-age): ${RenderLinkLimits.minTtlSeconds}–${RenderLinkLimits.maxTtlSeconds}, default ${RenderLinkLimits.defaultTtlSeconds}`,
        }),
        { type: RenderLinkMessages.ttl, format: RenderLinkMessages.ttl },
      ),
    ),
    sig: Type.Optional(
      withMessages(
        Type.String({
          pattern: '^[0-9a-fA-F]{64}$',
          description:
            'Hex HMAC-SHA256, keyed with the API key, of "/api/render/<kind>?<every other parameter sorted by name, percent-encoded, joined with &>"',
        }),
        { type: RenderLinkMessages.signatureInvalid, format: RenderLinkMessages.signatureInvalid },
      ),
    ),
  },
  // Every other parameter is a body field; a repeated one (an array) is refused rather than guessed at.
  { additionalProperties: withMessages(Type.String(), { type: RenderLinkMessages.repeated }) },
);
export type RenderLinkQuery = Static<typeof RenderLinkQuery>;

/** `PUT /api/auth/render-links`: whether the account refuses unsigned render links. */
export const RenderLinkSettingsBody = Type.Object(
  {
    signedOnly: withMessages(Type.Boolean({ description: 'true: every render link must carry sig; a link with key only is refused' }), {
      type: RenderLinkMessages.signedOnlyType,
      required: RenderLinkMessages.signedOnlyType,
    }),
  },
  { additionalProperties: false },
);
export type RenderLinkSettingsBody = Static<typeof RenderLinkSettingsBody>;
