import type { Insertable, Kysely, Selectable } from 'kysely';
import type { ApiKeyScope, ApiKeysTable, DB, UserPlan, UserRole } from '../schema.ts';
import { inTransaction } from './transaction.ts';

export type ApiKeyRow = Selectable<ApiKeysTable>;
export type NewApiKey = Pick<Insertable<ApiKeysTable>, 'user_id' | 'key_hash' | 'key_ciphertext' | 'prefix'>;

export type NewNamedApiKey = Pick<Insertable<ApiKeysTable>, 'user_id' | 'key_hash' | 'prefix' | 'name' | 'scope' | 'expires_at'>;

const columns = [
  'id',
  'user_id',
  'key_hash',
  'key_ciphertext',
  'prefix',
  'created_at',
  'revoked_at',
  'name',
  'scope',
  'expires_at',
  'last_used_at',
] as const;

export interface ApiKeyOwner {
  userId: string;
  role: UserRole;
  plan: UserPlan;
  /** The key itself: its id (usage is recorded by it), what it may call, and until when (null: no end). */
  keyId: string;
  scope: ApiKeyScope;
  expiresAt: Date | null;
}

/** A named key as its owner's list shows it (never its hash). */
export type NamedApiKeyRow = Pick<ApiKeyRow, 'id' | 'name' | 'prefix' | 'scope' | 'created_at' | 'expires_at' | 'last_used_at'> & {
  name: string;
};
const namedColumns = ['id', 'name', 'prefix', 'scope', 'created_at', 'expires_at', 'last_used_at'] as const;

export class ApiKeysRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async findActiveByUserId(userId: string): Promise<ApiKeyRow | undefined> {
    return this.db
      .selectFrom('api_keys')
      .select(columns)
      .where('user_id', '=', userId)
      .where('name', 'is', null)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
  }

  /**
   * The owner of an active key, looked up by the key's SHA-256 (the key itself is never queried on): the
   * default key or a named one, neither revoked nor expired.
   */
  async findOwnerByHash(keyHash: string, now: Date = new Date()): Promise<ApiKeyOwner | undefined> {
    return this.activeKeyOwner(keyHash)
      .select(['api_keys.id as keyId', 'api_keys.scope as scope', 'api_keys.expires_at as expiresAt'])
      .where((eb) => eb.or([eb('api_keys.expires_at', 'is', null), eb('api_keys.expires_at', '>', now)]))
      .executeTakeFirst();
  }

  /** The active (not revoked) key with this SHA-256 joined to its owner, and the owner's id, role and plan. */
  private activeKeyOwner(keyHash: string) {
    return this.db
      .selectFrom('api_keys')
      .innerJoin('users', 'users.id', 'api_keys.user_id')
      .select(['users.id as userId', 'users.role as role', 'users.plan as plan'])
      .where('api_keys.key_hash', '=', keyHash)
      .where('api_keys.revoked_at', 'is', null);
  }

  /** The account's named keys not revoked (expired ones included, so the owner sees why one stopped), oldest first. */
  async listNamed(userId: string): Promise<NamedApiKeyRow[]> {
    const rows = await this.db
      .selectFrom('api_keys')
      .select(namedColumns)
      .where('user_id', '=', userId)
      .where('name', 'is not', null)
      .where('revoked_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows as NamedApiKeyRow[];
  }

  async createNamed(key: NewNamedApiKey): Promise<NamedApiKeyRow> {
    const row = await this.db.insertInto('api_keys').values(key).returning(namedColumns).executeTakeFirstOrThrow();
    return row as NamedApiKeyRow;
  }

  /** Revokes one of the user's named keys; undefined when it is not theirs, not named, or already revoked. */
  async revokeNamed(userId: string, id: string): Promise<{ id: string } | undefined> {
    return this.db
      .updateTable('api_keys')
      .set({ revoked_at: new Date() })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('name', 'is not', null)
      .where('revoked_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
  }

  /** Whether `id` is one of the user's keys (any: default or named, revoked or not). */
  async ownsKey(userId: string, id: string): Promise<boolean> {
    const row = await this.db.selectFrom('api_keys').select('id').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return row !== undefined;
  }

  /** Records a use of the key (callers write it at most once a minute per key: it is shown to the minute). */
  async touch(id: string, at: Date): Promise<void> {
    await this.db
      .updateTable('api_keys')
      .set({ last_used_at: at })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at)]))
      .execute();
  }

  /**
   * The account's default key by its SHA-256, with what its owner's render links need: the stored key and the
   * setting. Named keys are stored as their hash only, so they sign nothing (as for template URLs).
   */
  async findRenderLinkOwnerByHash(keyHash: string) {
    return this.activeKeyOwner(keyHash)
      .select(['users.render_links_signed_only as signedOnly', 'api_keys.key_ciphertext as keyCiphertext'])
      .where('api_keys.name', 'is', null)
      .executeTakeFirst();
  }

  /** Revokes the user's active key and stores the new one in one transaction, so there is never a gap or two active keys. */
  async replace(key: NewApiKey): Promise<ApiKeyRow> {
    return inTransaction(this.db, async (trx) => {
      await trx
        .updateTable('api_keys')
        .set({ revoked_at: new Date() })
        .where('user_id', '=', key.user_id)
        .where('name', 'is', null)
        .where('revoked_at', 'is', null)
        .execute();
      return trx.insertInto('api_keys').values(key).returning(columns).executeTakeFirstOrThrow();
    });
  }
}
