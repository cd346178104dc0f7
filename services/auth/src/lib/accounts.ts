import type { UserView } from '@render/contracts';
import type { Repositories, UserRow } from '@render/db';
import { sendProblem } from '@render/fastify-kit';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { verificationMail } from './account-mails.ts';
import { type ApiKeyCipher, newApiKey, newVerificationCode, sha256 } from './secrets.ts';

export const CODE_TTL_MS = 15 * 60 * 1000;
export const CODE_MAX_ATTEMPTS = 5;
export const RESET_TTL_MS = 60 * 60 * 1000;

/** Issues a new key (revoking any active one) and returns the plaintext, which exists only in this call. */
export async function rotateApiKey(repositories: Repositories, cipher: ApiKeyCipher, userId: string): Promise<string> {
  const apiKey = newApiKey();
  await repositories.apiKeys.replace({
    user_id: userId,
    key_hash: sha256(apiKey),
    key_ciphertext: cipher.encrypt(apiKey),
    prefix: apiKey.slice(0, 8),
  });
  return apiKey;
}

/** Stores a fresh code (hashed; any earlier one stops working) and returns it for the mail. */
export async function issueVerificationCode(repositories: Repositories, userId: string): Promise<string> {
  const code = newVerificationCode();
  await repositories.emailCodes.issue({
    userId,
    purpose: 'verify',
    codeHash: verificationCodeHash(userId, code),
    expiresAt: new Date(Date.now() + CODE_TTL_MS),
  });
  return code;
}

export const verificationCodeHash = (userId: string, code: string): string => sha256(`${userId}:${code}`);

/** Mail failures are logged, not returned: the account exists and the user can ask for another code. */
export async function mailVerificationCode(
  app: FastifyInstance,
  user: Pick<UserRow, 'email' | 'name' | 'language'>,
  code: string,
): Promise<void> {
  await app.mailer
    .send(verificationMail(user, code, CODE_TTL_MS / 60_000))
    .catch((err: Error) => app.log.error({ err: err.message }, 'could not send the verification e-mail'));
}

/**
 * A key that no longer decrypts (API_KEY_ENCRYPTION_KEY changed) must not lock the user out of login and
 * the dashboard: it is shown as absent and the user can regenerate it.
 */
function showableKey(app: FastifyInstance, ciphertext: string, userId: string): string | null {
  try {
    return app.apiKeyCipher.decrypt(ciphertext);
  } catch (err) {
    app.log.error({ userId, err: (err as Error).message }, 'stored API key does not decrypt with API_KEY_ENCRYPTION_KEY');
    return null;
  }
}

export async function userView(app: FastifyInstance, user: UserRow): Promise<UserView> {
  const key = await app.repositories.apiKeys.findActiveByUserId(user.id);
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    company: user.company,
    accountType: user.role === 'admin' ? 'administrator' : 'regular',
    verificationStatus: user.status,
    memberSince: user.created_at.toISOString(),
    apiKey: key?.key_ciphertext ? showableKey(app, key.key_ciphertext, user.id) : null,
    plan: user.plan,
    language: user.language,
    renderLinksSignedOnly: user.render_links_signed_only,
  };
}

/** Errors answered from a route rather than thrown: the shared problem body, with the fields `extra` adds (a userId). */
export const sendError = (reply: FastifyReply, status: number, code: string, message: string, extra: Record<string, unknown> = {}) =>
  sendProblem(reply, status, code, message, { extra });
