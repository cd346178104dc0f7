import { AppError, VideoLimits, videoExtraMs } from '@render/contracts';
import { parseAllowlist } from '@render/egress-policy';
import { errorHandler, health, metrics, requireInternalToken, serviceServerOptions } from '@render/fastify-kit';
import { loggerOptions } from '@render/logger';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { anonymousAdvantages, type GatewayConfig } from './config.ts';
import { accountForwardHooks } from './lib/account-forwarding.ts';
import accountChanges from './plugins/account-changes.plugin.ts';
import accountLimits from './plugins/account-limits.plugin.ts';
import anonymousLimits from './plugins/anonymous-limits.plugin.ts';
import asyncRenders from './plugins/async-renders.plugin.ts';
import authClient from './plugins/auth-client.plugin.ts';
import batches from './plugins/batches.plugin.ts';
import compression from './plugins/compression.plugin.ts';
import cors, { parseCorsOrigins } from './plugins/cors.plugin.ts';
import credits from './plugins/credits.plugin.ts';
import idempotency from './plugins/idempotency.plugin.ts';
import identity from './plugins/identity.plugin.ts';
import innerCalls from './plugins/inner-calls.plugin.ts';
import limitHeaders from './plugins/limit-headers.plugin.ts';
import openapi from './plugins/openapi.plugin.ts';
import redis from './plugins/redis.plugin.ts';
import renderCache from './plugins/render-cache.plugin.ts';
import renderQueue from './plugins/render-queue.plugin.ts';
import securityHeaders from './plugins/security-headers.plugin.ts';
import templatesClient from './plugins/templates-client.plugin.ts';
import webApp from './plugins/web-app.plugin.ts';
import batchesRoutes from './routes/batches.routes.ts';
import convertRoutes from './routes/convert.routes.ts';
import forwardRoutes from './routes/forward.routes.ts';
import highchartsExportRoutes from './routes/highcharts-export.routes.ts';
import limitsRoutes from './routes/limits.routes.ts';
import mcpRoutes from './routes/mcp.routes.ts';
import pingRoutes from './routes/ping.routes.ts';
import quickChartRoutes from './routes/quickchart.routes.ts';
import quickChartShortUrlsRoutes from './routes/quickchart-short-urls.routes.ts';
import renderLinkRoutes from './routes/render-link.routes.ts';
import rendersRoutes from './routes/renders.routes.ts';
import templateRoutes from './routes/template.routes.ts';
import templateImageRoutes from './routes/template-image.routes.ts';
import { telemetryOrigins, webAppConfig } from './web-app/web-telemetry.ts';
import { parseWebhookPorts } from './webhooks/webhook-target.ts';

export function serverOptions(config: GatewayConfig): FastifyServerOptions {
  return {
    ...serviceServerOptions({ logger: loggerOptions('gateway', config.LOG_LEVEL), bodyLimit: config.BODY_LIMIT_BYTES }),
    // Render calls legitimately take seconds; the deadline is enforced by the queue wait, not the socket.
    // A screenshot video may be waited for its duration and encoding longer (`videoExtraMs`).
    requestTimeout: config.RENDER_DEADLINE_MS + 10_000 + videoExtraMs({ format: 'mp4', duration: VideoLimits.maxDuration }),
    trustProxy: config.TRUST_PROXY,
  };
}

/** The gateway as one plugin: dependencies first, then routes. server.ts and the tests both register it. */
export default async function app(fastify: FastifyInstance, opts: { config: GatewayConfig }) {
  const { config } = opts;
  for (const problem of anonymousAdvantages(config)) fastify.log.warn(`anonymous callers are better off than Free accounts: ${problem}`);
  // Registration order is behaviour (hooks run, and decorators exist, in the order plugins are registered):
  // these groups run one after another, each registering on this same instance, never in a child context.
  await registerResponsePlugins(fastify, config);
  await registerObservability(fastify, config);
  await registerCallerServices(fastify, config);
  await registerRenderServices(fastify, config);
  await registerRoutes(fastify, config);
}

/** What shapes every answer: errors, CORS, compression, limit and security headers, the OpenAPI document. */
async function registerResponsePlugins(fastify: FastifyInstance, config: GatewayConfig) {
  await fastify.register(errorHandler);
  // First, so that even an answer refused by a later hook (a 401) carries the CORS headers a browser needs to read it.
  const corsPolicy = parseCorsOrigins(config.CORS_ORIGINS);
  if (corsPolicy) await fastify.register(cors, corsPolicy);
  // Before every route: it attaches itself to the routes declared after it.
  await fastify.register(compression);
  // Early, so its hooks see every answer (a Retry-After on each 429 and 503, whoever made it).
  await fastify.register(limitHeaders);
  const origins = telemetryOrigins(config);
  await fastify.register(securityHeaders, { connectOrigins: origins.connect, scriptOrigins: origins.script });
  await fastify.register(openapi);
}

/** /metrics, the Redis client and the health checks that read it. */
async function registerObservability(fastify: FastifyInstance, config: GatewayConfig) {
  // On the public port, /metrics needs the internal token (without one configured, nobody gets it); with
  // METRICS_PORT it is served there instead, a port the network policy opens to Prometheus alone.
  const metricsGuard = config.INTERNAL_TOKEN
    ? requireInternalToken(config.INTERNAL_TOKEN)
    : async () => {
        throw new AppError('UNAUTHORIZED', 'Internal token required');
      };
  await fastify.register(metrics, { service: 'gateway', guard: metricsGuard, port: config.METRICS_PORT, host: config.HOST });
  await fastify.register(redis, { url: config.REDIS_URL, bootWaitMs: config.REDIS_BOOT_WAIT_MS });
  await fastify.register(health, {
    checks: [
      {
        name: 'redis',
        check: async () => {
          if (fastify.redis.status !== 'ready') throw new Error(`redis is ${fastify.redis.status}`);
          await fastify.redis.ping();
        },
      },
    ],
  });
}

/** Who is calling and what they may do: account limits, the render queue, the auth client, credits, identity. */
async function registerCallerServices(fastify: FastifyInstance, config: GatewayConfig) {
  await fastify.register(accountLimits, { freeMaxInFlight: config.FREE_MAX_IN_FLIGHT, proMaxInFlight: config.PRO_MAX_IN_FLIGHT });
  await fastify.register(renderQueue, {
    redisUrl: config.REDIS_URL,
    prefix: config.QUEUE_PREFIX,
    deadlineMs: config.RENDER_DEADLINE_MS,
    maxQueueDepth: config.MAX_QUEUE_DEPTH,
    queueFullRetryAfterSeconds: config.QUEUE_FULL_RETRY_AFTER_SECONDS,
  });
  await fastify.register(authClient, {
    baseUrl: config.AUTH_SERVICE_URL,
    internalToken: config.INTERNAL_TOKEN,
    timeoutMs: config.ACCOUNT_TIMEOUT_MS,
    settleBatchMs: config.CREDIT_SETTLE_BATCH_MS,
  });
  await fastify.register(accountChanges, { redisUrl: config.REDIS_URL, prefix: config.QUEUE_PREFIX });
  await fastify.register(anonymousLimits, {
    perMinute: config.ANON_RATE_LIMIT_PER_MINUTE,
    perDay: config.ANON_RATE_LIMIT_PER_DAY,
    maxInFlight: config.ANON_MAX_IN_FLIGHT,
    maxPixels: config.ANON_MAX_PIXELS,
    keyPrefix: config.QUEUE_PREFIX,
  });
  await fastify.register(credits, {
    leaseTtlMs: config.KEY_LEASE_TTL_MS,
    leaseSteadyPerSecond: config.KEY_LEASE_STEADY_PER_SECOND,
  });
  await fastify.register(identity);
}

/** Before the routes: idempotent replays, the templates client, the render cache, async renders, inner calls. */
async function registerRenderServices(fastify: FastifyInstance, config: GatewayConfig) {
  // A create call's Idempotency-Key: its kept answer is read before the handler runs, written before compression.
  await fastify.register(idempotency, {
    prefix: config.QUEUE_PREFIX,
    inFlightTtlMs: Math.max(config.RENDER_DEADLINE_MS, config.FORWARD_TIMEOUT_MS) + 30_000,
  });
  await fastify.register(templatesClient, {
    baseUrl: config.TEMPLATES_SERVICE_URL,
    internalToken: config.INTERNAL_TOKEN,
    timeoutMs: config.FORWARD_TIMEOUT_MS,
  });
  await fastify.register(renderCache, {
    prefix: config.QUEUE_PREFIX,
    deadlineMs: config.RENDER_DEADLINE_MS,
    maxEntries: config.RENDER_CACHE_MAX_ENTRIES,
    maxEntryBytes: config.RENDER_CACHE_MAX_ENTRY_BYTES,
  });
  await fastify.register(asyncRenders, {
    prefix: config.QUEUE_PREFIX,
    ttlSeconds: config.ASYNC_RESULT_TTL_SECONDS,
    webhookRetryBaseMs: config.WEBHOOK_RETRY_BASE_MS,
    webhookAttempts: config.WEBHOOK_ATTEMPTS,
    webhookAllowlist: parseAllowlist(config.RENDER_EGRESS_ALLOWLIST),
    webhookPorts: parseWebhookPorts(config.WEBHOOK_PORTS),
    // A render's wait is bounded by the deadline; a minute on top covers a template still being filled.
    orphanAfterMs: config.RENDER_DEADLINE_MS + 60_000,
    sweepEveryMs: config.ASYNC_RENDER_SWEEP_MS,
  });
  await fastify.register(batches, {
    prefix: config.QUEUE_PREFIX,
    ttlSeconds: config.ASYNC_RESULT_TTL_SECONDS,
    // Heard of as each item starts; an item's wait is bounded by the deadline.
    orphanAfterMs: config.RENDER_DEADLINE_MS + 60_000,
    sweepEveryMs: config.ASYNC_RENDER_SWEEP_MS,
  });
  // Before the routes: its hook ties the MCP tools' inner calls to their client's connection.
  await fastify.register(innerCalls);
}

/** The API's routes, then the account service's forwarded ones and, when built, the web app last. */
async function registerRoutes(fastify: FastifyInstance, config: GatewayConfig) {
  await fastify.register(pingRoutes);
  await fastify.register(limitsRoutes, { freeMaxInFlight: config.FREE_MAX_IN_FLIGHT, proMaxInFlight: config.PRO_MAX_IN_FLIGHT });
  await fastify.register(rendersRoutes);
  await fastify.register(batchesRoutes);
  await fastify.register(convertRoutes);
  await fastify.register(quickChartRoutes);
  await fastify.register(quickChartShortUrlsRoutes);
  await fastify.register(highchartsExportRoutes, { allowCustomCode: config.HIGHCHARTS_CUSTOM_CODE === 'enable' });
  await fastify.register(templateRoutes);
  await fastify.register(renderLinkRoutes);
  await fastify.register(templateImageRoutes, {
    cache: {
      prefix: config.QUEUE_PREFIX,
      ttlSeconds: config.TEMPLATE_IMAGE_CACHE_TTL_SECONDS,
      maxEntries: config.TEMPLATE_IMAGE_CACHE_MAX_ENTRIES,
      maxEntryBytes: config.TEMPLATE_IMAGE_CACHE_MAX_ENTRY_BYTES,
    },
    browserMaxAgeSeconds: config.TEMPLATE_IMAGE_MAX_AGE_SECONDS,
  });
  await fastify.register(mcpRoutes);
  await fastify.register(forwardRoutes, {
    prefixes: ['/api/auth', '/api/admin'],
    target: config.AUTH_SERVICE_URL,
    timeoutMs: config.FORWARD_TIMEOUT_MS,
    serviceName: 'account service',
    hooks: accountForwardHooks(fastify),
  });
  if (config.WEB_DIST_DIR)
    await fastify.register(webApp, {
      distDir: config.WEB_DIST_DIR,
      appConfig: webAppConfig(config),
      publicSourceMaps: config.WEB_SOURCEMAPS === 'public',
    });
}
