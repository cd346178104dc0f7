/**
 * HMAC-SHA256 through Web Crypto (`globalThis.crypto.subtle`): the same code in browsers, Node 22+, Deno and
 * Bun, with no `node:` import.
 */
const encoder = new TextEncoder();

const subtle = () => {
  const api = globalThis.crypto?.subtle;
  if (!api) throw new Error('Web Crypto (crypto.subtle) is not available: use Node 22+, Deno, Bun or a browser on a secure origin');
  return api;
};

export async function hmacSha256(key: string, message: string | Uint8Array): Promise<Uint8Array> {
  const cryptoKey = await subtle().importKey('raw', encoder.encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const data = typeof message === 'string' ? encoder.encode(message) : message;
  return new Uint8Array(await subtle().sign('HMAC', cryptoKey, data as Uint8Array<ArrayBuffer>));
}

export const toHex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

export async function hmacSha256Hex(key: string, message: string | Uint8Array): Promise<string> {
  return toHex(await hmacSha256(key, message));
}

/** Compares two strings (hex digests) in time that depends only on their length: no early exit on the first difference. */
export function timingSafeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i += 1) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
