import { type Kysely, type Selectable, sql } from 'kysely';
import type { DB, EmailCodePurpose, EmailCodesTable } from '../schema.ts';
import { inTransaction } from './transaction.ts';

export type EmailCodeRow = Selectable<EmailCodesTable>;

const columns = ['id', 'user_id', 'purpose', 'code_hash', 'expires_at', 'attempts', 'consumed_at', 'created_at'] as const;

export class EmailCodesRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Issues a new code and retires any earlier unused one, so only the latest mailed code works. */
  async issue(code: { userId: string; purpose: EmailCodePurpose; codeHash: string; expiresAt: Date }): Promise<EmailCodeRow> {
    return inTransaction(this.db, async (trx) => {
      await trx
        .updateTable('email_codes')
        .set({ consumed_at: sql<Date>`now()` })
        .where('user_id', '=', code.userId)
        .where('purpose', '=', code.purpose)
        .where('consumed_at', 'is', null)
        .execute();
      return trx
        .insertInto('email_codes')
        .values({ user_id: code.userId, purpose: code.purpose, code_hash: code.codeHash, expires_at: code.expiresAt })
        .returning(columns)
        .executeTakeFirstOrThrow();
    });
  }

  async findCurrent(userId: string, purpose: EmailCodePurpose): Promise<EmailCodeRow | undefined> {
    return this.db
      .selectFrom('email_codes')
      .select(columns)
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .where('consumed_at', 'is', null)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** Counts a wrong guess atomically (concurrent guesses cannot share one attempt); returns the new count. */
  async recordFailedAttempt(id: string): Promise<number> {
    const row = await this.db
      .updateTable('email_codes')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .returning('attempts')
      .executeTakeFirstOrThrow();
    return row.attempts;
  }

  /** False when the code was already used (a concurrent request won). */
  async consume(id: string): Promise<boolean> {
    const result = await this.db
      .updateTable('email_codes')
      .set({ consumed_at: sql<Date>`now()` })
      .where('id', '=', id)
      .where('consumed_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}
