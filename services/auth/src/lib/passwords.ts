import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

// scrypt is memory-hard and built into Node: no native addon to build on every platform. The parameters are
// OWASP's Password Storage Cheat Sheet's first choice for scrypt (N=2^17, r=8, p=1: 128 MiB per hash).
const CURRENT = { N: 2 ** 17, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
// Stored parameters are read back from the database; bounds keep a damaged row from asking for gigabytes.
const MAX_N = 2 ** 20;
const MAX_R = 32;
const MAX_P = 16;

interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

// scrypt needs 128·N·r bytes and refuses anything at or above `maxmem` (Node's default is 32 MiB, too little
// for N=2^17): set it from the parameters, with headroom for the p lanes' small buffers.
const maxmemFor = ({ N, r, p }: ScryptParams) => 128 * N * r + 128 * r * p + 1024 * 1024;

const derive = (password: string, salt: Buffer, params: ScryptParams, keyLength: number) =>
  new Promise<Buffer>((resolve, reject) => {
    const options: ScryptOptions = { ...params, maxmem: maxmemFor(params) };
    scrypt(password.normalize('NFKC'), salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key)));
  });

/** `scrypt$N$r$p$salt$hash` (base64): the parameters travel with the hash, so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, CURRENT, KEY_LENGTH);
  return ['scrypt', CURRENT.N, CURRENT.r, CURRENT.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

interface StoredHash extends ScryptParams {
  salt: Buffer;
  hash: Buffer;
}

function parseStored(stored: string): StoredHash | undefined {
  const [scheme, n, rr, pp, salt, hash, ...rest] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash || rest.length > 0) return undefined;
  const [N, r, p] = [Number(n), Number(rr), Number(pp)];
  const valid =
    Number.isInteger(N) &&
    N > 1 &&
    N <= MAX_N &&
    (N & (N - 1)) === 0 &&
    Number.isInteger(r) &&
    r >= 1 &&
    r <= MAX_R &&
    Number.isInteger(p) &&
    p >= 1 &&
    p <= MAX_P;
  if (!valid) return undefined;
  return { N, r, p, salt: Buffer.from(salt, 'base64'), hash: Buffer.from(hash, 'base64') };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseStored(stored);
  if (!parsed || parsed.hash.length === 0) return false;
  const actual = await derive(password, parsed.salt, parsed, parsed.hash.length);
  return timingSafeEqual(actual, parsed.hash);
}

/** True when a hash was made with other parameters than today's, so the next successful login replaces it. */
export function needsRehash(stored: string): boolean {
  const parsed = parseStored(stored);
  if (!parsed) return true;
  return parsed.N !== CURRENT.N || parsed.r !== CURRENT.r || parsed.p !== CURRENT.p || parsed.hash.length !== KEY_LENGTH;
}
