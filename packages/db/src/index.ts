import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DB } from './schema.ts';

export {
  MigrationError,
  type MigrationResult,
  migrateDown,
  migrateToLatest,
} from './migrator.ts';
export { type ApiKeyOwner, type ApiKeyRow, ApiKeysRepository, type NewApiKey } from './repositories/api-keys.repository.ts';
export {
  CreditLedgerRepository,
  type CreditLedgerRow,
  type ReserveResult,
} from './repositories/credit-ledger.repository.ts';
export { type EmailCodeRow, EmailCodesRepository } from './repositories/email-codes.repository.ts';
export { type PasswordResetRow, PasswordResetsRepository } from './repositories/password-resets.repository.ts';
export { StripeEventsRepository } from './repositories/stripe-events.repository.ts';
export { type SubscriptionRow, type SubscriptionState, SubscriptionsRepository } from './repositories/subscriptions.repository.ts';
export { type NewUser, type SignupCounts, type UserRow, UsersRepository } from './repositories/users.repository.ts';
export type {
  ApiKeysTable,
  BillingInterval,
  CreditLedgerTable,
  CreditStatus,
  DB,
  EmailCodePurpose,
  EmailCodesTable,
  PasswordResetsTable,
  ServiceHeartbeatsTable,
  StripeEventsTable,
  SubscriptionStatus,
  SubscriptionsTable,
  UserPlan,
  UserRole,
  UserStatus,
  UsersTable,
} from './schema.ts';

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
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
}
