import { createHash } from 'node:crypto';

/**
 * An opaque id of whoever a render is for, carried by screenshot jobs: the worker keeps a caller's wiped
 * browser context for that caller's next screenshot only (render-worker page-pool-concurrency.ts). The same
 * caller gets the same id on every gateway replica; the job data never holds the account id or the address.
 */
export function callerId(kind: 'account' | 'address', id: string): string {
  return createHash('sha256').update(`render-caller\0${kind}\0${id}`).digest('base64url').slice(0, 22);
}
