import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AccountRoutes, AppError } from '@render/contracts';
import Stripe from 'stripe';
import { processStripeEvent } from '../lib/billing-webhooks.ts';
import { serveAccount } from '../lib/serve-account.ts';

// Stripe's events are a few kilobytes; this leaves room for large invoices without accepting arbitrary uploads.
const WEBHOOK_BODY_LIMIT = 1024 * 1024;

/**
 * Stripe's signature covers the exact bytes it sent, so this route (and only this one: the plugin is
 * encapsulated) keeps the body as a Buffer instead of parsing JSON. The gateway forwards the raw bytes.
 */
const stripeWebhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) => done(null, body));

  serveAccount(app)(
    AccountRoutes.stripeWebhook,
    async (request) => {
      const stripe = app.billing.client();
      const secret = app.billing.webhookSecret();
      const signature = request.headers['stripe-signature'];
      if (typeof signature !== 'string' || !Buffer.isBuffer(request.body))
        throw new AppError('VALIDATION_ERROR', 'Missing Stripe signature');
      let event: Stripe.Event;
      try {
        // Checks the HMAC over the raw body and that the timestamp is within Stripe's 5-minute tolerance (replays).
        event = stripe.webhooks.constructEvent(request.body, signature, secret);
      } catch (error) {
        if (error instanceof Stripe.errors.StripeSignatureVerificationError)
          throw new AppError('VALIDATION_ERROR', 'Invalid Stripe signature');
        throw error;
      }
      const processed = await processStripeEvent(app.repositories, stripe, request.log, event);
      if (!processed) return { received: true as const, duplicate: true };
      request.log.info({ event: event.id, type: event.type }, 'stripe event processed');
      return { received: true as const };
    },
    { bodyLimit: WEBHOOK_BODY_LIMIT },
  );
};

export default stripeWebhookRoutes;
