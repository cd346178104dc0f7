import { postgresCheck, registerPostgres } from '@render/db';
import { registerInternalServiceBase, serviceServerOptions } from '@render/fastify-kit';
import { loggerOptions } from '@render/logger';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { AuthConfig } from './config.ts';
import { bootstrapAdmin } from './lib/admin-bootstrap.ts';
import creditReconciler from './plugins/credit-reconciler.plugin.ts';
import jwt from './plugins/jwt.plugin.ts';
import mailer from './plugins/mailer.plugin.ts';
import security from './plugins/security.plugin.ts';
import stripe from './plugins/stripe.plugin.ts';
import adminRoutes from './routes/admin.routes.ts';
import apiKeyRoutes from './routes/api-key.routes.ts';
import billingRoutes from './routes/billing.routes.ts';
import internalCreditsRoutes from './routes/internal-credits.routes.ts';
import passwordRoutes from './routes/password.routes.ts';
import sessionRoutes from './routes/session.routes.ts';
import signupRoutes from './routes/signup.routes.ts';
import stripeWebhookRoutes from './routes/stripe-webhook.routes.ts';
import usageRoutes from './routes/usage.routes.ts';
import webhookSecretRoutes from './routes/webhook-secret.routes.ts';

export function serverOptions(config: AuthConfig): FastifyServerOptions {
  return {
    ...serviceServerOptions({
      logger: loggerOptions('auth', config.LOG_LEVEL),
      bodyLimit: config.BODY_LIMIT_BYTES,
      // The gateway's calls (credits, API keys) belong to a request the gateway logs already.
      quiet: (request) => request.url.startsWith('/internal/'),
    }),
    // The gateway sets X-Forwarded-For; per-IP login limits need the client's address, so trust it (only).
    trustProxy: config.TRUST_PROXY,
  };
}

/** The auth service as one plugin: dependencies first, then routes. server.ts and the tests both register it. */
export default async function app(fastify: FastifyInstance, opts: { config: AuthConfig }) {
  const { config } = opts;
  await registerInternalServiceBase(fastify, { service: 'auth', checks: [postgresCheck(fastify)] });
  await registerPostgres(fastify, config.DATABASE_URL);
  await fastify.register(security, {
    apiKeyEncryptionKey: config.API_KEY_ENCRYPTION_KEY,
    internalToken: config.INTERNAL_TOKEN,
    loginMaxPerAccount: config.LOGIN_MAX_PER_ACCOUNT,
    loginMaxPerIp: config.LOGIN_MAX_PER_IP,
    loginWindowSeconds: config.LOGIN_WINDOW_SECONDS,
  });
  await fastify.register(jwt, { secret: config.JWT_SECRET, expiresIn: config.JWT_EXPIRES_IN });
  await fastify.register(mailer, { smtpUrl: config.SMTP_URL, mailDir: config.MAIL_DIR, from: config.MAIL_FROM });
  await fastify.register(stripe, {
    secretKey: config.STRIPE_SECRET_KEY,
    webhookSecret: config.STRIPE_WEBHOOK_SECRET,
    prices: {
      month: { usd: config.STRIPE_PRICE_MONTHLY_USD, eur: config.STRIPE_PRICE_MONTHLY_EUR },
      year: { usd: config.STRIPE_PRICE_YEARLY_USD, eur: config.STRIPE_PRICE_YEARLY_EUR },
    },
    host: config.STRIPE_API_HOST,
    port: config.STRIPE_API_PORT,
    protocol: config.STRIPE_API_PROTOCOL,
    standIn: config.STRIPE_STAND_IN ? { stateFile: config.STRIPE_STAND_IN_STATE_FILE, port: config.STRIPE_STAND_IN_PORT } : undefined,
  });
  await fastify.register(creditReconciler, {
    staleAfterSeconds: config.CREDIT_RESERVATION_TIMEOUT_SECONDS,
    intervalMs: config.CREDIT_RECONCILE_INTERVAL_MS,
  });
  if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) await bootstrapAdmin(fastify, config.ADMIN_EMAIL, config.ADMIN_PASSWORD);

  await fastify.register(signupRoutes);
  await fastify.register(sessionRoutes);
  await fastify.register(passwordRoutes, { appUrl: config.APP_URL });
  await fastify.register(apiKeyRoutes);
  await fastify.register(webhookSecretRoutes);
  await fastify.register(adminRoutes);
  await fastify.register(billingRoutes, { appUrl: config.APP_URL });
  await fastify.register(stripeWebhookRoutes);
  await fastify.register(usageRoutes, { launchUnlimited: config.LAUNCH_UNLIMITED });
  await fastify.register(internalCreditsRoutes, { launchUnlimited: config.LAUNCH_UNLIMITED });
}
