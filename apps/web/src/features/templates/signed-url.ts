import { templateImageSigningString } from '@render/contracts';

/**
 * A signed image URL (README "Templates"): `GET /api/template/{id}/image?<variables>&format=…&sig=<hex>`,
 * where `sig` is the HMAC-SHA256, keyed with the template owner's API key, of the string
 * `templateImageSigningString` builds. Signed here with WebCrypto: the key is already the signed-in
 * owner's (the dashboard shows it) and never leaves the browser.
 */
export async function hmacSha256Hex(key: string, message: string): Promise<string> {
  const encoder = new TextEncoder();
  const cryptoKey = await crypto.subtle.importKey('raw', encoder.encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const signature = await crypto.subtle.sign('HMAC', cryptoKey, encoder.encode(message));
  return Array.from(new Uint8Array(signature), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export interface SignedUrlInput {
  origin: string;
  templateId: string;
  apiKey: string;
  /** Variable values to put in the URL (empty ones are left to their defaults). */
  variables: Record<string, string>;
  format: string;
  quality?: number;
}

/** The query pairs, sorted by name as the signature covers them (sig last). */
export function signedUrlPairs(input: Omit<SignedUrlInput, 'origin' | 'apiKey'>): Array<[string, string]> {
  const pairs: Array<[string, string]> = Object.entries(input.variables).filter(([, value]) => value !== '');
  pairs.push(['format', input.format]);
  if (input.quality !== undefined) pairs.push(['quality', String(input.quality)]);
  return pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

export async function buildSignedImageUrl(input: SignedUrlInput): Promise<string> {
  const pairs = signedUrlPairs(input);
  const sig = await hmacSha256Hex(input.apiKey, templateImageSigningString(input.templateId, pairs));
  const signed: Array<[string, string]> = [...pairs, ['sig', sig]];
  const query = signed.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return `${input.origin}/api/template/${encodeURIComponent(input.templateId)}/image?${query}`;
}
