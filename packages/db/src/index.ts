export { type CreateDbOptions, createDb } from './create-db.ts';
export { default as dbPlugin } from './db.plugin.ts';
export {
  MigrationError,
  type MigrationResult,
  migrateDown,
  migrateToLatest,
} from './migrator.ts';
export {
  type ApiKeyOwner,
  type ApiKeyRow,
  ApiKeysRepository,
  type NamedApiKeyRow,
  type NewApiKey,
  type NewNamedApiKey,
} from './repositories/api-keys.repository.ts';
export { type ChartShortUrlRow, ChartShortUrlsRepository, type NewChartShortUrl } from './repositories/chart-short-urls.repository.ts';
export {
  type CreditAccount,
  CreditLedgerRepository,
  type CreditLedgerRow,
  type CreditOwner,
  type CreditRequest,
  type CreditRules,
  type DailyRenders,
  isUnlimited,
  type RecentRenderRow,
  type ReserveManyResult,
  type ReserveResult,
  type ReservingKey,
  type SettledRender,
  toSettledRender,
} from './repositories/credit-ledger.repository.ts';
export { type EmailCodeRow, EmailCodesRepository } from './repositories/email-codes.repository.ts';
export { type PasswordResetRow, PasswordResetsRepository } from './repositories/password-resets.repository.ts';
export {
  PostgresBucketSet,
  PostgresTokenBuckets,
  type SharedTake,
  sharedTake,
  takeAllShared,
} from './repositories/rate-limit-buckets.repository.ts';
export { createRepositories, type Repositories } from './repositories/repositories.ts';
export { StripeEventsRepository } from './repositories/stripe-events.repository.ts';
export { type SubscriptionRow, type SubscriptionState, SubscriptionsRepository } from './repositories/subscriptions.repository.ts';
export {
  type TemplateContent,
  type TemplateListOptions,
  type TemplateListScope,
  type TemplateRow,
  TemplatesRepository,
  type TemplateViewRow,
} from './repositories/templates.repository.ts';
export { type NewUser, type SignupCounts, type UserRow, UsersRepository } from './repositories/users.repository.ts';
export { type WebhookSecretRow, WebhookSecretsRepository } from './repositories/webhook-secrets.repository.ts';
export { default as repositoriesPlugin } from './repositories.plugin.ts';
export type {
  ApiKeyScope,
  ApiKeysTable,
  BillingInterval,
  ChartShortUrlsTable,
  CreditLedgerTable,
  CreditStatus,
  DB,
  EmailCodePurpose,
  EmailCodesTable,
  LedgerRenderKind,
  PasswordResetsTable,
  ServiceHeartbeatsTable,
  StoredTemplateVariable,
  StripeEventsTable,
  SubscriptionStatus,
  SubscriptionsTable,
  TemplateStarsTable,
  TemplatesTable,
  TemplateVariableKind,
  UserLanguage,
  UserPlan,
  UserRole,
  UserStatus,
  UsersTable,
} from './schema.ts';
export { postgresCheck, registerPostgres } from './service-postgres.ts';
