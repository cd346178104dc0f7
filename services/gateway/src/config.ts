import { LogLevel, loadConfig, RedisTls, redisUrlWithTls } from '@render/config';
import { FREE_PLAN_CREDITS } from '@render/contracts';
import { type Static, Type } from 'typebox';

export const GatewayConfigSchema = Type.Object({
  PORT: Type.Integer({ default: 3000 }),
  HOST: Type.String({ default: '0.0.0.0' }),
  LOG_LEVEL: LogLevel,
  REDIS_URL: Type.String({ default: 'redis://127.0.0.1:6379' }),
  /** `enable`: connect to Redis with TLS (REDIS_URL becomes rediss://); the Kubernetes secret sets it for KEDA too. */
  REDIS_TLS: RedisTls,
  /** BullMQ key prefix; tests use a unique one so runs never share queues. */
  QUEUE_PREFIX: Type.String({ default: 'render' }),
  /** How long a sync convert call waits for its job (queue wait + render + one retry) before a 504. */
  RENDER_DEADLINE_MS: Type.Integer({ minimum: 100, default: 30_000 }),
  /** Waiting jobs per queue above which new convert calls get 429 (with Retry-After) instead of queueing without bound. */
  MAX_QUEUE_DEPTH: Type.Integer({ minimum: 1, default: 500 }),
  /** The Retry-After (seconds) of a 429 for a full queue: about how long a full queue takes to drain a little. */
  QUEUE_FULL_RETRY_AFTER_SECONDS: Type.Integer({ minimum: 1, maximum: 60, default: 2 }),
  /**
   * Renders in flight at once per Free account, per gateway replica (an in-process counter: with R replicas
   * an account may have up to R × this in flight). Past it, 429 with Retry-After: 1. Admins are not limited.
   */
  FREE_MAX_IN_FLIGHT: Type.Integer({ minimum: 1, default: 4 }),
  /** As FREE_MAX_IN_FLIGHT, for Pro accounts. */
  PRO_MAX_IN_FLIGHT: Type.Integer({ minimum: 1, default: 32 }),
  /** How long boot waits for Redis before serving anyway (convert calls answer 503 until it is up). */
  REDIS_BOOT_WAIT_MS: Type.Integer({ minimum: 0, default: 5_000 }),
  /**
   * Which proxies may set X-Forwarded-For (Fastify's trustProxy: addresses/CIDRs, comma-separated).
   * Trusting everyone would let any client pick the IP that per-IP rate limits see.
   */
  TRUST_PROXY: Type.String({ default: '127.0.0.1,::1' }),
  /** The accounts/billing service; the gateway forwards /api/auth/* and /api/admin/* to it. */
  AUTH_SERVICE_URL: Type.String({ default: 'http://127.0.0.1:3001' }),
  /** The templates service; the gateway forwards template calls to it and renders what it answers. */
  TEMPLATES_SERVICE_URL: Type.String({ default: 'http://127.0.0.1:3002' }),
  /** How long the rendered image of a signed template URL stays in the Redis cache. */
  /** Convert calls with `cache`: most images kept (oldest evicted first) and the largest one kept. */
  RENDER_CACHE_MAX_ENTRIES: Type.Integer({ minimum: 1, default: 5_000 }),
  RENDER_CACHE_MAX_ENTRY_BYTES: Type.Integer({ minimum: 1024, default: 2 * 1024 * 1024 }),
  /** Async renders (a convert call with `webhook`): how long the status and the image are kept. */
  ASYNC_RESULT_TTL_SECONDS: Type.Integer({ minimum: 60, maximum: 30 * 24 * 3600, default: 24 * 3600 }),
  /**
   * How often each gateway looks for async renders whose gateway stopped before they ended (they are marked
   * failed and their webhook is sent once they are RENDER_DEADLINE_MS + a minute old).
   */
  ASYNC_RENDER_SWEEP_MS: Type.Integer({ minimum: 50, default: 30_000 }),
  /** Webhook deliveries: the first retry's delay (each further one doubles it) and the attempts in all. */
  WEBHOOK_RETRY_BASE_MS: Type.Integer({ minimum: 10, default: 45_000 }),
  WEBHOOK_ATTEMPTS: Type.Integer({ minimum: 1, maximum: 30, default: 12 }),
  /**
   * The render workers' RENDER_EGRESS_ALLOWLIST (same value): webhooks at these host:port pairs (or at names
   * resolving to them) are accepted although not public. Checked at submission with the workers' policy (names
   * resolved: a 400 early); workers check again at delivery.
   */
  RENDER_EGRESS_ALLOWLIST: Type.String({ default: '' }),
  /**
   * Ports a webhook URL may use (`80,443`), where the workers can reach only those (the Kubernetes network
   * policy): another port gets a 400 at submission instead of deliveries that can never arrive. Empty: any.
   */
  WEBHOOK_PORTS: Type.String({ default: '', pattern: '^\\s*(\\d{1,5}\\s*(,\\s*\\d{1,5}\\s*)*)?$' }),
  TEMPLATE_IMAGE_CACHE_TTL_SECONDS: Type.Integer({ minimum: 1, default: 24 * 3600 }),
  /** Cached signed-URL images kept at most; the oldest go first. */
  TEMPLATE_IMAGE_CACHE_MAX_ENTRIES: Type.Integer({ minimum: 1, default: 2_000 }),
  /** Larger images are served but not cached. */
  TEMPLATE_IMAGE_CACHE_MAX_ENTRY_BYTES: Type.Integer({ minimum: 1024, default: 2 * 1024 * 1024 }),
  /** Cache-Control max-age of signed-URL images: short, because an edited template keeps its URLs. */
  TEMPLATE_IMAGE_MAX_AGE_SECONDS: Type.Integer({ minimum: 0, default: 3600 }),
  /** How long a forwarded call may take before the gateway answers 504. */
  FORWARD_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 15_000 }),
  BODY_LIMIT_BYTES: Type.Integer({ minimum: 1024, default: 5 * 1024 * 1024 }),
  /**
   * POST /highcharts: the export server's `callback`, `customCode` and `resources` (the caller's JavaScript).
   * `disable` (default, as the export server's default): each is a 400. `enable`: accepted so that clients
   * which always send them keep working, but never run; the chart page evaluates no caller code.
   */
  HIGHCHARTS_CUSTOM_CODE: Type.Union([Type.Literal('enable'), Type.Literal('disable')], { default: 'disable' }),
  /**
   * Shared secret sent as X-Internal-Token to the account service (API key checks, credits). Without it,
   * convert calls that carry credentials answer 503; anonymous ones still work.
   */
  INTERNAL_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
  /**
   * A separate port for Prometheus's `GET /metrics`, without the internal token (Kubernetes: 9464, opened to
   * the monitoring namespace only). Unset: /metrics is on PORT and needs the X-Internal-Token header.
   */
  METRICS_PORT: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
  /** How long a credential check or credit call to the account service may take before a 503. */
  ACCOUNT_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 5_000 }),
  /**
   * How long a charge (settled after its answer) waits for a credit reservation call to carry it to the
   * account service before it is sent on its own, together with the others of that time.
   */
  CREDIT_SETTLE_BATCH_MS: Type.Integer({ minimum: 1, default: 50 }),
  /** How long credits leased ahead for a busy API key are kept unused before they are given back. */
  KEY_LEASE_TTL_MS: Type.Integer({ minimum: 100, maximum: 60_000, default: 5_000 }),
  KEY_LEASE_STEADY_PER_SECOND: Type.Integer({ minimum: 0, maximum: 10_000, default: 10 }),
  /**
   * Browsers on other origins allowed to call the API (CORS): empty (off), a comma-separated list of origins
   * (`https://app.example.com`: any call, sessions included), and/or `*` (any origin, anonymous and API-key
   * calls only). See plugins/cors.plugin.ts.
   */
  CORS_ORIGINS: Type.String({ default: '' }),
  /**
   * Calls without credentials (the demo pages), per client address, shared by every replica through Redis:
   * quota units per minute and per day (a render costs one unit per started 1024 × 1024 pixels, AVIF ×4, PDF
   * ×2; see AnonymousCost in contracts). The day's quota stays below a Free account's credits, so an account
   * is never worse off than no account.
   */
  ANON_RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 1, default: 20 }),
  ANON_RATE_LIMIT_PER_DAY: Type.Integer({ minimum: 1, default: 40 }),
  /** Renders in flight at once per address without credentials, per replica (no more than a Free account's). */
  ANON_MAX_IN_FLIGHT: Type.Integer({ minimum: 1, default: 2 }),
  /**
   * Largest image without credentials (width × height × scale²; full pages and elements are cut there): an
   * iPad Pro screenshot (5.6 M) fits. With an API key the limit is the render limit, 16,000,000.
   */
  ANON_MAX_PIXELS: Type.Integer({ minimum: 1_000_000, maximum: 16_000_000, default: 6_000_000 }),
  /**
   * The built web app (apps/web/dist). When set, the gateway serves it at `/` with a client-route
   * fallback; unset (local development, where Vite serves it), it serves only the API.
   */
  WEB_DIST_DIR: Type.Optional(Type.String({ minLength: 1 })),
  /**
   * `public`: serve the web app's source maps (the build linked them: WEB_SOURCEMAPS=public there too; the
   * image sets both from one build argument). Anything else: never served.
   */
  WEB_SOURCEMAPS: Type.Union([Type.Literal('public'), Type.Literal('hidden')], { default: 'hidden' }),
  /** Where this runs. The web app sends analytics and error reports only outside development and test. */
  APP_ENV: Type.String({ default: 'development' }),
  /** PostHog project key for the web app's product analytics; none, no analytics. */
  POSTHOG_KEY: Type.Optional(Type.String({ minLength: 1 })),
  /** PostHog's EU cloud by default (docs/spec/calls.md: an EU host), or a self-hosted instance. */
  POSTHOG_HOST: Type.String({ default: 'https://eu.i.posthog.com', pattern: '^https?://' }),
  /** Sentry DSN for the web app's error reports; none, no reports. */
  SENTRY_DSN: Type.Optional(Type.String({ pattern: '^https?://' })),
});

export type GatewayConfig = Static<typeof GatewayConfigSchema>;

/**
 * Where the anonymous limits would leave a caller better off without an account than with a Free one
 * (issue: an account must never be worse off): the day's quota reaching a Free account's credits, or more
 * renders in flight. Logged at boot; tests and benchmarks lift the limits on purpose.
 */
export function anonymousAdvantages(config: GatewayConfig): string[] {
  const problems: string[] = [];
  if (config.ANON_RATE_LIMIT_PER_DAY >= FREE_PLAN_CREDITS) {
    problems.push(`ANON_RATE_LIMIT_PER_DAY (${config.ANON_RATE_LIMIT_PER_DAY}) is not below a Free account's ${FREE_PLAN_CREDITS} credits`);
  }
  if (config.ANON_MAX_IN_FLIGHT > config.FREE_MAX_IN_FLIGHT) {
    problems.push(`ANON_MAX_IN_FLIGHT (${config.ANON_MAX_IN_FLIGHT}) is above FREE_MAX_IN_FLIGHT (${config.FREE_MAX_IN_FLIGHT})`);
  }
  return problems;
}

export const loadGatewayConfig = (env: Record<string, string | undefined> = process.env): GatewayConfig => {
  const config = loadConfig(GatewayConfigSchema, env);
  return { ...config, REDIS_URL: redisUrlWithTls(config.REDIS_URL, config.REDIS_TLS) };
};
