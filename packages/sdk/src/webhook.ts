import { hmacSha256Hex, timingSafeEqual } from './crypto.ts';

/** The header a webhook delivery carries (Stripe style): `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. */
export const WEBHOOK_SIGNATURE_HEADER = 'X-Render-Signature';

export interface VerifyWebhookInput {
  /** The raw request body exactly as received (do not parse and re-serialise the JSON first). */
  payload: string | Uint8Array;
  /** The `X-Render-Signature` header value. */
  header: string | null | undefined;
  /** Your account's webhook secret (`whsec_…`, shown in the dashboard). */
  secret: string;
  /** How old (or how far in the future) `t` may be, against replays; default 300 s. 0 turns the check off. */
  toleranceSeconds?: number;
  /** The current time in unix seconds (tests). */
  now?: number;
}

const encoder = new TextEncoder();

/** `<t>.<raw body>`: bytes are signed as received (decoding them first could alter invalid UTF-8). */
function signedContent(timestamp: number, payload: string | Uint8Array): string | Uint8Array {
  if (typeof payload === 'string') return `${timestamp}.${payload}`;
  const prefix = encoder.encode(`${timestamp}.`);
  const bytes = new Uint8Array(prefix.length + payload.length);
  bytes.set(prefix);
  bytes.set(payload, prefix.length);
  return bytes;
}

/** Reads `t=…,v1=…[,v1=…]`: several v1 values are accepted, so a secret can be rotated without losing deliveries. */
export function parseSignatureHeader(header: string): { timestamp: number; signatures: string[] } | null {
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,15}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase());
  }
  return timestamp === undefined || signatures.length === 0 ? null : { timestamp, signatures };
}

/**
 * True when the delivery was signed with `secret` within the tolerance. Compares in constant time and uses
 * Web Crypto only, so it runs in Node 22+, Deno, Bun, edge runtimes and browsers.
 */
export async function verifyWebhookSignature(input: VerifyWebhookInput): Promise<boolean> {
  if (!input.header || !input.secret) return false;
  const parsed = parseSignatureHeader(input.header);
  if (!parsed) return false;
  const tolerance = input.toleranceSeconds ?? 300;
  const now = input.now ?? Math.floor(Date.now() / 1000);
  if (tolerance > 0 && Math.abs(now - parsed.timestamp) > tolerance) return false;
  const expected = await hmacSha256Hex(input.secret, signedContent(parsed.timestamp, input.payload));
  let ok = false;
  // Every candidate is compared (no early exit), so timing says nothing about which one matched.
  for (const signature of parsed.signatures) ok = timingSafeEqual(signature, expected) || ok;
  return ok;
}

/** The header value for a payload, as the API signs it: for testing your webhook endpoint. */
export async function signWebhookPayload(input: { payload: string | Uint8Array; secret: string; timestamp?: number }): Promise<string> {
  const t = input.timestamp ?? Math.floor(Date.now() / 1000);
  return `t=${t},v1=${await hmacSha256Hex(input.secret, signedContent(t, input.payload))}`;
}
