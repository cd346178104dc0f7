import { Type } from 'typebox';
import { withMessages } from './schema-helpers.ts';

/** How long the first answer of an `Idempotency-Key` is kept (and repeated for the same request). */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;

/** A key: 1 to 255 visible ASCII characters (a UUID is the usual choice). */
export const IDEMPOTENCY_KEY_PATTERN = '^[\\x21-\\x7E]{1,255}$';

export const IdempotencyMessages = {
  format: 'Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID, say)',
  reused: 'This Idempotency-Key was already used for a different request (another body or path) within the last 24 hours: use a new key',
  inUse: 'A request with this Idempotency-Key is still being answered: retry once it is',
} as const;

/**
 * The `Idempotency-Key` request header of the POSTs that create something (async renders, template create and
 * duplicate, API key regeneration): within 24 hours, the same key with the same request (same credentials,
 * path and body) answers the first call's answer again instead of doing it twice.
 */
export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    withMessages(
      Type.String({
        pattern: IDEMPOTENCY_KEY_PATTERN,
        description:
          'Makes a retry safe: within 24 hours the same key with the same credentials, path and body gets the first answer again (with Idempotent-Replayed: true) and is charged once; with another body, 422 IDEMPOTENCY_KEY_REUSED; while the first is still being answered, 409 IDEMPOTENCY_KEY_IN_USE with Retry-After. Only successful answers are kept: after an error the same key may be sent again.',
      }),
      { format: IdempotencyMessages.format, type: IdempotencyMessages.format },
    ),
  ),
});
