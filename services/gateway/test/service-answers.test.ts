import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway, uniquePrefix } from './helpers/stack.ts';

// The gateway reads the account and template services' answers against their contracts
// (@render/contracts internal.ts): an answer of the wrong shape is that service misbehaving, a 503 for the
// caller, never a 500 or a render made for a half-read owner.

const INTERNAL_TOKEN = 'internal-token-for-answers-test';
const USER_ID = '11111111-1111-4111-8111-111111111111';
const TEMPLATE_ID = '22222222-2222-4222-8222-222222222222';
const SIGNED_TEMPLATE_ID = '33333333-3333-4333-8333-333333333333';
const GOOD_KEY = 'rk_good';
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(typeof body === 'string' ? body : JSON.stringify(body));

/** A stand-in service: answers by "METHOD path", 404 otherwise; `calls` keeps what it was sent. */
async function fakeService(routes: Record<string, (body: Record<string, unknown>) => [number, unknown]>) {
  const calls: Array<{ route: string; body: Record<string, unknown> }> = [];
  const handler: Handler = (req, res) => {
    let raw = '';
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', () => {
      const route = routes[`${req.method} ${req.url}`];
      if (!route) return json(res, 404, { success: false, code: 'NOT_FOUND', message: 'no such route' });
      const sent = raw ? JSON.parse(raw) : {};
      calls.push({ route: `${req.method} ${req.url}`, body: sent });
      const [status, body] = route(sent);
      json(res, status, body);
    });
  };
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, calls, close: () => new Promise((resolve) => server.close(resolve)) };
}

let auth: Awaited<ReturnType<typeof fakeService>>;
let templates: Awaited<ReturnType<typeof fakeService>>;
let gateway: TestGateway;

beforeAll(async () => {
  const owner = { userId: USER_ID, role: 'user', plan: 'free' };
  auth = await fakeService({
    // A known key answers its owner; any other gets an owner without a plan (a service that drifted).
    'POST /internal/api-keys/verify': (body) => (body.apiKey === GOOD_KEY ? [200, owner] : [200, { userId: USER_ID, role: 'user' }]),
    'GET /api/auth/me': () => [200, { success: true, user: { id: USER_ID, accountType: 'superuser', plan: 'free' } }],
    'POST /internal/api-keys/verify-signature': () => [200, 'not json at all'],
    // Asked by API key (its SHA-256), the reservation also names the owner: the same drift for other keys.
    'POST /internal/credits/reserve': (body) =>
      body.apiKeyHash === undefined || body.apiKeyHash === sha256(GOOD_KEY)
        ? [200, { reservationId: 'r1', ...owner, remaining: 49 }]
        : [200, { reservationId: 'r1', userId: USER_ID, role: 'user' }],
    'POST /internal/credits/settle': () => [200, { status: 'released' }],
  });
  templates = await fakeService({
    [`POST /internal/templates/${TEMPLATE_ID}/render-input`]: () => [200, { svg: '<svg/>', width: '100', height: 50, images: [] }],
    [`GET /internal/templates/${TEMPLATE_ID}/owner`]: () => [200, { ownerId: USER_ID }],
    [`GET /internal/templates/${SIGNED_TEMPLATE_ID}/owner`]: () => [200, { ownerId: USER_ID, updatedAt: new Date(0).toISOString() }],
  });
  gateway = await startGateway({
    QUEUE_PREFIX: uniquePrefix('answers'),
    AUTH_SERVICE_URL: auth.url,
    TEMPLATES_SERVICE_URL: templates.url,
    INTERNAL_TOKEN,
  });
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all([auth?.close(), templates?.close()]);
});

async function expectUnavailable(res: Response, service: string) {
  expect(res.status).toBe(503);
  const body = await res.json();
  expect(body).toMatchObject({ success: false, code: 'SERVICE_UNAVAILABLE' });
  expect(body.message).toContain(service);
}

describe('answers that break their contract', () => {
  const html = { html: '<p>x</p>', width: 50, height: 50 };

  it('an API key owner without a plan is a 503', async () => {
    await expectUnavailable(await gateway.post('/api/html-to-img/convert', html, { 'x-api-key': 'rk_other' }), 'account service');
  });

  it('a session user with an unknown account type is a 503', async () => {
    await expectUnavailable(await gateway.post('/api/html-to-img/convert', html, { authorization: 'Bearer a.b.c' }), 'account service');
  });

  it('a filled template with a mistyped size is a 503, and its credit is released', async () => {
    const res = await gateway.post('/api/template/generate', { templateId: TEMPLATE_ID }, { 'x-api-key': GOOD_KEY });
    await expectUnavailable(res, 'template service');
    const reserved = auth.calls.find((call) => call.route === 'POST /internal/credits/reserve' && call.body.apiKeyHash === sha256(GOOD_KEY))
      ?.body.requestId;
    expect(reserved).toBeTypeOf('string');
    expect(auth.calls).toContainEqual({
      route: 'POST /internal/credits/settle',
      body: { requestId: reserved, outcome: 'released', kind: 'template' },
    });
  });

  it('a template owner without a version, or a signature check that is not JSON, is a 503', async () => {
    const image = (id: string) => fetch(`${gateway.url}/api/template/${id}/image?title=x&sig=${'a'.repeat(64)}`);
    await expectUnavailable(await image(TEMPLATE_ID), 'template service');
    await expectUnavailable(await image(SIGNED_TEMPLATE_ID), 'account service');
  });
});
