import {
  ApiKeyLimits,
  ApiKeyMessages,
  type ApiKeyOwnerResponse,
  AppError,
  type CreateApiKeyBody,
  type NamedApiKey,
} from '@render/contracts';
import type { ApiKeyOwner, ApiKeysRepository, NamedApiKeyRow, ReservingKey } from '@render/db';
import { newApiKey, sha256 } from './secrets.ts';

/** Characters of a named key shown in lists (`rk_live_` and 4 more): enough to tell keys apart, useless to guess with. */
const SHOWN_PREFIX = 12;

export const namedKeyView = (row: NamedApiKeyRow): NamedApiKey => ({
  id: row.id,
  name: row.name,
  scope: row.scope,
  prefix: row.prefix,
  createdAt: row.created_at.toISOString(),
  expiresAt: row.expires_at?.toISOString() ?? null,
  lastUsedAt: row.last_used_at?.toISOString() ?? null,
});

/** The key fields of the gateway's owner answers (the verification's and the reservation's). */
export const keyFields = (key: ReservingKey | undefined): Pick<ApiKeyOwnerResponse, 'keyId' | 'scope' | 'expiresAt'> =>
  key ? { keyId: key.keyId, scope: key.scope, ...(key.expiresAt ? { expiresAt: key.expiresAt.toISOString() } : {}) } : {};

export const ownerAnswer = (owner: ApiKeyOwner): ApiKeyOwnerResponse => ({
  userId: owner.userId,
  role: owner.role,
  plan: owner.plan,
  ...keyFields(owner),
});

/**
 * A new named key: 32 random bytes, kept as their SHA-256 only (the default key also keeps a ciphertext, for
 * the signed URLs made with it; a named key signs nothing, so nothing reversible is stored). The secret is
 * answered this once.
 */
export async function createNamedKey(
  apiKeys: ApiKeysRepository,
  userId: string,
  body: CreateApiKeyBody,
  now = new Date(),
): Promise<{ data: NamedApiKey; secret: string }> {
  const name = body.name.trim();
  if (!name) throw new AppError('VALIDATION_ERROR', ApiKeyMessages.nameRequired);
  const expiresAt = body.expiresAt === undefined ? null : new Date(body.expiresAt);
  if (expiresAt && !(expiresAt.getTime() > now.getTime())) throw new AppError('VALIDATION_ERROR', ApiKeyMessages.expiresAtInvalid);
  // Counted before the insert: two creates at once may both pass, which costs nothing but a key over the cap.
  if ((await apiKeys.listNamed(userId)).length >= ApiKeyLimits.perAccount) throw new AppError('CONFLICT', ApiKeyMessages.tooMany);
  const secret = newApiKey();
  const row = await apiKeys.createNamed({
    user_id: userId,
    key_hash: sha256(secret),
    prefix: secret.slice(0, SHOWN_PREFIX),
    name,
    scope: body.scope,
    expires_at: expiresAt,
  });
  return { data: namedKeyView(row), secret };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function revokeNamedKey(apiKeys: ApiKeysRepository, userId: string, id: string): Promise<string> {
  // Not shaped like a key id: no key of theirs (Postgres would refuse it as a uuid).
  const revoked = UUID.test(id) ? await apiKeys.revokeNamed(userId, id) : undefined;
  if (!revoked) throw new AppError('NOT_FOUND', ApiKeyMessages.notFound);
  return revoked.id;
}
