import { AppError } from '@render/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import Stripe from 'stripe';
import { BillingMessages, type BillingPrices } from '../lib/billing.ts';

export interface Billing {
  /** The Stripe client; throws 503 "Billing is not configured" without STRIPE_SECRET_KEY. */
  client(): Stripe;
  /** The webhook signing secret; throws 503 when billing or the secret is not configured. */
  webhookSecret(): string;
  prices: BillingPrices;
}

declare module 'fastify' {
  interface FastifyInstance {
    billing: Billing;
  }
}

export interface StripePluginOptions {
  secretKey?: string;
  webhookSecret?: string;
  prices: BillingPrices;
  /** Only set to reach a local fake Stripe (tests); the SDK's defaults otherwise. */
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
}

/**
 * Billing is optional: without a secret key the service boots and every billing call answers 503, so local
 * development and self-hosting need no Stripe account.
 */
async function stripePlugin(app: FastifyInstance, opts: StripePluginOptions) {
  const stripe = opts.secretKey
    ? new Stripe(opts.secretKey, {
        host: opts.host,
        port: opts.port,
        protocol: opts.protocol,
        // A request a user waits on should fail in seconds, not after the SDK's 80 s default.
        timeout: 15_000,
        appInfo: { name: 'render-auth' },
      })
    : undefined;
  // A configuration matter, not an outage: a retry in seconds would change nothing.
  const notConfigured = () => new AppError('SERVICE_UNAVAILABLE', BillingMessages.notConfigured, undefined, { retryAfterSeconds: 3600 });

  app.decorate('billing', {
    client() {
      if (!stripe) throw notConfigured();
      return stripe;
    },
    webhookSecret() {
      if (!stripe || !opts.webhookSecret) throw notConfigured();
      return opts.webhookSecret;
    },
    prices: opts.prices,
  } satisfies Billing);
}

export default fp(stripePlugin, { name: 'stripe', fastify: '5.x' });
