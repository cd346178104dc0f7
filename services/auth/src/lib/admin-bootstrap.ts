import type { FastifyInstance } from 'fastify';
import { rotateApiKey } from './accounts.ts';
import { hashPassword } from './passwords.ts';
import { normaliseEmail } from './signup-rules.ts';

/**
 * Makes sure the configured administrator exists, verified. An existing account with that e-mail is
 * promoted and keeps its password (the env password only seeds a new account), so a restart never
 * silently resets a password someone changed.
 */
export async function bootstrapAdmin(app: FastifyInstance, email: string, password: string): Promise<void> {
  const { users, apiKeys } = app.repositories;
  const admin = await users.upsertAdmin({
    name: 'Administrator',
    email: normaliseEmail(email),
    password_hash: await hashPassword(password),
    company: null,
    usage_source: 'other',
    referral_source: 'other',
    planned_services: [],
  });
  if (!(await apiKeys.findActiveByUserId(admin.id))) await rotateApiKey(app.repositories, app.apiKeyCipher, admin.id);
  app.log.info({ userId: admin.id }, 'administrator account ready');
}
