import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DB } from './schema.ts';

export interface CreateDbOptions {
  /** Max pooled connections per process. */
  poolSize?: number;
  /** Errors from idle pooled connections (e.g. Postgres restarting). */
  onPoolError?: (error: Error) => void;
}

// Small default: every service replica (and every render worker) holds its own
// pool, and Postgres' default max_connections is only 100.
const DEFAULT_POOL_SIZE = 5;

export function createDb(databaseUrl: string, { poolSize = DEFAULT_POOL_SIZE, onPoolError = () => {} }: CreateDbOptions = {}): Kysely<DB> {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: poolSize,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
  });
  // Unhandled, an idle client's error would crash the process; the pool already
  // drops that client and reconnects on the next query.
  pool.on('error', onPoolError);
  // The pool listens only to idle clients. A checked-out one whose connection dies between two statements
  // (Postgres restarting mid-transaction) would otherwise emit an unhandled 'error' and end the process; it
  // is no longer queryable, so the pool destroys it when it is released.
  pool.on('connect', (client) => client.on('error', onPoolError));
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
}
