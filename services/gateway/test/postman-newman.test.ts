import { type StripeStandIn, startStripeStandIn } from '@render/auth/stripe-stand-in';
import type { RenderWorkerHandle } from '@render/render-worker';
import { seedStarterTemplates } from '@render/templates/starters/seed';
import { closeInOrder } from '@render/test-stack/teardown';
import newman, { type NewmanRunExecution, type NewmanRunSummary } from 'newman';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_EXAMPLES } from '../src/docs/api-examples.ts';
import { COLLECTIONS, exampleTitle, type OpenApiDoc, postmanCollection } from '../src/docs/postman-collection.ts';
import { INTERNAL_TOKEN, type Stack, startStack, verifiedUser } from './helpers/auth-stack.ts';
import { startGateway, startTemplates, startWorker, type TestGateway, uniquePrefix } from './helpers/stack.ts';

/**
 * The complete Postman collection, exactly as the docs page offers it, run by newman against the real
 * stack (gateway, account and template services with the starter templates seeded, a worker with
 * Chromium) as the docs tell a user to: with only baseUrl and apiKey. Then with e-mail, password and
 * allowChanges = yes, where every call runs, once with billing off and once against a second account
 * service replica with billing on (only Stripe's servers are a local stand-in).
 */
let auth: Stack;
let billingAuth: Stack;
let templates: { url: string; close(): Promise<void> };
let worker: RenderWorkerHandle;
let gateway: TestGateway;
let billingGateway: TestGateway;
let stripe: StripeStandIn;
let collection: object;

/** Calls outside the changes folder that need a session token (or e-mail and password) to run. */
const SESSION_CALLS = [
  'POST /api/auth/login',
  'POST /api/auth/refresh',
  'GET /api/auth/keys',
  'GET /api/auth/payment-info',
  'GET /api/admin/stats',
];
const BILLING_CALLS = API_EXAMPLES.filter((e) => e.billing).map(exampleTitle);

beforeAll(async () => {
  const prefix = uniquePrefix('newman');
  stripe = await startStripeStandIn({
    prices: {
      price_month_usd: { unit_amount: 4900, currency: 'usd', interval: 'month' },
      price_year_usd: { unit_amount: 49000, currency: 'usd', interval: 'year' },
    },
  });
  auth = await startStack();
  billingAuth = await startStack(
    {
      ...stripe.env,
      STRIPE_SECRET_KEY: 'sk_test_fake',
      STRIPE_WEBHOOK_SECRET: 'whsec_fake',
      STRIPE_PRICE_MONTHLY_USD: 'price_month_usd',
      STRIPE_PRICE_YEARLY_USD: 'price_year_usd',
    },
    auth,
  );
  await seedStarterTemplates(auth.db);
  templates = await startTemplates(auth.databaseUrl, INTERNAL_TOKEN);
  const services = { QUEUE_PREFIX: prefix, TEMPLATES_SERVICE_URL: templates.url, INTERNAL_TOKEN };
  gateway = await startGateway({ ...services, AUTH_SERVICE_URL: auth.url });
  billingGateway = await startGateway({ ...services, AUTH_SERVICE_URL: billingAuth.url });
  // The screenshot calls capture the API's own /api/ping (screenshotUrl's default): a local stack allow-lists it.
  const allow = [gateway, billingGateway].map((g) => new URL(g.url).host).join(',');
  worker = await startWorker({ QUEUE_PREFIX: prefix, RENDER_EGRESS_ALLOWLIST: allow });

  const document = (await (await fetch(`${gateway.url}/api/openapi.json`)).json()) as OpenApiDoc;
  collection = postmanCollection(document, API_EXAMPLES, COLLECTIONS.find((c) => c.file === 'render-api.postman_collection.json')!);
});

afterAll(async () => {
  await Promise.all([gateway?.close(), billingGateway?.close()]);
  await closeInOrder(worker, templates, billingAuth, auth, stripe);
});

const run = (env: Record<string, string>) =>
  new Promise<NewmanRunSummary>((resolve, reject) => {
    newman.run(
      { collection, envVar: Object.entries(env).map(([key, value]) => ({ key, value })), reporters: [], timeoutRequest: 30_000 },
      (error, summary) => (error ? reject(error) : resolve(summary)),
    );
  });

/** The collection run against `on` as `user`, with e-mail and password, allowed to change the account. */
const runWithChanges = (on: TestGateway, user: { apiKey: string; email: string; password: string }) =>
  run({ baseUrl: on.url, apiKey: user.apiKey, email: user.email, password: user.password, allowChanges: 'yes' });

const failuresOf = (summary: NewmanRunSummary) => summary.run.failures.map((f) => `${f.source?.name ?? '?'}: ${f.error.message}`);
/** The requests that were sent (a skipped one has no response), sorted: the collection orders them by folder. */
const sent = (summary: NewmanRunSummary) =>
  summary.run.executions
    .filter((e) => e.response)
    .map((e) => e.item.name)
    .sort();
const byName = (summary: NewmanRunSummary, name: string): NewmanRunExecution | undefined =>
  summary.run.executions.find((e) => e.item.name === name && e.response);

async function account(apiKey: string) {
  const get = async (path: string) => {
    const res = await fetch(`${gateway.url}${path}`, { headers: { 'x-api-key': apiKey } });
    expect(res.status, path).toBe(200);
    return (await res.json()) as Record<string, unknown>;
  };
  const me = (await get('/api/auth/me')) as { user: { id: string; apiKey: string } };
  const { secret } = (await get('/api/auth/webhook-secret')) as { secret: string };
  const count = async (table: 'users' | 'templates' | 'template_stars') =>
    Number(
      (
        await auth.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    apiKey: me.user.apiKey,
    secret,
    users: await count('users'),
    templates: await count('templates'),
    stars: await count('template_stars'),
  };
}

function expectImages(summary: NewmanRunSummary) {
  expect(byName(summary, 'POST /api/html-to-img/convert')?.response?.headers.get('content-type')).toBe('image/png');
  expect(byName(summary, 'POST /api/screenshot/convert')?.response?.headers.get('content-type')).toBe('image/png');
  expect(byName(summary, 'POST /api/template/generate')?.response?.headers.get('content-type')).toBe('image/png');
  for (const name of ['POST /api/html-to-img/convert (PDF)', 'POST /api/screenshot/convert (PDF)']) {
    const pdf = byName(summary, name)?.response;
    expect(pdf?.headers.get('content-type'), name).toBe('application/pdf');
    expect(
      Buffer.from(pdf?.stream ?? [])
        .subarray(0, 5)
        .toString(),
      name,
    ).toBe('%PDF-');
  }
}

describe('the complete Postman collection', () => {
  it('with only baseUrl and apiKey, twice: every assertion passes and the account is untouched', async () => {
    const user = await verifiedUser(auth);
    const before = await account(user.apiKey);
    const expected = API_EXAMPLES.map(exampleTitle).filter((name) => !SESSION_CALLS.includes(name));
    const changing = API_EXAMPLES.filter((e) => e.changes).map(exampleTitle);

    for (const pass of [1, 2]) {
      const summary = await run({ baseUrl: gateway.url, apiKey: user.apiKey });
      expect(failuresOf(summary), `run ${pass}`).toEqual([]);
      const names = sent(summary);
      expect(names, `run ${pass}`).toEqual(expected.filter((name) => !changing.includes(name)).sort());
      expect(summary.run.stats.assertions.total, `run ${pass}`).toBe(names.length);
      expectImages(summary);
    }

    // Same key (the CLI config and signed URLs still work), same webhook secret, no account or template made.
    expect(await account(user.apiKey)).toEqual(before);
  });

  it('with e-mail, password and allowChanges = yes: every call runs and passes; billing off answers 503', async () => {
    const user = await verifiedUser(auth);
    const summary = await runWithChanges(gateway, user);
    expect(failuresOf(summary)).toEqual([]);
    expect(sent(summary)).toEqual(API_EXAMPLES.map(exampleTitle).sort());
    expect(summary.run.stats.assertions.total).toBe(API_EXAMPLES.length);
    for (const name of BILLING_CALLS) expect(byName(summary, name)?.response?.code, name).toBe(503);
    expectImages(summary);
    // The run deleted what it made, and handed the regenerated key on to the calls after it.
    const owned = await auth.db.selectFrom('templates').select('id').where('user_id', '=', user.userId).execute();
    expect(owned).toEqual([]);
    const regenerated = byName(summary, 'POST /api/auth/api-key/regenerate')?.response?.json() as { apiKey: string };
    expect(regenerated.apiKey).not.toBe(user.apiKey);
    expect((await account(regenerated.apiKey)).apiKey).toBe(regenerated.apiKey);
  });

  it('with billing on, the billing calls pass with what a Free account without a subscription gets', async () => {
    const user = await verifiedUser(billingAuth);
    const summary = await runWithChanges(billingGateway, user);
    expect(failuresOf(summary)).toEqual([]);
    expect(summary.run.stats.assertions.total).toBe(API_EXAMPLES.length);
    const statuses = Object.fromEntries(BILLING_CALLS.map((name) => [name, byName(summary, name)?.response?.code]));
    expect(statuses).toEqual({
      'GET /api/auth/payment-info': 200,
      'POST /api/auth/upgrade': 200,
      'POST /api/auth/manage-billing': 200,
      'POST /api/auth/cancel-subscription': 404,
      'POST /api/auth/reactivate-subscription': 404,
    });
  });
});
