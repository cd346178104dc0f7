import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AccountRoutes, AppError } from '@render/contracts';
import { applySubscription, BillingMessages, currencyFromAcceptLanguage, idOf, stripeCall } from '../lib/billing.ts';
import { serveAccount } from '../lib/serve-account.ts';

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
    const stripe = app.billing.client();
    const user = request.account;
    const interval = request.body?.interval ?? 'month';
    const currency = request.body?.currency ?? currencyFromAcceptLanguage(request.headers['accept-language']);
    const price = app.billing.prices[interval][currency];
    if (!price) throw new AppError('SERVICE_UNAVAILABLE', BillingMessages.priceUnavailable, undefined, { retryAfterSeconds: 3600 });

    let row = await subscriptions.findByUserId(user.id);
    if (row?.status && row.status !== 'canceled') throw new AppError('CONFLICT', BillingMessages.alreadySubscribed);
    if (!row) {
      const customer = await stripeCall(request.log, 'customers.create', () =>
        stripe.customers.create(
          { email: user.email, name: user.name, metadata: { userId: user.id } },
          // Two concurrent upgrades get the same customer from Stripe instead of two.
          { idempotencyKey: `customer-for-user-${user.id}` },
        ),
      );
      row = await subscriptions.saveCustomer(user.id, customer.id);
    }
    const customerId = row.stripe_customer_id;
    const session = await stripeCall(request.log, 'checkout.sessions.create', () =>
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

  /** The account's subscription that Stripe still runs (active, cancelling or past due), or 404. */
  async function liveSubscription(userId: string) {
    const row = await subscriptions.findByUserId(userId);
    const subscriptionId = row?.stripe_subscription_id;
    if (!row || !subscriptionId || !row.status || row.status === 'canceled')
      throw new AppError('NOT_FOUND', BillingMessages.noSubscription);
    return { row, subscriptionId };
  }

  serve(AccountRoutes.cancelSubscription, async (request) => {
    const stripe = app.billing.client();
    const { row, subscriptionId } = await liveSubscription(request.account.id);
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
    const { row, subscriptionId } = await liveSubscription(request.account.id);
    if (row.status !== 'cancelling') throw new AppError('VALIDATION_ERROR', BillingMessages.notCancelling);
    if (row.current_period_end && row.current_period_end.getTime() <= Date.now())
      throw new AppError('VALIDATION_ERROR', BillingMessages.periodEnded);
    const sub = await stripeCall(request.log, 'subscriptions.update', () =>
      stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: false }),
    );
    await applySubscription(app.repositories, request.log, sub, request.account.id);
    return { success: true as const, message: BillingMessages.reactivated };
  });

  serve(AccountRoutes.paymentInfo, async (request) => {
    const stripe = app.billing.client();
    const row = await subscriptions.findByUserId(request.account.id);
    const plan = request.account.plan;
    const subscriptionId = row?.stripe_subscription_id;
    // A free account has no subscription: its billing page shows the free plan rather than an error.
    if (!row || !subscriptionId || !row.status) {
      const data = { plan, status: null, price: null, currency: null, interval: null, nextBillingDate: null, cancelAtPeriodEnd: false };
      return { success: true as const, data: { ...data, paymentMethods: [], testMode: app.billing.testMode } };
    }
    const customerId = row.stripe_customer_id;
    const [sub, customer, methods] = await stripeCall(request.log, 'payment-info', () =>
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
        paymentMethods: methods.data.flatMap((method) =>
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
        ),
        testMode: app.billing.testMode,
      },
    };
  });
};

export default billingRoutes;
