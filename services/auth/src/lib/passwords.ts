import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

// scrypt is memory-hard and built into Node: no native addon to build on every platform.
const N = 2 ** 15;
const r = 8;
const p = 1;
const KEY_LENGTH = 32;
// N·r·128 bytes = 32 MiB, exactly Node's default maxmem, which scrypt rejects; leave headroom.
const maxmem = 64 * 1024 * 1024;

const derive = (password: string, salt: Buffer, options: ScryptOptions, keyLength: number) =>
  new Promise<Buffer>((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, keyLength, { ...options, maxmem }, (err, key) => (err ? reject(err) : resolve(key)));
  });

/** `scrypt$N$r$p$salt$hash` (base64), so parameters can be raised later without breaking old hashes. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, { N, r, p }, KEY_LENGTH);
  return ['scrypt', N, r, p, salt.toString('base64'), hash.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, rr, pp, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(rr), p: Number(pp) }, expected.length);
  return timingSafeEqual(actual, expected);
}
