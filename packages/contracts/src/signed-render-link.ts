// Render links (`GET /api/render/{kind}?<body fields>&key=…&ttl=…&sig=…`), one implementation for every side:
// the gateway checks the signing string with it, and the web app and the SDK (`render-api-sdk`'s
// `signRenderUrl`, compiled into its bundle) build links with it. Web Crypto only and no schema
// (`@render/contracts/signed-render-link`), so it runs in browsers, Node, Deno and Bun alike.
import { RenderHeads, routePath } from './route-heads.ts';
import { canonicalQuery, hmacSha256Hex } from './signed-template-url.ts';

/** The render kinds a link can name: the path's `{kind}`. */
export const RENDER_LINK_KINDS = ['screenshot', 'chart', 'code', 'html', 'svg'] as const;
export type RenderLinkKind = (typeof RENDER_LINK_KINDS)[number];

/** The link's own parameters; every other one is a body field. */
export const RENDER_LINK_PARAMS = { key: 'key', sig: 'sig', ttl: 'ttl' } as const;

/**
 * How a body field travels in the query: a string as it is, anything else (number, boolean, object, array)
 * as its JSON text. The gateway reads each parameter back by the field's type in the contract schema.
 */
export const encodeLinkValue = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * The string a render link's `sig` is the HMAC-SHA256 (hex, keyed with the account's API key) of: the link's
 * path (`/api/render/<kind>`), `?`, then every query parameter except `sig` (`key` and `ttl` included), sorted
 * by name (then value), each name and value percent-encoded (encodeURIComponent) and joined with `&`.
 */
export function renderLinkSigningString(kind: string, params: Iterable<[string, string]>): string {
  return `${routePath(RenderHeads.renderLink.url, { kind })}?${canonicalQuery(params)}`;
}

/** The link's `key`: the lowercase hex SHA-256 of the account's API key, which names the key without revealing it. */
export async function renderLinkKey(apiKey: string): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new Error('Web Crypto (crypto.subtle) is not available: use Node 22+, Deno, Bun or a browser on a secure origin');
  const digest = await subtle.digest('SHA-256', new TextEncoder().encode(apiKey));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export interface SignRenderUrlInput {
  /** The API's origin, e.g. https://render.example.com */
  baseUrl: string;
  /** The account's API key: it signs the link and is never put in it (only its SHA-256, as `key`). */
  apiKey: string;
  kind: RenderLinkKind;
  /** The body of the matching POST call (`output`, `outputType`, `cache` and `webhook` do not apply to links). */
  body: Record<string, unknown>;
  /** Seconds the image is cached and may be kept by browsers and CDNs (1–86400; the gateway's default otherwise). */
  ttl?: number;
  /** false: an unsigned link (`key` only), which the account may refuse (its "signed links only" setting). */
  sign?: boolean;
}

/**
 * A render link: an image URL for `<img src>` that needs no header. Sign on a server or in the account owner's
 * own browser: the API key must not be shipped to other people's browsers.
 */
export async function signRenderUrl(input: SignRenderUrlInput): Promise<string> {
  if (!(RENDER_LINK_KINDS as readonly string[]).includes(input.kind))
    throw new TypeError(`kind must be one of ${RENDER_LINK_KINDS.join(', ')}`);
  if (!input.apiKey) throw new TypeError('apiKey is required to make a render link (the account’s API key)');
  const pairs: Array<[string, string]> = Object.entries(input.body)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => [name, encodeLinkValue(value)]);
  pairs.push([RENDER_LINK_PARAMS.key, await renderLinkKey(input.apiKey)]);
  if (input.ttl !== undefined) pairs.push([RENDER_LINK_PARAMS.ttl, String(input.ttl)]);
  if (input.sign !== false)
    pairs.push([RENDER_LINK_PARAMS.sig, await hmacSha256Hex(input.apiKey, renderLinkSigningString(input.kind, pairs))]);
  const query = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return `${input.baseUrl.replace(/\/+$/, '')}${routePath(RenderHeads.renderLink.url, { kind: input.kind })}?${query}`;
}
