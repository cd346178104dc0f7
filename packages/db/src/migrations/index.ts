import type { Migration } from 'kysely/migration';
import * as init from './2026_11_21_000001_init.ts';
import * as accounts from './2026_11_21_000100_accounts.ts';
import * as billing from './2026_11_21_000200_billing.ts';
import * as credits from './2026_11_21_000300_credits.ts';
import * as templates from './2026_11_21_000400_templates.ts';
import * as passwordChangedAt from './2026_11_21_000500_password_changed_at.ts';
import * as rateLimitBuckets from './2026_11_21_000600_rate_limit_buckets.ts';
import * as creditLedgerRenderFacts from './2026_11_24_000100_credit_ledger_render_facts.ts';
import * as creditLedgerLeased from './2026_11_24_000200_credit_ledger_leased.ts';
import * as webhookSecrets from './2026_11_25_000100_webhook_secrets.ts';
import * as userLanguage from './2026_11_27_000100_user_language.ts';
import * as chartShortUrls from './2026_11_29_000100_chart_short_urls.ts';
import * as namedApiKeys from './2026_11_29_000200_named_api_keys.ts';
import * as renderLinksSignedOnly from './2026_11_29_000300_render_links_signed_only.ts';

// Listed statically rather than read from disk so migrations still resolve
// under tsx, bundlers and anything else that does not keep the src tree around.
// Keys are the migration names recorded in kysely_migration: never rename one.
export const migrations: Record<string, Migration> = {
  '2026_11_21_000001_init': init,
  '2026_11_21_000100_accounts': accounts,
  '2026_11_21_000200_billing': billing,
  '2026_11_21_000300_credits': credits,
  '2026_11_21_000400_templates': templates,
  '2026_11_21_000500_password_changed_at': passwordChangedAt,
  '2026_11_21_000600_rate_limit_buckets': rateLimitBuckets,
  '2026_11_24_000100_credit_ledger_render_facts': creditLedgerRenderFacts,
  '2026_11_24_000200_credit_ledger_leased': creditLedgerLeased,
  '2026_11_25_000100_webhook_secrets': webhookSecrets,
  '2026_11_27_000100_user_language': userLanguage,
  '2026_11_29_000100_chart_short_urls': chartShortUrls,
  '2026_11_29_000200_named_api_keys': namedApiKeys,
  '2026_11_29_000300_render_links_signed_only': renderLinksSignedOnly,
};
