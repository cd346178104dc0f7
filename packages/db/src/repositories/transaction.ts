import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../schema.ts';

/** Runs `fn` in the caller's transaction when there is one (kysely cannot nest them), else in a new one. */
export const inTransaction = <T>(db: Kysely<DB>, fn: (trx: Kysely<DB> | Transaction<DB>) => Promise<T>): Promise<T> =>
  db.isTransaction ? fn(db) : db.transaction().execute(fn);
