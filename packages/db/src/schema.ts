import type { ColumnType, Generated } from 'kysely';

// Hand-written to mirror the migrations: each migration that adds or changes a
// table updates the matching interface here in the same change.

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface ServiceHeartbeatsTable {
  service: string;
  started_at: ColumnType<Date, Date | string | undefined, Date | string>;
  version: string;
}

export type UserRole = 'user' | 'admin';
export type UserStatus = 'pending' | 'verified';
export type UserPlan = 'free' | 'pro';
/** The languages the web app and the account's mails are written in. */
export type UserLanguage = 'en' | 'fr';

export interface UsersTable {
  id: Generated<string>;
  name: string;
  /** Always lowercased (a check constraint enforces it). */
  email: string;
  password_hash: string;
  company: string | null;
  usage_source: string;
  referral_source: string;
  planned_services: ColumnType<string[], string[] | undefined, string[]>;
  role: ColumnType<UserRole, UserRole | undefined, UserRole>;
  status: ColumnType<UserStatus, UserStatus | undefined, UserStatus>;
  plan: ColumnType<UserPlan, UserPlan | undefined, UserPlan>;
  /** Set when the password changes; session tokens issued before it are refused. */
  password_changed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** The language of the account's mails (verification, reset); chosen at signup, changed in the profile. */
  language: ColumnType<UserLanguage, UserLanguage | undefined, UserLanguage>;
  /** Render links without sig are refused (the account's setting; false by default). */
  render_links_signed_only: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RateLimitBucketsTable {
  key: string;
  tokens: number;
  /** Whether the last take was allowed (what the upsert answers). */
  allowed: boolean;
  updated_at: Date;
}

export interface ApiKeysTable {
  id: Generated<string>;
  user_id: string;
  key_hash: string;
  /** The default key's, for the HMACs of signed URLs; null for a named key (kept as its hash only). */
  key_ciphertext: string | null;
  prefix: string;
  created_at: Timestamp;
  revoked_at: NullableTimestamp;
  /** Null for the account's default key; a named key's label otherwise. */
  name: string | null;
  scope: ColumnType<ApiKeyScope, ApiKeyScope | undefined, ApiKeyScope>;
  expires_at: NullableTimestamp;
  last_used_at: NullableTimestamp;
}

/** What a key may call: render routes only, renders and templates, or everything a key can call. */
export type ApiKeyScope = 'render' | 'templates' | 'full';

export interface WebhookSecretsTable {
  user_id: string;
  secret_ciphertext: string;
  created_at: Timestamp;
}

export type EmailCodePurpose = 'verify';

export interface EmailCodesTable {
  id: Generated<string>;
  user_id: string;
  purpose: EmailCodePurpose;
  code_hash: string;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  attempts: ColumnType<number, number | undefined, number>;
  consumed_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface PasswordResetsTable {
  id: Generated<string>;
  user_id: string;
  token_hash: string;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  consumed_at: NullableTimestamp;
  created_at: Timestamp;
}

/** 'leased': reserved ahead for a gateway's next renders of the account, not yet taken by one. */
export type CreditStatus = 'reserved' | 'charged' | 'released' | 'leased';
export type LedgerRenderKind = 'html' | 'svg' | 'chart' | 'code' | 'screenshot' | 'template';

export interface CreditLedgerTable {
  id: Generated<string>;
  user_id: string;
  /** The gateway's job id; unique, so one job is never charged twice. */
  request_id: string;
  status: ColumnType<CreditStatus, CreditStatus | undefined, CreditStatus>;
  created_at: Timestamp;
  settled_at: NullableTimestamp;
  /** What the render was (null on rows recorded before it was kept). */
  kind: ColumnType<LedgerRenderKind | null, LedgerRenderKind | null | undefined, LedgerRenderKind | null>;
  /** The output format: known at reserve time when the body was read by then, else at settle time. */
  format: ColumnType<string | null, string | null | undefined, string | null>;
  /** The image's size and the worker's render time, recorded with the charge. */
  size_bytes: ColumnType<number | null, number | null | undefined, number | null>;
  render_ms: ColumnType<number | null, number | null | undefined, number | null>;
  /** The API key that reserved the credit (null: a session token, a key since deleted, or an older row). */
  key_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Ours, mapped from Stripe's statuses: 'cancelling' is active with cancel_at_period_end. */
export type SubscriptionStatus = 'active' | 'cancelling' | 'canceled' | 'past_due';
export type BillingInterval = 'month' | 'year';

export interface SubscriptionsTable {
  user_id: string;
  stripe_customer_id: string;
  /** Null while the user has a Stripe customer but no subscription yet (checkout not completed). */
  stripe_subscription_id: string | null;
  status: ColumnType<SubscriptionStatus | null, SubscriptionStatus | null | undefined, SubscriptionStatus | null>;
  price_id: string | null;
  interval: ColumnType<BillingInterval | null, BillingInterval | null | undefined, BillingInterval | null>;
  current_period_end: NullableTimestamp;
  cancel_at_period_end: ColumnType<boolean, boolean | undefined, boolean>;
  updated_at: Timestamp;
}

export interface StripeEventsTable {
  event_id: string;
  type: string;
  received_at: Timestamp;
}

export type TemplateVariableKind = 'text' | 'number' | 'image';

/** Stored as given at save time, after validation; defaults are always strings. */
export interface StoredTemplateVariable {
  name: string;
  type: TemplateVariableKind;
  defaultValue: string;
}

export interface TemplatesTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  width: number;
  height: number;
  /** Sanitised at save time: no scripts, event handlers or javascript: links. */
  svg: string;
  variables: ColumnType<StoredTemplateVariable[], string, string>;
  is_public: ColumnType<boolean, boolean | undefined, boolean>;
  star_count: ColumnType<number, number | undefined, number>;
  source_template_id: string | null;
  published_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TemplateStarsTable {
  template_id: string;
  user_id: string;
  created_at: Timestamp;
}

/**
 * A QuickChart short URL (POST /chart/create): the chart request as the gateway validated it (QuickChart's
 * parameters under their long names, the config as text), read back by GET /chart/render/{id} until it expires.
 */
export interface ChartShortUrlsTable {
  id: string;
  request: ColumnType<Record<string, unknown>, string, string>;
  /** The account whose credentials created it; null for an anonymous creator. */
  user_id: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface DB {
  service_heartbeats: ServiceHeartbeatsTable;
  users: UsersTable;
  api_keys: ApiKeysTable;
  email_codes: EmailCodesTable;
  password_resets: PasswordResetsTable;
  subscriptions: SubscriptionsTable;
  stripe_events: StripeEventsTable;
  credit_ledger: CreditLedgerTable;
  templates: TemplatesTable;
  template_stars: TemplateStarsTable;
  rate_limit_buckets: RateLimitBucketsTable;
  webhook_secrets: WebhookSecretsTable;
  chart_short_urls: ChartShortUrlsTable;
}
