import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ConfigError, ListenHost, LogLevel, loadConfig, RedisTls, redisUrlWithTls, splitList } from '@render/config';
import { ScreenshotLimits, VideoLimits } from '@render/contracts';
import { type Static, Type } from 'typebox';
import { type BlockListSettings, parseBlockListFiles } from './renderers/screenshot/block-lists.ts';

/**
 * The fontconfig file: the system's fonts plus the emoji rules. Next to the compiled bundle (dist/fonts.conf,
 * copied by scripts/build-services.mjs), else the checkout's infra/fonts/fonts.conf.
 */
export const DEFAULT_FONTCONFIG_FILE = fileURLToPath(
  [new URL('./fonts.conf', import.meta.url), new URL('../../../infra/fonts/fonts.conf', import.meta.url)].find((file) =>
    existsSync(file),
  ) ?? new URL('../../../infra/fonts/fonts.conf', import.meta.url),
);

export const WorkerConfigSchema = Type.Object({
  LOG_LEVEL: LogLevel,
  /** The worker's own HTTP server: GET /health/live, /health/ready and /metrics (0: any free port). */
  WORKER_HTTP_PORT: Type.Integer({ minimum: 0, maximum: 65_535, default: 3003 }),
  /** Its listen address (loopback unless told otherwise; the image sets 0.0.0.0). */
  HOST: ListenHost,
  REDIS_URL: Type.String({ default: 'redis://127.0.0.1:6379' }),
  /** `enable`: connect to Redis with TLS (REDIS_URL becomes rediss://); the Kubernetes secret sets it for KEDA too. */
  REDIS_TLS: RedisTls,
  QUEUE_PREFIX: Type.String({ default: 'render' }),
  /** Which format queues this process serves, e.g. "html,svg" (default: every format); run more processes to scale out. */
  RENDER_QUEUES: Type.String({ default: 'html,svg,chart,code,screenshot' }),
  /** Warm pages kept open in this process = jobs rendered in parallel. */
  RENDER_PAGES: Type.Integer({ minimum: 1, maximum: 64, default: 4 }),
  /**
   * Jobs taken beyond the warm pages, so a page that finishes finds the next job already here instead of
   * idling for a Redis round trip. Small on purpose: a prefetched job cannot move to another worker.
   */
  RENDER_PREFETCH: Type.Integer({ minimum: 0, maximum: 64, default: 2 }),
  /** Budget for one render inside the browser (load + screenshot). */
  RENDER_TIMEOUT_MS: Type.Integer({ minimum: 500, default: 20_000 }),
  /** A page is closed and replaced after this many jobs, bounding any slow leak inside Chromium. */
  PAGE_RECYCLE_AFTER: Type.Integer({ minimum: 1, default: 250 }),
  /** How long a finished image waits in Redis for the gateway to collect it. */
  RESULT_TTL_MS: Type.Integer({ minimum: 1_000, default: 60_000 }),
  /** A job whose worker died is handed to another worker after at most lock + stalled interval. */
  LOCK_DURATION_MS: Type.Integer({ minimum: 1_000, default: 10_000 }),
  STALLED_INTERVAL_MS: Type.Integer({ minimum: 1_000, default: 5_000 }),
  SHUTDOWN_TIMEOUT_MS: Type.Integer({ minimum: 1_000, default: 25_000 }),
  CHROMIUM_PATH: Type.String({ default: '/usr/bin/chromium-headless-shell' }),
  /** The ffmpeg that encodes screenshot videos (mp4, webm, gif): Debian's package, installed by setup and the worker image. */
  FFMPEG_PATH: Type.String({ default: '/usr/bin/ffmpeg' }),
  /** Largest screenshot video answered, in bytes; ffmpeg stops writing past it and the render fails saying so. */
  VIDEO_MAX_BYTES: Type.Integer({ minimum: 100_000, maximum: 200 * 1024 * 1024, default: VideoLimits.maxBytes }),
  /**
   * The fontconfig file Chromium starts with: the system's fonts plus the emoji rules (README, "Fonts").
   * Default: the checkout's infra/fonts/fonts.conf; an empty value keeps the system's configuration.
   */
  RENDER_FONTCONFIG_FILE: Type.String({ default: DEFAULT_FONTCONFIG_FILE }),
  /** auto: sandbox on unless running as root (Chromium cannot sandbox itself as root). */
  CHROMIUM_SANDBOX: Type.Union([Type.Literal('auto'), Type.Literal('on'), Type.Literal('off')], { default: 'auto' }),
  /** host:port pairs pages may reach even though they are not public (tests, self-hosted assets). */
  RENDER_EGRESS_ALLOWLIST: Type.String({ default: '' }),
  /**
   * The account service, which holds the webhook secrets: with it (and INTERNAL_TOKEN) this process also
   * delivers the webhooks of async renders, under the egress policy above. Without it, it delivers none.
   */
  AUTH_SERVICE_URL: Type.String({ default: '' }),
  INTERNAL_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
  /** Webhook deliveries in flight at once in this process (each is mostly waiting on the network). */
  WEBHOOK_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 256, default: 16 }),
  /** Largest image an SVG image variable may point at (bytes); it is inlined into the SVG, so this bounds the job. */
  RENDER_IMAGE_MAX_BYTES: Type.Integer({ minimum: 1_024, maximum: 50 * 1024 * 1024, default: 5 * 1024 * 1024 }),
  /** Per image variable, redirects and body included; the render's own budget can shorten it. */
  /** All image variables of one job together. */
  RENDER_IMAGES_MAX_TOTAL_BYTES: Type.Integer({ minimum: 1_024, maximum: 200 * 1024 * 1024, default: 20 * 1024 * 1024 }),
  RENDER_IMAGE_TIMEOUT_MS: Type.Integer({ minimum: 500, default: 10_000 }),
  /** Tallest full-page screenshot in CSS pixels; taller pages are captured in tiles up to here and cut (PAGE_CUT warning). */
  SCREENSHOT_MAX_HEIGHT: Type.Integer({ minimum: 1_000, maximum: 200_000, default: ScreenshotLimits.fullPageMaxHeight }),
  /**
   * Most device pixels of a full-page screenshot (width × height × scale²). Bounds the tiles' PNG bytes held
   * while stitching and the encoding time; the default is 1280 × 40,000.
   */
  SCREENSHOT_MAX_PIXELS: Type.Integer({ minimum: 1_000_000, maximum: 400_000_000, default: ScreenshotLimits.fullPageMaxPixels }),
  /**
   * blockAds / blockTrackers lists: comma-separated `ads=<file>` / `trackers=<file>`, each in adblock or hosts
   * syntax. Empty: the project's own small lists (blocklists/, Apache-2.0). The worker image sets EasyList and
   * EasyPrivacy (GPLv3 / CC BY-SA 3.0, licence texts beside them).
   */
  BLOCKLIST_FILES: Type.String({ default: '' }),
  /**
   * Also block what Ghostery's tracker database lists (@ghostery/trackerdb). Its licence is CC-BY-NC-SA-4.0:
   * non-commercial use only, so a paid service needs Ghostery's commercial licence to turn this on.
   */
  BLOCKLIST_TRACKERDB: Type.Boolean({ default: false }),
  /**
   * hideCookieBanners' element-hiding lists (adblock cosmetic syntax), comma-separated files. Empty: EasyList
   * Cookie as packaged with autoconsent 15.1.0; the worker image sets the current one.
   */
  COOKIE_LIST_FILES: Type.String({ default: '' }),
});

export type WorkerConfig = Static<typeof WorkerConfigSchema> & {
  /** The environment Chromium inherits (its own variables, e.g. a proxy or locale, pass through). */
  CHROMIUM_ENV: Readonly<Record<string, string | undefined>>;
  /** BLOCKLIST_FILES, BLOCKLIST_TRACKERDB and COOKIE_LIST_FILES, parsed (the files are read when the worker starts). */
  BLOCKLISTS: BlockListSettings;
};

export const loadWorkerConfig = (env: Record<string, string | undefined> = process.env): WorkerConfig => {
  const loaded = loadConfig(WorkerConfigSchema, env);
  const config = { ...loaded, REDIS_URL: redisUrlWithTls(loaded.REDIS_URL, loaded.REDIS_TLS) };
  let files: BlockListSettings['files'];
  try {
    files = parseBlockListFiles(config.BLOCKLIST_FILES);
  } catch (err) {
    throw new ConfigError(`Invalid configuration:\n  ${(err as Error).message}`);
  }
  return {
    ...config,
    CHROMIUM_ENV: { ...env },
    BLOCKLISTS: { files, trackerDb: config.BLOCKLIST_TRACKERDB, cookieFiles: splitList(config.COOKIE_LIST_FILES) },
  };
};
