import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import newman, { type NewmanRunSummary } from 'newman';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeStripe, startFakeStripe } from '../../auth/test/helpers/fake-stripe.ts';
import { verifiedUser } from '../../auth/test/helpers/stack.ts';
import { API_EXAMPLES } from '../src/lib/api-examples.ts';
import { COLLECTIONS, type OpenApiDoc, postmanCollection } from '../src/lib/postman-collection.ts';
import { type FullStack, startFullStack } from './helpers/stack.ts';

/**
 * The complete Postman collection, exactly as the docs page offers it, run by newman against the real
 * stack (gateway, account and template services, a worker with Chromium), signed in as a real verified
 * Free account; only Stripe's servers are a local stand-in.
 */
let stack: FullStack;
let stripe: FakeStripe;
let site: Server;
let siteUrl = '';

beforeAll(async () => {
  site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Hello from a Postman run</h1>'));
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const port = (site.address() as AddressInfo).port;
  siteUrl = `http://127.0.0.1:${port}/`;
  stripe = await startFakeStripe({
    price_month_usd: { unit_amount: 4900, currency: 'usd', interval: 'month' },
    price_year_usd: { unit_amount: 49000, currency: 'usd', interval: 'year' },
    price_month_eur: { unit_amount: 4900, currency: 'eur', interval: 'month' },
    price_year_eur: { unit_amount: 49000, currency: 'eur', interval: 'year' },
  });
  stack = await startFullStack('newman', {
    auth: {
      ...stripe.env,
      STRIPE_SECRET_KEY: 'sk_test_fake',
      STRIPE_WEBHOOK_SECRET: 'whsec_fake',
      STRIPE_PRICE_MONTHLY_USD: 'price_month_usd',
      STRIPE_PRICE_YEARLY_USD: 'price_year_usd',
      STRIPE_PRICE_MONTHLY_EUR: 'price_month_eur',
      STRIPE_PRICE_YEARLY_EUR: 'price_year_eur',
    },
    worker: { RENDER_EGRESS_ALLOWLIST: `127.0.0.1:${port}` },
  });
});

afterAll(async () => {
  await stack?.close();
  await stripe?.close();
  await new Promise<void>((resolve) => site.close(() => resolve()));
});

const run = (collection: object, env: Record<string, string>) =>
  new Promise<NewmanRunSummary>((resolve, reject) => {
    newman.run(
      { collection, envVar: Object.entries(env).map(([key, value]) => ({ key, value })), reporters: [], timeoutRequest: 30_000 },
      (error, summary) => (error ? reject(error) : resolve(summary)),
    );
  });

describe('the complete Postman collection', () => {
  it('runs with newman against the real stack, every assertion passing', async () => {
    const document = (await (await fetch(`${stack.gateway.url}/api/openapi.json`)).json()) as OpenApiDoc;
    const complete = COLLECTIONS.find((c) => c.file === 'render-api.postman_collection.json')!;
    const collection = postmanCollection(document, API_EXAMPLES, complete);
    const user = await verifiedUser(stack.auth);

    const summary = await run(collection, {
      baseUrl: stack.gateway.url,
      apiKey: user.apiKey,
      email: user.email,
      password: user.password,
      screenshotUrl: siteUrl,
    });

    const failures = summary.run.failures.map((f) => `${f.source?.name ?? '?'}: ${f.error.message}`);
    expect(failures).toEqual([]);
    const executed = summary.run.executions.length;
    expect(executed).toBe(API_EXAMPLES.length);
    expect(summary.run.stats.assertions.total).toBe(API_EXAMPLES.length);
    // The renders really happened: the convert calls answered images.
    const html = summary.run.executions.find((e) => e.item.name === 'POST /api/html-to-img/convert');
    expect(html?.response?.headers.get('content-type')).toBe('image/png');
    for (const name of ['POST /api/html-to-img/convert (PDF)', 'POST /api/screenshot/convert (PDF)']) {
      const pdf = summary.run.executions.find((e) => e.item.name === name);
      expect(pdf?.response?.headers.get('content-type'), name).toBe('application/pdf');
      expect(
        Buffer.from(pdf?.response?.stream ?? [])
          .subarray(0, 5)
          .toString(),
        name,
      ).toBe('%PDF-');
    }
  });
});
