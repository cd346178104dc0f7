import { ConfigError, loadConfig, postgresServiceSettings } from '@render/config';
import { type Static, Type } from 'typebox';

const Optional = (description: string) => Type.Optional(Type.String({ minLength: 1, description }));

export const AuthConfigSchema = Type.Object({
  ...postgresServiceSettings(3001),
  /** HS256 key; 32+ characters so it cannot be brute-forced from one token. */
  JWT_SECRET: Type.String({ minLength: 32 }),
  JWT_EXPIRES_IN: Type.String({ default: '7d' }),
  /** 32 bytes as 64 hex characters: AES-256-GCM key for stored API keys (the dashboard shows the key again). */
  API_KEY_ENCRYPTION_KEY: Type.String({ pattern: '^[0-9a-fA-F]{64}$' }),
  /**
   * Which peers may set X-Forwarded-For (Fastify's trustProxy: addresses/CIDRs, comma-separated): the
   * gateway's address. Anyone else could otherwise pick the IP the per-IP login limit sees.
   */
  TRUST_PROXY: Type.String({ default: '127.0.0.1,::1' }),
  /** Shared secret the gateway sends as X-Internal-Token on /internal/* calls. */
  INTERNAL_TOKEN: Type.String({ minLength: 16 }),
  /** Without it, mail is written as .eml files under MAIL_DIR (local development). */
  SMTP_URL: Optional('smtp://user:pass@host:587'),
  MAIL_DIR: Type.String({ default: '.data/mail' }),
  MAIL_FROM: Type.String({ default: 'Render API <no-reply@localhost>' }),
  /** Web app origin, used in links sent by e-mail. */
  APP_URL: Type.String({ default: 'http://localhost:5173' }),
  ADMIN_EMAIL: Optional('bootstrap administrator e-mail'),
  ADMIN_PASSWORD: Optional('bootstrap administrator password'),
  /** Login attempts allowed per account / per client IP in LOGIN_WINDOW_SECONDS. */
  LOGIN_MAX_PER_ACCOUNT: Type.Integer({ minimum: 1, default: 10 }),
  LOGIN_MAX_PER_IP: Type.Integer({ minimum: 1, default: 100 }),
  LOGIN_WINDOW_SECONDS: Type.Integer({ minimum: 1, default: 15 * 60 }),
  BODY_LIMIT_BYTES: Type.Integer({ minimum: 1024, default: 64 * 1024 }),
  /** Without it billing answers 503 "Billing is not configured" and everything else works. */
  STRIPE_SECRET_KEY: Optional('sk_live_… / sk_test_…'),
  /** The webhook endpoint's signing secret (whsec_…); webhooks answer 503 without it. */
  STRIPE_WEBHOOK_SECRET: Optional('whsec_…'),
  /** Stripe Price ids of the Pro plan: 49 a month in dollars (English) or euros (French); yearly as configured. */
  STRIPE_PRICE_MONTHLY_USD: Optional('price_…'),
  STRIPE_PRICE_YEARLY_USD: Optional('price_…'),
  STRIPE_PRICE_MONTHLY_EUR: Optional('price_…'),
  STRIPE_PRICE_YEARLY_EUR: Optional('price_…'),
  /** Point the Stripe SDK elsewhere (the tests' local fake Stripe); Stripe's own API when unset. */
  STRIPE_API_HOST: Optional('api.stripe.com'),
  STRIPE_API_PORT: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })),
  STRIPE_API_PROTOCOL: Type.Optional(Type.Union([Type.Literal('http'), Type.Literal('https')])),
  /**
   * Development only (./scripts/dev sets it): without STRIPE_SECRET_KEY, billing runs against a local stand-in
   * for Stripe in this process (test mode: its own Checkout and portal pages, signed webhooks, no money). Off,
   * billing without a key answers 503 "Billing is not configured". Ignored when STRIPE_SECRET_KEY is set.
   */
  STRIPE_STAND_IN: Type.Boolean({ default: false }),
  /** Where the stand-in keeps its customers and subscriptions across restarts; in memory when unset. */
  STRIPE_STAND_IN_STATE_FILE: Optional('.data/stripe-stand-in.json'),
  /** The stand-in's port on 127.0.0.1 (its pages are opened in the browser); any free port when 0. */
  STRIPE_STAND_IN_PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 0 }),
  /** `production` in the images: the stand-in, which grants Pro without payment, is then refused at boot. */
  NODE_ENV: Type.Optional(Type.String()),
  /** A credit reservation still unsettled after this long is released (its gateway stopped mid-request). */
  CREDIT_RESERVATION_TIMEOUT_SECONDS: Type.Integer({ minimum: 60, default: 600 }),
  /** How often each replica sweeps for such reservations. */
  CREDIT_RECONCILE_INTERVAL_MS: Type.Integer({ minimum: 1_000, default: 60_000 }),
  /** Launch period: every account converts without a credit limit (usage is still recorded). */
  LAUNCH_UNLIMITED: Type.Boolean({ default: false }),
});

export type AuthConfig = Static<typeof AuthConfigSchema>;

export function loadAuthConfig(env: Record<string, string | undefined> = process.env): AuthConfig {
  const config = loadConfig(AuthConfigSchema, env);
  if (config.STRIPE_STAND_IN && config.NODE_ENV === 'production' && !config.STRIPE_SECRET_KEY) {
    throw new ConfigError(
      'Invalid configuration:\n  STRIPE_STAND_IN is for development: it grants Pro without payment. Unset it, or set STRIPE_SECRET_KEY.',
    );
  }
  return config;
}
