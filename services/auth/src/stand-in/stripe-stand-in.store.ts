import { randomBytes } from 'node:crypto';
import fs from 'node:fs';

// What the stand-in for api.stripe.com keeps: customers, Checkout sessions, subscriptions and cards, shaped
// with the fields the auth service reads, as Stripe's API returns them. Kept in memory, and in a JSON file
// when one is given (development: a restart of the auth service must not forget who is subscribed).

export type Json = Record<string, unknown>;

export interface StandInPrice {
  unit_amount: number;
  currency: 'usd' | 'eur';
  interval: 'month' | 'year';
}

export const standInId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);
const DAY = 24 * 60 * 60;

interface State {
  customers: Record<string, Json>;
  sessions: Record<string, Json>;
  subscriptions: Record<string, Json>;
  paymentMethods: Record<string, Json[]>;
  portals: Record<string, Json>;
}

export class StandInStore {
  private readonly state: State;
  /** Live view of the subscriptions by id (tests read and change them). */
  readonly subscriptions: Map<string, Json>;

  constructor(
    private readonly prices: Record<string, StandInPrice>,
    private readonly stateFile?: string,
  ) {
    const empty: State = { customers: {}, sessions: {}, subscriptions: {}, paymentMethods: {}, portals: {} };
    this.state = stateFile && fs.existsSync(stateFile) ? { ...empty, ...JSON.parse(fs.readFileSync(stateFile, 'utf8')) } : empty;
    const subs = this.state.subscriptions;
    // A Map over the state's record: what tests set through it is what the API answers and what is saved.
    this.subscriptions = new Map(Object.entries(subs));
    const set = this.subscriptions.set.bind(this.subscriptions);
    this.subscriptions.set = (key, value) => {
      subs[key] = value;
      return set(key, value);
    };
  }

  /** Written after every change, synchronously: a handful of objects, and a crash must not lose a payment. */
  save() {
    if (this.stateFile) fs.writeFileSync(this.stateFile, JSON.stringify(this.state), { mode: 0o600 });
  }

  priceObject(priceId: string): Json {
    const price = this.prices[priceId];
    if (!price) throw new Error(`stripe stand-in: unknown price ${priceId}`);
    return {
      id: priceId,
      object: 'price',
      active: true,
      currency: price.currency,
      unit_amount: price.unit_amount,
      recurring: { interval: price.interval, interval_count: 1, usage_type: 'licensed' },
      type: 'recurring',
    };
  }

  customer = (id: string): Json | undefined => this.state.customers[id];
  session = (id: string): Json | undefined => this.state.sessions[id];
  portal = (id: string): Json | undefined => this.state.portals[id];
  paymentMethodsOf = (customerId: string): Json[] => this.state.paymentMethods[customerId] ?? [];
  subscriptionsOf = (customerId: string): Json[] => [...this.subscriptions.values()].filter((s) => s.customer === customerId);

  createCustomer(params: Record<string, string>): Json {
    const customer = {
      id: standInId('cus'),
      object: 'customer',
      email: params.email ?? null,
      name: params.name ?? null,
      metadata: { userId: params['metadata[userId]'] },
      invoice_settings: { default_payment_method: null },
      livemode: false,
    };
    this.state.customers[customer.id] = customer;
    this.save();
    return customer;
  }

  /** `url` makes the session's page address from its id (Stripe's hosted page, or the stand-in's own). */
  createCheckoutSession(params: Record<string, string>, url: (id: string) => string): Json {
    const id = standInId('cs_test');
    const session: Json = {
      id,
      object: 'checkout.session',
      mode: params.mode,
      status: 'open',
      customer: params.customer ?? null,
      client_reference_id: params.client_reference_id ?? null,
      success_url: params.success_url,
      cancel_url: params.cancel_url,
      locale: params.locale ?? null,
      subscription: null,
      url: url(id),
      metadata: {},
      livemode: false,
      // Kept for completeCheckout; Stripe would store the line items on the session.
      _price: params['line_items[0][price]'],
      _metadataUserId: params['subscription_data[metadata][userId]'],
    };
    this.state.sessions[id] = session;
    this.save();
    return StandInStore.visible(session);
  }

  /** Stripe's objects never show the stand-in's own bookkeeping fields (those starting with `_`). */
  static visible(object: Json): Json {
    return Object.fromEntries(Object.entries(object).filter(([key]) => !key.startsWith('_')));
  }

  updateSubscription(id: string, params: Record<string, string>): Json | undefined {
    const sub = this.subscriptions.get(id);
    if (!sub) return undefined;
    if (params.cancel_at_period_end !== undefined) {
      sub.cancel_at_period_end = params.cancel_at_period_end === 'true';
      sub.canceled_at = sub.cancel_at_period_end ? now() : null;
    }
    this.save();
    return sub;
  }

  createPortalSession(params: Record<string, string>, url: (id: string) => string): Json | undefined {
    if (!this.state.customers[params.customer ?? '']) return undefined;
    const id = standInId('bps');
    const portal = {
      id,
      object: 'billing_portal.session',
      customer: params.customer,
      return_url: params.return_url,
      url: url(id),
      livemode: false,
    };
    this.state.portals[id] = portal;
    this.save();
    return portal;
  }

  /** What Stripe does when the customer pays: an active subscription with a default card; returns the completed session. */
  completeCheckout(sessionId: string): Json {
    const session = this.state.sessions[sessionId];
    if (!session) throw new Error(`stripe stand-in: unknown session ${sessionId}`);
    const customerId = String(session.customer);
    const card = {
      id: standInId('pm'),
      object: 'payment_method',
      type: 'card',
      customer: customerId,
      card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: new Date().getFullYear() + 3, funding: 'credit', country: 'US' },
    };
    this.state.paymentMethods[customerId] = [card];
    const customer = this.state.customers[customerId];
    if (customer) customer.invoice_settings = { default_payment_method: card.id };
    const subId = standInId('sub');
    this.subscriptions.set(subId, this.newSubscription(subId, customerId, card.id, session));
    session.status = 'complete';
    session.subscription = subId;
    this.save();
    return StandInStore.visible(session);
  }

  private newSubscription(id: string, customerId: string, cardId: string, session: Json): Json {
    const start = now();
    return {
      id,
      object: 'subscription',
      customer: customerId,
      status: 'active',
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      default_payment_method: cardId,
      metadata: { userId: session._metadataUserId },
      items: {
        object: 'list',
        has_more: false,
        data: [
          {
            id: standInId('si'),
            object: 'subscription_item',
            subscription: id,
            quantity: 1,
            price: this.priceObject(String(session._price)),
            current_period_start: start,
            current_period_end: start + 30 * DAY,
          },
        ],
      },
      livemode: false,
    };
  }

  /** A Stripe event envelope around `object`, as a webhook delivers it. */
  static event(type: string, object: Json): Json {
    return {
      id: standInId('evt'),
      object: 'event',
      api_version: '2026-10-28.endive',
      created: now(),
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
  }
}
