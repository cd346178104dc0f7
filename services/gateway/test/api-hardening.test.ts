import { request as httpRequest } from 'node:http';
import { createRedis, renderJobs } from '@render/queue';
import { testRedisUrl } from '@render/test-stack/redis';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The real account service, in-process on a throwaway database, as its own tests start it.
import { INTERNAL_TOKEN, json, type Stack, verifiedUser } from './helpers/auth-stack.ts';
import { type FullStack, startFullStack, type TestGateway } from './helpers/stack.ts';

// Protocol-level honesty and hardening of the gateway, over real sockets: 405 with Allow, the API's own 400
// for URLs Fastify refuses before routing, NUL characters, security headers, the OpenAPI document, and
// callers that hang up before their render is answered.

let stack: FullStack;
let auth: Stack;
let templatesService: { url: string; close(): Promise<void> };
let gateway: TestGateway;
let prefix: string;
let user: Awaited<ReturnType<typeof verifiedUser>>;

beforeAll(async () => {
  // One page, so that a burst of calls waits in the queue.
  stack = await startFullStack('hardening', { worker: { RENDER_QUEUES: 'html', RENDER_PAGES: '1', RENDER_PREFETCH: '0' } });
  ({ auth, templates: templatesService, gateway, prefix } = stack);
  user = await verifiedUser(auth);
});

afterAll(async () => {
  await stack?.close();
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${gateway.url}${path}`, { headers });

async function expectApiError(res: Response, status: number, code: string, message?: RegExp) {
  const body = await json(res);
  expect({ status: res.status, success: body.success, code: body.code }).toEqual({ status, success: false, code });
  if (message) expect(body.message).toMatch(message);
}

describe('methods', () => {
  it('answers a wrong method on a known path with 405 and Allow', async () => {
    const res = await get('/api/html-to-img/convert');
    expect(res.headers.get('allow')).toBe('POST');
    await expectApiError(res, 405, 'METHOD_NOT_ALLOWED', /GET is not allowed on \/api\/html-to-img\/convert; use POST/);

    const patch = await fetch(`${gateway.url}/api/template/some-id`, { method: 'PATCH' });
    expect(patch.headers.get('allow')?.split(', ').sort()).toEqual(['DELETE', 'GET', 'HEAD', 'PUT']);
    await expectApiError(patch, 405, 'METHOD_NOT_ALLOWED');
  });

  it('keeps 404 for paths that exist under no method', async () => {
    await expectApiError(await get('/api/nothing-here'), 404, 'NOT_FOUND');
  });
});

describe('URLs Fastify refuses before routing', () => {
  it('answers an id longer than the router accepts with the API 400, not 414', async () => {
    const res = await get(`/api/template/${'a'.repeat(500)}/image?sig=${'0'.repeat(64)}`);
    await expectApiError(res, 400, 'VALIDATION_ERROR', /too long/);
    const signedIn = await get(`/api/template/${'b'.repeat(101)}`, { authorization: `Bearer ${user.token}` });
    await expectApiError(signedIn, 400, 'VALIDATION_ERROR');
  });

  it('answers a request head over the HTTP limit with the API error shape', async () => {
    const res = await get(`/api/template/public?q=${'x'.repeat(20_000)}`);
    await expectApiError(res, 431, 'PAYLOAD_TOO_LARGE', /too large/);
  });

  it('answers a malformed percent-encoding in a path parameter with the API 400', async () => {
    await expectApiError(await get('/api/template/%E0%A4%A/image'), 400, 'VALIDATION_ERROR', /percent-encoding/);
  });
});

describe('NUL characters', () => {
  const token = () => ({ authorization: `Bearer ${user.token}`, 'content-type': 'application/json' });

  it('refuses NUL in a template search with a 400, not a 5xx', async () => {
    await expectApiError(await get('/api/template/public?q=%00'), 400, 'VALIDATION_ERROR', /NUL/);
    await expectApiError(await get('/api/template?q=a%00b', { authorization: `Bearer ${user.token}` }), 400, 'VALIDATION_ERROR', /NUL/);
  });

  it('refuses NUL in a template name and in a default value', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text data-variable="t">x</text></svg>';
    const base = { name: 'Nul test', width: 100, height: 100, svg, variables: [{ name: 't', type: 'text', defaultValue: 'ok' }] };
    const withName = await fetch(`${gateway.url}/api/template`, {
      method: 'POST',
      headers: token(),
      body: JSON.stringify({ ...base, name: 'Bad\u0000name' }),
    });
    await expectApiError(withName, 400, 'VALIDATION_ERROR', /Name must not contain NUL/);
    const withDefault = await fetch(`${gateway.url}/api/template`, {
      method: 'POST',
      headers: token(),
      body: JSON.stringify({ ...base, variables: [{ name: 't', type: 'text', defaultValue: 'a\u0000' }] }),
    });
    await expectApiError(withDefault, 400, 'VALIDATION_ERROR', /NUL/);
    // And the templates service answers the same on its own, should a call reach it without the gateway's check.
    const direct = await fetch(`${templatesService.url}/api/template/public?q=%00`, { headers: { 'x-internal-token': INTERNAL_TOKEN } });
    await expectApiError(direct, 400, 'VALIDATION_ERROR', /NUL/);
  });
});

describe('security headers', () => {
  it('sends nosniff, a CSP that forbids framing, X-Frame-Options and CORP on every answer', async () => {
    for (const res of [await get('/api/ping'), await get('/api/nothing-here'), await gateway.post('/api/html-to-img/convert', {})]) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toMatch(/default-src 'self'.*frame-ancestors 'none'/);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    }
  });

  it('sends HSTS only when the request came over TLS (through a trusted proxy)', async () => {
    expect((await get('/api/ping')).headers.get('strict-transport-security')).toBeNull();
    const tls = await get('/api/ping', { 'x-forwarded-proto': 'https' });
    expect(tls.headers.get('strict-transport-security')).toMatch(/^max-age=\d+/);
  });
});

describe('the OpenAPI document', () => {
  type Operation = { requestBody?: { content: Record<string, { schema: Record<string, unknown> }> }; security?: unknown[] };
  let document: { paths: Record<string, Record<string, Operation>>; components: Record<string, Record<string, unknown>> };
  const bodyOf = (path: string) => document.paths[path]?.post?.requestBody?.content['application/json']?.schema as Record<string, unknown>;

  beforeAll(async () => {
    document = (await (await get('/api/openapi.json')).json()) as typeof document;
  });

  it('requires only what the server requires: defaulted fields are optional and keep their default', () => {
    expect(bodyOf('/api/screenshot/convert').required).toEqual(['url']);
    expect(bodyOf('/api/html-to-img/convert').required).toEqual(['html']);
    expect(bodyOf('/api/code-to-img/convert').required).toEqual(['code']);
    expect(bodyOf('/api/chart-to-img/convert').required).toEqual(['library']);
    expect(bodyOf('/api/template/generate').required).toEqual(['templateId']);
    const width = (bodyOf('/api/html-to-img/convert').properties as Record<string, Record<string, unknown>>).width;
    expect(width).toMatchObject({ default: 800, minimum: 50, maximum: 4000 });
  });

  it('declares the credentials: an API key header and a bearer token, per operation', () => {
    expect(document.components.securitySchemes).toMatchObject({
      apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      bearerAuth: { type: 'http', scheme: 'bearer' },
    });
    expect(document.paths['/api/html-to-img/convert']?.post?.security).toEqual([{}, { apiKey: [] }, { bearerAuth: [] }]);
    expect(document.paths['/api/template']?.post?.security).toEqual([{ apiKey: [] }, { bearerAuth: [] }]);
    expect(document.paths['/api/ping']?.get?.security).toEqual([]);
    expect(document.paths['/api/openapi.json']?.get).toBeDefined();
  });

  it('says which formats each chart library draws, as the gateway enforces', async () => {
    expect(JSON.stringify(bodyOf('/api/chart-to-img/convert').allOf)).toContain('PDF output is only available for Highcharts');
    const d3Pdf = await gateway.post('/api/chart-to-img/convert', {
      library: 'd3',
      format: 'pdf',
      chartData: { labels: ['a'], datasets: [] },
    });
    await expectApiError(d3Pdf, 400, 'VALIDATION_ERROR', /^PDF output is only available for Highcharts charts/);
    const chartjsSvg = await gateway.post('/api/chart-to-img/convert', { library: 'chartjs', format: 'svg' });
    await expectApiError(chartjsSvg, 400, 'VALIDATION_ERROR', /^SVG output is only available for D3 and Highcharts/);
  });
});

describe('callers that hang up', () => {
  // Busy for a while in the page, so that a burst of these queues up behind the worker's single page.
  const SLOW = '<html><body><script>const t = Date.now(); while (Date.now() - t < 400) {}</script>slow</body></html>';
  let queue: Queue;

  beforeAll(async () => {
    queue = new Queue(renderJobs.html.queueName, { connection: createRedis(await testRedisUrl(), 'command'), prefix });
  });
  afterAll(async () => {
    await queue?.close();
  });

  /** Sends a convert call and hangs up after `ms`, as a client with a short timeout does. */
  const abandon = (apiKey: string, ms: number) =>
    new Promise<void>((resolve) => {
      const body = JSON.stringify({ html: SLOW, width: 100, height: 100 });
      const req = httpRequest(`${gateway.url}/api/html-to-img/convert`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-api-key': apiKey },
      });
      req.on('error', () => resolve());
      req.on('close', () => resolve());
      req.end(body);
      setTimeout(() => req.destroy(), ms);
    });

  it('takes jobs not yet started off the queue and charges nothing', async () => {
    const caller = await verifiedUser(auth);
    await Promise.all(Array.from({ length: 12 }, () => abandon(caller.apiKey, 150)));
    // The gateway notices each hang-up at once; give the removals a moment.
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Twelve 400 ms renders on one page would keep the queue busy for ~5 s had they stayed.
    expect(await queue.getWaitingCount()).toBe(0);

    // Wait for the one job that had already started to finish, then read the ledger.
    await expect.poll(() => queue.getActiveCount(), { timeout: 5_000, interval: 100 }).toBe(0);
    await expect
      .poll(
        async () =>
          (await auth.db.selectFrom('credit_ledger').select('status').where('user_id', '=', caller.userId).execute()).map((r) => r.status),
        { timeout: 5_000, interval: 100 },
      )
      .not.toContain('reserved');
    const rows = await auth.db.selectFrom('credit_ledger').select('status').where('user_id', '=', caller.userId).execute();
    expect(rows.filter((r) => r.status === 'charged')).toEqual([]);
    const usage = await json(await auth.call('GET', '/api/auth/usage', { token: caller.token }));
    expect(usage.data.used).toBe(0);
  });

  it('still renders and charges a caller who waits', async () => {
    const res = await gateway.post('/api/html-to-img/convert', { html: SLOW, width: 100, height: 100 }, { 'x-api-key': user.apiKey });
    expect(res.status).toBe(200);
    await expect
      .poll(async () => (await json(await auth.call('GET', '/api/auth/usage', { token: user.token }))).data.used, { timeout: 5_000 })
      .toBe(1);
  });
});
