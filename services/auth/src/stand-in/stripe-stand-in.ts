import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { languageFromAcceptLanguage } from '../lib/languages.ts';
import { checkoutPage, donePage, portalPage } from './stripe-stand-in.pages.ts';
import { type Json, type StandInPrice, StandInStore, standInId } from './stripe-stand-in.store.ts';

// A local stand-in for api.stripe.com: the real stripe SDK talks to it over HTTP (its host/port/protocol
// options), so requests are built, encoded and parsed by the SDK exactly as in production. Only the endpoints
// the auth service calls exist. The tests use it as their Stripe; in development (STRIPE_STAND_IN) the auth
// service runs it in-process, and it then also serves the pages Stripe hosts (Checkout, the billing portal),
// marked as test mode, and sends the signed webhooks Stripe would send when they are used.

export type { StandInPrice } from './stripe-stand-in.store.ts';

export interface RecordedRequest {
  method: string;
  path: string;
  /** Form fields as the SDK encoded them (`line_items[0][price]` …). */
  params: Record<string, string>;
  idempotencyKey?: string;
}

export interface StripeStandInOptions {
  prices: Record<string, StandInPrice>;
  /** Keep the state in this JSON file across restarts (development). */
  stateFile?: string;
  /** 0 (default) for any free port. */
  port?: number;
  /**
   * Serve Checkout and the billing portal as pages of the stand-in (session URLs point at them) and send
   * `webhook` the signed events their buttons cause. Without it, session URLs are Stripe-like addresses
   * nothing answers (tests complete a checkout themselves).
   */
  pages?: { webhook: { url: () => string | undefined; secret: string } };
}

export interface StripeStandIn {
  /** The stand-in's origin, e.g. http://127.0.0.1:41234. */
  url: string;
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

type Handler = (match: RegExpExecArray, params: Record<string, string>, query: URLSearchParams) => [number, Json];

const notFound = (what: string): [number, Json] => [
  404,
  { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}` } },
];

function apiRoutes(store: StandInStore, checkoutUrl: (id: string) => string, portalUrl: (id: string) => string) {
  const found = (object: Json | undefined, what: string): [number, Json] => (object ? [200, object] : notFound(what));
  const routes: Array<[string, RegExp, Handler]> = [
    ['POST', /^\/v1\/customers$/, (_m, p) => [200, store.createCustomer(p)]],
    ['GET', /^\/v1\/customers\/([^/]+)$/, (m) => found(store.customer(m[1]!), `customer: '${m[1]}'`)],
    ['POST', /^\/v1\/checkout\/sessions$/, (_m, p) => [200, store.createCheckoutSession(p, checkoutUrl)]],
    ['GET', /^\/v1\/subscriptions\/([^/]+)$/, (m) => found(store.subscriptions.get(m[1]!), `subscription: '${m[1]}'`)],
    ['POST', /^\/v1\/subscriptions\/([^/]+)$/, (m, p) => found(store.updateSubscription(m[1]!, p), `subscription: '${m[1]}'`)],
    ['POST', /^\/v1\/billing_portal\/sessions$/, (_m, p) => found(store.createPortalSession(p, portalUrl), `customer: '${p.customer}'`)],
    [
      'GET',
      /^\/v1\/payment_methods$/,
      (_m, _p, query) => [
        200,
        { object: 'list', url: '/v1/payment_methods', has_more: false, data: store.paymentMethodsOf(query.get('customer') ?? '') },
      ],
    ],
  ];
  return (method: string, path: string, params: Record<string, string>, query: URLSearchParams, authorization: string): [number, Json] => {
    if (!authorization.startsWith('Bearer sk_'))
      return [401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } }];
    for (const [routeMethod, pattern, handler] of routes) {
      const match = routeMethod === method ? pattern.exec(path) : null;
      if (match) return handler(match, params, query);
    }
    return [404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path})` } }];
  };
}

/** Stripe's webhook signature scheme: HMAC-SHA256 over "<timestamp>.<payload>". */
export function signStripePayload(payload: string, secret: string): string {
  const timestamp = Math.floor(Date.now() / 1000);
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex')}`;
}

const readBody = (req: http.IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

export async function startStripeStandIn(options: StripeStandInOptions): Promise<StripeStandIn> {
  const store = new StandInStore(options.prices, options.stateFile);
  const requests: RecordedRequest[] = [];
  let origin = '';
  const pages = options.pages;
  const checkoutUrl = (id: string) => (pages ? `${origin}/c/pay/${id}` : `https://checkout.stripe.test/c/pay/${id}`);
  const portalUrl = (id: string) => (pages ? `${origin}/p/session/${id}` : `https://billing.stripe.test/p/session/${id}`);
  const api = apiRoutes(store, checkoutUrl, portalUrl);

  /** Sends the event Stripe would send and waits for the answer, so the page that caused it returns to an app that knows. */
  const deliver = async (type: string, object: Json) => {
    const target = pages?.webhook.url();
    if (!pages || !target) throw new Error('stripe stand-in: no webhook target');
    const payload = JSON.stringify(StandInStore.event(type, object));
    const answer = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signStripePayload(payload, pages.webhook.secret) },
      body: payload,
    });
    if (!answer.ok) throw new Error(`stripe stand-in: webhook answered ${answer.status}: ${await answer.text()}`);
  };

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const body = await readBody(req);
      const language = languageFromAcceptLanguage(req.headers['accept-language']);
      if (pages && !url.pathname.startsWith('/v1/')) {
        const page = await pageAnswer(store, deliver, req.method ?? 'GET', url.pathname, language);
        res.writeHead(page.status, page.headers).end(page.html);
        return;
      }
      const params = Object.fromEntries(new URLSearchParams(body));
      const key = req.headers['idempotency-key'];
      requests.push({ method: req.method ?? '', path: url.pathname, params, idempotencyKey: typeof key === 'string' ? key : undefined });
      const [status, answer] = api(req.method ?? '', url.pathname, params, url.searchParams, String(req.headers.authorization ?? ''));
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': standInId('req') }).end(JSON.stringify(answer));
    })().catch((error: Error) => {
      res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`stripe stand-in: ${error.message}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;

  return {
    url: origin,
    env: { STRIPE_API_HOST: '127.0.0.1', STRIPE_API_PORT: String(port), STRIPE_API_PROTOCOL: 'http' },
    requests,
    subscriptions: store.subscriptions,
    completeCheckout: (sessionId) => store.completeCheckout(sessionId),
    event: (type, object) => StandInStore.event(type, object),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface PageAnswer {
  status: number;
  headers: Record<string, string>;
  html?: string;
}

const html = (status: number, page: string): PageAnswer => ({
  status,
  // The pages are the stand-in's own: nothing but their inline style runs, and no other site may frame them.
  headers: {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http: https:; frame-ancestors 'none'",
    'cache-control': 'no-store',
  },
  html: page,
});
const redirect = (location: string): PageAnswer => ({ status: 303, headers: { location } });

/** Checkout (`/c/pay/{session}`) and the portal (`/p/session/{portal}`): GET shows the page, POST does what its button says. */
async function pageAnswer(
  store: StandInStore,
  deliver: (type: string, object: Json) => Promise<void>,
  method: string,
  path: string,
  language: 'en' | 'fr',
): Promise<PageAnswer> {
  const checkout = /^\/c\/pay\/([^/]+)$/.exec(path);
  const session = checkout ? store.session(checkout[1]!) : undefined;
  if (session) {
    if (method === 'GET') return html(200, checkoutPage(session, store.priceObject(String(session._price)), language));
    if (session.status !== 'open') return redirect(String(session.cancel_url));
    const completed = store.completeCheckout(String(session.id));
    await deliver('checkout.session.completed', completed);
    return redirect(String(session.success_url).replace('{CHECKOUT_SESSION_ID}', String(session.id)));
  }
  const portalMatch = /^\/p\/session\/([^/]+)(?:\/(cancel|renew))?$/.exec(path);
  const portal = portalMatch ? store.portal(portalMatch[1]!) : undefined;
  if (portal) {
    const subscriptions = store.subscriptionsOf(String(portal.customer)).filter((s) => s.status !== 'canceled');
    if (method === 'GET' && !portalMatch?.[2]) return html(200, portalPage(portal, subscriptions, language));
    if (method === 'POST' && portalMatch?.[2]) {
      for (const sub of subscriptions) {
        const updated = store.updateSubscription(String(sub.id), { cancel_at_period_end: String(portalMatch[2] === 'cancel') });
        if (updated) await deliver('customer.subscription.updated', updated);
      }
      return redirect(`/p/session/${portal.id}`);
    }
  }
  return html(404, donePage(language));
}
