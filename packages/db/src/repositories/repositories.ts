import type { Kysely } from 'kysely';
import type { DB } from '../schema.ts';
import { ApiKeysRepository } from './api-keys.repository.ts';
import { ChartShortUrlsRepository } from './chart-short-urls.repository.ts';
import { CreditLedgerRepository } from './credit-ledger.repository.ts';
import { EmailCodesRepository } from './email-codes.repository.ts';
import { PasswordResetsRepository } from './password-resets.repository.ts';
import { StripeEventsRepository } from './stripe-events.repository.ts';
import { SubscriptionsRepository } from './subscriptions.repository.ts';
import { TemplatesRepository } from './templates.repository.ts';
import { inTransaction } from './transaction.ts';
import { UsersRepository } from './users.repository.ts';
import { WebhookSecretsRepository } from './webhook-secrets.repository.ts';

/** One repository per aggregate, all over the same pool (or the same transaction). */
export interface Repositories {
  users: UsersRepository;
  apiKeys: ApiKeysRepository;
  chartShortUrls: ChartShortUrlsRepository;
  credits: CreditLedgerRepository;
  emailCodes: EmailCodesRepository;
  passwordResets: PasswordResetsRepository;
  stripeEvents: StripeEventsRepository;
  subscriptions: SubscriptionsRepository;
  templates: TemplatesRepository;
  webhookSecrets: WebhookSecretsRepository;
  /**
   * Runs `fn` with these repositories over one transaction, so its writes commit or roll back together.
   * Already inside one, `fn` joins it (kysely cannot nest transactions).
   */
  transaction<T>(fn: (repositories: Repositories) => Promise<T>): Promise<T>;
}

export function createRepositories(db: Kysely<DB>): Repositories {
  return {
    users: new UsersRepository(db),
    apiKeys: new ApiKeysRepository(db),
    chartShortUrls: new ChartShortUrlsRepository(db),
    credits: new CreditLedgerRepository(db),
    emailCodes: new EmailCodesRepository(db),
    passwordResets: new PasswordResetsRepository(db),
    stripeEvents: new StripeEventsRepository(db),
    subscriptions: new SubscriptionsRepository(db),
    templates: new TemplatesRepository(db),
    webhookSecrets: new WebhookSecretsRepository(db),
    transaction: (fn) => inTransaction(db, (trx) => fn(createRepositories(trx))),
  };
}
