// The signed template image URL (`GET /api/template/{id}/image?<variables>&format=…&sig=<hex>`), one
// implementation for every side: the gateway checks the signing string, and the web app and the SDK
// (`render-api-sdk`'s `signTemplateUrl`, compiled into its bundle) build the URL with it. Web Crypto only and
// no schema (`@render/contracts/signed-template-url`), so it runs in browsers, Node, Deno and Bun alike.
import { RenderHeads, routePath } from './route-heads.ts';

/**
 * The string a signed image URL's `sig` is the HMAC-SHA256 (hex, keyed with the template owner's API key)
 * of: the template id, then every query parameter except `sig`, sorted by name (then value), percent-encoded.
 */
export function templateImageSigningString(templateId: string, params: Iterable<[string, string]>): string {
  return `${templateId}?${canonicalQuery(params)}`;
}

/** Every query pair except `sig`, sorted by name (then value), percent-encoded and joined with `&`. */
export function canonicalQuery(params: Iterable<[string, string]>): string {
  const pairs = [...params].filter(([name]) => name !== 'sig');
  pairs.sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  return pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
}

export interface SignedTemplateUrlInput {
  templateId: string;
  /** Variable values for the URL; empty strings are left out (the template's defaults apply). */
  variables?: Record<string, string | number>;
  format?: 'png' | 'jpeg' | 'webp' | 'avif' | 'svg' | (string & {});
  quality?: number;
}

export interface SignTemplateUrlInput extends SignedTemplateUrlInput {
  /** The API's origin, e.g. https://render.example.com */
  baseUrl: string;
  /** The template owner's API key (the signing key). */
  apiKey: string;
}

/** The URL's query pairs before `sig`, sorted by name as the signature covers them. */
export function signedTemplateUrlPairs(input: SignedTemplateUrlInput): Array<[string, string]> {
  const pairs: Array<[string, string]> = Object.entries(input.variables ?? {})
    .map(([name, value]): [string, string] => [name, String(value)])
    .filter(([, value]) => value !== '');
  if (input.format !== undefined) pairs.push(['format', input.format]);
  if (input.quality !== undefined) pairs.push(['quality', String(input.quality)]);
  return pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Hex HMAC-SHA256 of `message` keyed with `key` (Web Crypto). */
export async function hmacSha256Hex(key: string, message: string): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new Error('Web Crypto (crypto.subtle) is not available: use Node 22+, Deno, Bun or a browser on a secure origin');
  const encoder = new TextEncoder();
  const cryptoKey = await subtle.importKey('raw', encoder.encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const signature = await subtle.sign('HMAC', cryptoKey, encoder.encode(message));
  return Array.from(new Uint8Array(signature), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * A signed image URL of one of the owner's templates, which needs no credentials: put it in an `<img>` on any
 * site. Sign on a server or in the owner's own browser: the key must not be shipped to other people's browsers.
 */
export async function signTemplateUrl(input: SignTemplateUrlInput): Promise<string> {
  if (!input.templateId) throw new TypeError('templateId is required');
  if (!input.apiKey) throw new TypeError('apiKey is required to sign a template URL (the template owner’s API key)');
  const pairs = signedTemplateUrlPairs(input);
  const sig = await hmacSha256Hex(input.apiKey, templateImageSigningString(input.templateId, pairs));
  const query = [...pairs, ['sig', sig]].map(([k, v]) => `${encodeURIComponent(k as string)}=${encodeURIComponent(v as string)}`).join('&');
  const path = routePath(RenderHeads.templateImage.url, { id: input.templateId });
  return `${input.baseUrl.replace(/\/+$/, '')}${path}?${query}`;
}
