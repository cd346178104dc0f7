import { hmacSha256Hex } from './crypto.ts';

/**
 * Signed template image URLs (`GET /api/template/{id}/image?<variables>&format=…&sig=<hex>`), which need no
 * credentials: put them in an `<img>` on any site. `sig` is the HMAC-SHA256, keyed with the template owner's
 * API key, of the template id and the query pairs sorted by name, percent-encoded; the gateway checks exactly
 * that (packages/contracts `templateImageSigningString`; the web app's `signed-url.ts` builds the same URLs).
 * Sign on a server or in the owner's own browser: the key must not be shipped to other people's browsers.
 */
export interface SignedTemplateUrlInput {
  templateId: string;
  /** Variable values for the URL; empty strings are left out (the template's defaults apply). */
  variables?: Record<string, string | number>;
  format?: 'png' | 'jpeg' | 'webp' | 'svg' | (string & {});
  quality?: number;
}

export interface SignTemplateUrlInput extends SignedTemplateUrlInput {
  /** The API's origin, e.g. https://render.example.com */
  baseUrl: string;
  /** The template owner's API key (the signing key). */
  apiKey: string;
}

/** The string the signature covers: `<templateId>?<k=v&… sorted by name, then value; sig left out>`. */
export function templateImageSigningString(templateId: string, params: Iterable<[string, string]>): string {
  const pairs = [...params].filter(([name]) => name !== 'sig');
  pairs.sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  const query = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return `${templateId}?${query}`;
}

const byName = ([a]: [string, string], [b]: [string, string]) => (a < b ? -1 : a > b ? 1 : 0);

export async function signTemplateUrl(input: SignTemplateUrlInput): Promise<string> {
  if (!input.templateId) throw new TypeError('templateId is required');
  if (!input.apiKey) throw new TypeError('apiKey is required to sign a template URL (the template owner’s API key)');
  const pairs: Array<[string, string]> = Object.entries(input.variables ?? {})
    .map(([name, value]): [string, string] => [name, String(value)])
    .filter(([, value]) => value !== '');
  if (input.format !== undefined) pairs.push(['format', input.format]);
  if (input.quality !== undefined) pairs.push(['quality', String(input.quality)]);
  pairs.sort(byName);
  const sig = await hmacSha256Hex(input.apiKey, templateImageSigningString(input.templateId, pairs));
  const query = [...pairs, ['sig', sig]].map(([k, v]) => `${encodeURIComponent(k!)}=${encodeURIComponent(v!)}`).join('&');
  return `${input.baseUrl.replace(/\/+$/, '')}/api/template/${encodeURIComponent(input.templateId)}/image?${query}`;
}
