import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AccountRoutes, AppError } from '@render/contracts';
import type { UserRow } from '@render/db';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import { applySubscription, BillingMessages, currencyFromAcceptLanguage, idOf, stripeCall } from '../lib/billing.ts';
import { serveAccount } from '../lib/serve-account.ts';

/** Who upgrades, to which price, and where Stripe's pages send them back to (the dashboard). */
interface CheckoutRequest {
  user: UserRow;
  interval: 'month' | 'year';
  currency: 'usd' | 'eur';
  returnUrl: string;
}

/** The account's Stripe customer, created on its first upgrade (and its subscription row with it). */
async function customerFor(app: FastifyInstance, log: FastifyBaseLogger, user: UserRow) {
  const { subscriptions } = app.repositories;
  let row = await subscriptions.findByUserId(user.id);
  if (row?.status && row.status !== 'canceled') throw new AppError('CONFLICT', BillingMessages.alreadySubscribed);
  if (!row) {
    const customer = await stripeCall(log, 'customers.create', () =>
      app.billing.client().customers.create(
        { email: user.email, name: user.name, metadata: { userId: user.id } },
        // Two concurrent upgrades get the same customer from Stripe instead of two.
        { idempotencyKey: `customer-for-user-${user.id}` },
      ),
    );
    row = await subscriptions.saveCustomer(user.id, customer.id);
  }
  return row;
}

/** A Stripe Checkout session for the Pro plan at the asked interval and currency. */
async function checkout(app: FastifyInstance, log: FastifyBaseLogger, { user, interval, currency, returnUrl }: CheckoutRequest) {
  const stripe = app.billing.client();
  const price = app.billing.prices[interval][currency];
  if (!price) throw new AppError('SERVICE_UNAVAILABLE', BillingMessages.priceUnavailable, undefined, { retryAfterSeconds: 3600 });
  const row = await customerFor(app, log, user);
  const customerId = row.stripe_customer_id;
  const session = await stripeCall(log, 'checkout.sessions.create', () =>
    stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customerId,
      // Ties the completed checkout back to the account even if events arrive out of order.
      client_reference_id: user.id,
      line_items: [{ price, quantity: 1 }],
      subscription_data: { metadata: { userId: user.id } },
      success_url: `${returnUrl}?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${returnUrl}?checkout=cancelled`,
      locale: currency === 'eur' ? 'fr' : 'auto',
    }),
  );
  if (!session.url) throw new AppError('SERVICE_UNAVAILABLE', BillingMessages.providerUnavailable, undefined, { retryAfterSeconds: 30 });
  return { success: true as const, url: session.url, sessionId: session.id };
}

/** The account's subscription that Stripe still runs (active, cancelling or past due), or 404. */
async function liveSubscription(app: FastifyInstance, userId: string) {
  const row = await app.repositories.subscriptions.findByUserId(userId);
  const subscriptionId = row?.stripe_subscription_id;
  if (!row || !subscriptionId || !row.status || row.status === 'canceled') throw new AppError('NOT_FOUND', BillingMessages.noSubscription);
  return { row, subscriptionId };
}

/** The cards on file, the default one marked. */
const cardsOf = (methods: Stripe.PaymentMethod[], defaultMethod: string | undefined) =>
  methods.flatMap((method) =>
    method.card
      ? [
          {
            brand: method.card.brand,
            last4: method.card.last4,
            expMonth: method.card.exp_month,
            expYear: method.card.exp_year,
            isDefault: method.id === defaultMethod,
          },
        ]
      : [],
  );

/** The billing page's data: the plan, the subscription's price and dates, the cards. */
async function paymentInfo(app: FastifyInstance, log: FastifyBaseLogger, account: UserRow) {
  const stripe = app.billing.client();
  const row = await app.repositories.subscriptions.findByUserId(account.id);
  const plan = account.plan;
  const subscriptionId = row?.stripe_subscription_id;
  // A free account has no subscription: its billing page shows the free plan rather than an error.
  if (!row || !subscriptionId || !row.status) {
    const data = { plan, status: null, price: null, currency: null, interval: null, nextBillingDate: null, cancelAtPeriodEnd: false };
    return { success: true as const, data: { ...data, paymentMethods: [], testMode: app.billing.testMode } };
  }
  const customerId = row.stripe_customer_id;
  const [sub, customer, methods] = await stripeCall(log, 'payment-info', () =>
    Promise.all([
      stripe.subscriptions.retrieve(subscriptionId),
      stripe.customers.retrieve(customerId),
      stripe.paymentMethods.list({ customer: customerId, type: 'card', limit: 10 }),
    ]),
  );
  const price = sub.items.data[0]?.price;
  const defaultMethod =
    idOf(sub.default_payment_method) ?? (customer.deleted ? undefined : idOf(customer.invoice_settings.default_payment_method));
  return {
    success: true as const,
    data: {
      plan,
      status: row.status,
      price: typeof price?.unit_amount === 'number' ? price.unit_amount / 100 : null,
      currency: price?.currency ?? null,
      interval: row.interval,
      nextBillingDate: row.current_period_end ? row.current_period_end.toISOString() : null,
      cancelAtPeriodEnd: row.cancel_at_period_end,
      paymentMethods: cardsOf(methods.data, defaultMethod),
      testMode: app.billing.testMode,
    },
  };
}

/** docs/spec/calls.md billing calls. Every one needs a signed-in user and answers 503 while billing is not configured. */
const billingRoutes: FastifyPluginAsyncTypebox<{ appUrl: string }> = async (app, opts) => {
  const { subscriptions } = app.repositories;
  const returnUrl = `${opts.appUrl.replace(/\/+$/, '')}/dashboard`;
  const serve = serveAccount(app);

  // Before body validation, so an unconfigured service answers 503, not a 400 (the caller's 401 came first:
  // the access rule's guard runs when the request arrives).
  app.addHook('preValidation', async (request) => {
    app.billing.client();
    // Every billing body is optional: no body means the defaults.
    request.body ??= {};
  });

  serve(AccountRoutes.upgrade, async (request) => {
    const interval = request.body?.interval ?? 'month';
    const currency = request.body?.currency ?? currencyFromAcceptLanguage(request.headers['accept-language']);
    return checkout(app, request.log, { user: request.account, interval, currency, returnUrl });
  });

  serve(AccountRoutes.manageBilling, async (request) => {
    const stripe = app.billing.client();
    const row = await subscriptions.findByUserId(request.account.id);
    if (!row) throw new AppError('NOT_FOUND', BillingMessages.noBillingAccount);
    const portal = await stripeCall(request.log, 'billingPortal.sessions.create', () =>
      stripe.billingPortal.sessions.create({ customer: row.stripe_customer_id, return_url: returnUrl }),
    );
    return { success: true as const, url: portal.url };
  });

  serve(AccountRoutes.cancelSubscription, async (request) => {
    const stripe = app.billing.client();
    const { row, subscriptionId } = await liveSubscription(app, request.account.id);
    if (row.status === 'cancelling') throw new AppError('CONFLICT', BillingMessages.alreadyCancelling);
    // Access is kept until the end of the period already paid for (docs/spec/states.md); Stripe ends it then.
    const sub = await stripeCall(request.log, 'subscriptions.update', () =>
      stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true }),
    );
    const saved = await applySubscription(app.repositories, request.log, sub, request.account.id);
    const accessUntil = saved?.current_period_end ?? row.current_period_end;
    return { success: true as const, message: BillingMessages.cancelled, accessUntil: accessUntil ? accessUntil.toISOString() : null };
  });

  serve(AccountRoutes.reactivateSubscription, async (request) => {
    const stripe = app.billing.client();
    const { row, subscriptionId } = await liveSubscription(app, request.account.id);
    if (row.status !== 'cancelling') throw new AppError('VALIDATION_ERROR', BillingMessages.notCancelling);
    if (row.current_period_end && row.current_period_end.getTime() <= Date.now())
      throw new AppError('VALIDATION_ERROR', BillingMessages.periodEnded);
    const sub = await stripeCall(request.log, 'subscriptions.update', () =>
      stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: false }),
    );
    await applySubscription(app.repositories, request.log, sub, request.account.id);
    return { success: true as const, message: BillingMessages.reactivated };
  });

  serve(AccountRoutes.paymentInfo, async (request) => paymentInfo(app, request.log, request.account));
};

export default billingRoutes;
