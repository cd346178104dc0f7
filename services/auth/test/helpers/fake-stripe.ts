import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A local stand-in for api.stripe.com: the real stripe SDK talks to it over HTTP (its host/port/protocol
// options), so requests are built, encoded and parsed by the SDK exactly as in production. Only the endpoints
// the auth service calls exist, with the fields it reads shaped as Stripe's API returns them.

type Json = Record<string, unknown>;

export interface FakePrice {
  unit_amount: number;
  currency: 'usd' | 'eur';
  interval: 'month' | 'year';
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** Form fields as the SDK encoded them (`line_items[0][price]` …). */
  params: Record<string, string>;
  idempotencyKey?: string;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);
const DAY = 24 * 60 * 60;

export interface FakeStripe {
  /** STRIPE_API_* settings pointing the SDK here. */
  env: Record<string, string>;
  requests: RecordedRequest[];
  subscriptions: Map<string, Json>;
  /** What Stripe does when the customer pays: an active subscription with a default card; returns the completed session. */
  completeCheckout(sessionId: string): Json;
  /** A Stripe event envelope around `object`, as a webhook delivers it. */
  event(type: string, object: Json): Json;
  close(): Promise<void>;
}

export async function startFakeStripe(prices: Record<string, FakePrice>): Promise<FakeStripe> {
  const requests: RecordedRequest[] = [];
  const customers = new Map<string, Json>();
  const sessions = new Map<string, Json>();
  const subscriptions = new Map<string, Json>();
  const paymentMethods = new Map<string, Json[]>();

  const priceObject = (priceId: string): Json => {
    const price = prices[priceId];
    if (!price) throw new Error(`fake stripe: unknown price ${priceId}`);
    return {
      id: priceId,
      object: 'price',
      active: true,
      currency: price.currency,
      unit_amount: price.unit_amount,
      recurring: { interval: price.interval, interval_count: 1, usage_type: 'licensed' },
      type: 'recurring',
    };
  };

  const notFound = (what: string): [number, Json] => [
    404,
    { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}` } },
  ];

  const routes: Array<
    [string, RegExp, (match: RegExpExecArray, params: Record<string, string>, query: URLSearchParams) => [number, Json]]
  > = [
    [
      'POST',
      /^\/v1\/customers$/,
      (_m, p) => {
        const customer = {
          id: id('cus'),
          object: 'customer',
          email: p.email ?? null,
          name: p.name ?? null,
          metadata: { userId: p['metadata[userId]'] },
          invoice_settings: { default_payment_method: null },
          livemode: false,
        };
        customers.set(customer.id, customer);
        return [200, customer];
      },
    ],
    [
      'GET',
      /^\/v1\/customers\/([^/]+)$/,
      (m) => {
        const customer = customers.get(m[1]!);
        return customer ? [200, customer] : notFound(`customer: '${m[1]}'`);
      },
    ],
    [
      'POST',
      /^\/v1\/checkout\/sessions$/,
      (_m, p) => {
        const sessionId = id('cs_test');
        const session = {
          id: sessionId,
          object: 'checkout.session',
          mode: p.mode,
          status: 'open',
          customer: p.customer ?? null,
          client_reference_id: p.client_reference_id ?? null,
          success_url: p.success_url,
          cancel_url: p.cancel_url,
          subscription: null,
          url: `https://checkout.stripe.test/c/pay/${sessionId}`,
          metadata: {},
          livemode: false,
          // Kept for completeCheckout; Stripe would store the line items on the session.
          _price: p['line_items[0][price]'],
          _metadataUserId: p['subscription_data[metadata][userId]'],
        };
        sessions.set(sessionId, session);
        const { _price, _metadataUserId, ...visible } = session;
        return [200, visible];
      },
    ],
    [
      'GET',
      /^\/v1\/subscriptions\/([^/]+)$/,
      (m) => {
        const sub = subscriptions.get(m[1]!);
        return sub ? [200, sub] : notFound(`subscription: '${m[1]}'`);
      },
    ],
    [
      'POST',
      /^\/v1\/subscriptions\/([^/]+)$/,
      (m, p) => {
        const sub = subscriptions.get(m[1]!);
        if (!sub) return notFound(`subscription: '${m[1]}'`);
        if (p.cancel_at_period_end !== undefined) {
          sub.cancel_at_period_end = p.cancel_at_period_end === 'true';
          sub.canceled_at = sub.cancel_at_period_end ? now() : null;
        }
        return [200, sub];
      },
    ],
    [
      'POST',
      /^\/v1\/billing_portal\/sessions$/,
      (_m, p) => {
        if (!customers.has(p.customer ?? '')) return notFound(`customer: '${p.customer}'`);
        const portalId = id('bps');
        return [
          200,
          {
            id: portalId,
            object: 'billing_portal.session',
            customer: p.customer,
            return_url: p.return_url,
            url: `https://billing.stripe.test/p/session/${portalId}`,
            livemode: false,
          },
        ];
      },
    ],
    [
      'GET',
      /^\/v1\/payment_methods$/,
      (_m, _p, query) => [
        200,
        { object: 'list', url: '/v1/payment_methods', has_more: false, data: paymentMethods.get(query.get('customer') ?? '') ?? [] },
      ],
    ],
  ];

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const params = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      const key = req.headers['idempotency-key'];
      requests.push({ method: req.method ?? '', path: url.pathname, params, idempotencyKey: typeof key === 'string' ? key : undefined });
      let status = 404;
      let body: Json = { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${url.pathname})` } };
      if (!String(req.headers.authorization ?? '').startsWith('Bearer sk_')) {
        status = 401;
        body = { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } };
      } else {
        for (const [method, pattern, handler] of routes) {
          const match = method === req.method ? pattern.exec(url.pathname) : null;
          if (match) {
            [status, body] = handler(match, params, url.searchParams);
            break;
          }
        }
      }
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    env: { STRIPE_API_HOST: '127.0.0.1', STRIPE_API_PORT: String(port), STRIPE_API_PROTOCOL: 'http' },
    requests,
    subscriptions,
    completeCheckout(sessionId) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`fake stripe: unknown session ${sessionId}`);
      const customerId = String(session.customer);
      const card = {
        id: id('pm'),
        object: 'payment_method',
        type: 'card',
        customer: customerId,
        card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: new Date().getFullYear() + 3, funding: 'credit', country: 'US' },
      };
      paymentMethods.set(customerId, [card]);
      const customer = customers.get(customerId);
      if (customer) customer.invoice_settings = { default_payment_method: card.id };
      const start = now();
      const subId = id('sub');
      const sub: Json = {
        id: subId,
        object: 'subscription',
        customer: customerId,
        status: 'active',
        cancel_at_period_end: false,
        cancel_at: null,
        canceled_at: null,
        default_payment_method: card.id,
        metadata: { userId: session._metadataUserId },
        items: {
          object: 'list',
          has_more: false,
          data: [
            {
              id: id('si'),
              object: 'subscription_item',
              subscription: subId,
              quantity: 1,
              price: priceObject(String(session._price)),
              current_period_start: start,
              current_period_end: start + 30 * DAY,
            },
          ],
        },
        livemode: false,
      };
      subscriptions.set(subId, sub);
      session.status = 'complete';
      session.subscription = subId;
      const { _price, _metadataUserId, ...visible } = session;
      return visible;
    },
    event(type, object) {
      return {
        id: id('evt'),
        object: 'event',
        api_version: '2026-10-28.endive',
        created: now(),
        data: { object },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
