import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { AppError } from '@render/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import Stripe from 'stripe';
import { BillingMessages, type BillingPrices } from '../lib/billing.ts';
import { proPriceIds, proPrices } from '../stand-in/stand-in-prices.ts';
import { startStripeStandIn } from '../stand-in/stripe-stand-in.ts';

export interface Billing {
  /** The Stripe client; throws 503 "Billing is not configured" without STRIPE_SECRET_KEY (and no stand-in). */
  client(): Stripe;
  /** The webhook signing secret; throws 503 when billing or the secret is not configured. */
  webhookSecret(): string;
  prices: BillingPrices;
  /** No real money moves: Stripe test keys (sk_test_…), or the development stand-in. The billing screens say so. */
  testMode: boolean;
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
  /** Without a secret key, run billing against the in-process Stripe stand-in (development). */
  standIn?: { stateFile?: string; port?: number };
}

/**
 * Starts the stand-in and answers the options that point the Stripe SDK at it. Its webhooks go to this
 * service's own webhook route, on the address it listens on (known only once it listens).
 */
async function standInOptions(app: FastifyInstance, standIn: NonNullable<StripePluginOptions['standIn']>): Promise<StripePluginOptions> {
  const webhookSecret = `whsec_${randomBytes(24).toString('hex')}`;
  const webhookUrl = () => {
    const address = app.server.address() as AddressInfo | null;
    if (!address) return undefined;
    const host = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.address;
    return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}/api/auth/stripe/webhook`;
  };
  const stripe = await startStripeStandIn({
    prices: proPrices('price_stand_in'),
    stateFile: standIn.stateFile,
    port: standIn.port,
    pages: { webhook: { url: webhookUrl, secret: webhookSecret } },
  });
  app.addHook('onClose', () => stripe.close());
  app.log.warn({ url: stripe.url }, 'billing runs in test mode against the local Stripe stand-in (no STRIPE_SECRET_KEY)');
  return {
    secretKey: 'sk_test_stand_in',
    webhookSecret,
    prices: proPriceIds('price_stand_in'),
    host: '127.0.0.1',
    port: Number(stripe.env.STRIPE_API_PORT),
    protocol: 'http',
  };
}

/**
 * Billing is optional: without a secret key the service boots and every billing call answers 503, so
 * self-hosting needs no Stripe account; in development (`standIn`) it runs against the local stand-in instead.
 */
async function stripePlugin(app: FastifyInstance, given: StripePluginOptions) {
  const standIn = !given.secretKey && given.standIn !== undefined;
  const opts = standIn && given.standIn ? await standInOptions(app, given.standIn) : given;
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
  const notConfigured = () => new AppError('BILLING_NOT_CONFIGURED', BillingMessages.notConfigured, undefined, { retryAfterSeconds: 3600 });

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
    testMode: standIn || /^[rs]k_test_/.test(opts.secretKey ?? ''),
  } satisfies Billing);
}

export default fp(stripePlugin, { name: 'stripe', fastify: '5.x' });
