import type { Insertable, Kysely, Selectable } from 'kysely';
import type { ApiKeysTable, DB, UserPlan, UserRole } from '../schema.ts';
import { inTransaction } from './transaction.ts';

export type ApiKeyRow = Selectable<ApiKeysTable>;
export type NewApiKey = Pick<Insertable<ApiKeysTable>, 'user_id' | 'key_hash' | 'key_ciphertext' | 'prefix'>;

const columns = ['id', 'user_id', 'key_hash', 'key_ciphertext', 'prefix', 'created_at', 'revoked_at'] as const;

export interface ApiKeyOwner {
  userId: string;
  role: UserRole;
  plan: UserPlan;
}

export class ApiKeysRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async findActiveByUserId(userId: string): Promise<ApiKeyRow | undefined> {
    return this.db.selectFrom('api_keys').select(columns).where('user_id', '=', userId).where('revoked_at', 'is', null).executeTakeFirst();
  }

  /** The owner of an active key, looked up by the key's SHA-256 (the key itself is never queried on). */
  async findOwnerByHash(keyHash: string): Promise<ApiKeyOwner | undefined> {
    return this.db
      .selectFrom('api_keys')
      .innerJoin('users', 'users.id', 'api_keys.user_id')
      .select(['users.id as userId', 'users.role as role', 'users.plan as plan'])
      .where('api_keys.key_hash', '=', keyHash)
      .where('api_keys.revoked_at', 'is', null)
      .executeTakeFirst();
  }

  /** An active key by its SHA-256, with what its owner's render links need: the stored key and the setting. */
  async findRenderLinkOwnerByHash(keyHash: string) {
    return this.db
      .selectFrom('api_keys')
      .innerJoin('users', 'users.id', 'api_keys.user_id')
      .select([
        'users.id as userId',
        'users.role as role',
        'users.plan as plan',
        'users.render_links_signed_only as signedOnly',
        'api_keys.key_ciphertext as keyCiphertext',
      ])
      .where('api_keys.key_hash', '=', keyHash)
      .where('api_keys.revoked_at', 'is', null)
      .executeTakeFirst();
  }

  /** Revokes the user's active key and stores the new one in one transaction, so there is never a gap or two active keys. */
  async replace(key: NewApiKey): Promise<ApiKeyRow> {
    return inTransaction(this.db, async (trx) => {
      await trx
        .updateTable('api_keys')
        .set({ revoked_at: new Date() })
        .where('user_id', '=', key.user_id)
        .where('revoked_at', 'is', null)
        .execute();
      return trx.insertInto('api_keys').values(key).returning(columns).executeTakeFirstOrThrow();
    });
  }
}
