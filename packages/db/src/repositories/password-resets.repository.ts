import { type Kysely, type Selectable, sql } from 'kysely';
import type { DB, PasswordResetsTable } from '../schema.ts';

export type PasswordResetRow = Selectable<PasswordResetsTable>;

const columns = ['id', 'user_id', 'token_hash', 'expires_at', 'consumed_at', 'created_at'] as const;

export class PasswordResetsRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async create(reset: { userId: string; tokenHash: string; expiresAt: Date }): Promise<PasswordResetRow> {
    return this.db
      .insertInto('password_resets')
      .values({ user_id: reset.userId, token_hash: reset.tokenHash, expires_at: reset.expiresAt })
      .returning(columns)
      .executeTakeFirstOrThrow();
  }

  /**
   * Marks an unused, unexpired token as used and returns it; undefined for an unknown, expired or already used
   * token. One conditional UPDATE, so two concurrent resets with the same link cannot both succeed.
   */
  async consumeValid(tokenHash: string): Promise<PasswordResetRow | undefined> {
    return this.db
      .updateTable('password_resets')
      .set({ consumed_at: sql<Date>`now()` })
      .where('token_hash', '=', tokenHash)
      .where('consumed_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .returning(columns)
      .executeTakeFirst();
  }
}
