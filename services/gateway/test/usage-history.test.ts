import { createHmac } from 'node:crypto';
import { templateImageSigningString } from '@render/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_TOKEN, verifiedUser } from './helpers/auth-stack.ts';
import { type FullStack, startFullStack, startGateway, type TestGateway } from './helpers/stack.ts';

const HTML = '<html><body style="margin:0;background:#0a0"><h1>usage</h1></body></html>';
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="teal"/></svg>';
const TEMPLATE_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100">' +
  '<rect width="200" height="100" fill="#4f46e5"/><text x="10" y="60" font-size="30" fill="#fff" data-variable="title">Hi</text></svg>';

type Recent = {
  id: string;
  createdAt: string;
  kind: string;
  format: string;
  sizeBytes: number | null;
  renderMs: number | null;
  status: string;
};

let stack: FullStack;
/** A second gateway replica on the same services, queue and worker. */
let replica: TestGateway;

beforeAll(async () => {
  stack = await startFullStack('usage');
  replica = await startGateway({
    QUEUE_PREFIX: stack.prefix,
    AUTH_SERVICE_URL: stack.auth.url,
    TEMPLATES_SERVICE_URL: stack.templates.url,
    INTERNAL_TOKEN,
  });
}, 60_000);

afterAll(async () => {
  await replica?.close();
  await stack?.close();
});

const keyHeaders = (apiKey: string) => ({ 'x-api-key': apiKey });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const get = (on: TestGateway, path: string, headers: Record<string, string>) => fetch(`${on.url}${path}`, { headers });
const recent = async (headers: Record<string, string>, query = ''): Promise<Recent[]> => {
  const res = await get(stack.gateway, `/api/auth/usage/recent${query}`, headers);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Recent[] }).data;
};

/** The charges are settled in batches after the answers: waits until none of the account's renders is in flight. */
async function settledRenders(headers: Record<string, string>, count: number): Promise<Recent[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const rows = await recent(headers);
    if ((rows.length >= count && rows.every((row) => row.status !== 'reserved')) || Date.now() > deadline) return rows;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function createTemplate(token: string): Promise<string> {
  const res = await stack.gateway.post(
    '/api/template',
    { name: 'Usage card', width: 200, height: 100, svg: TEMPLATE_SVG, variables: [{ name: 'title', type: 'text', defaultValue: 'Hi' }] },
    bearer(token),
  );
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { id: string } }).data.id;
}

/** An image made through the gateway (answered 200): its bytes and its X-Render-Time. */
async function rendered(path: string, body: Record<string, unknown>, headers: Record<string, string>) {
  const res = await stack.gateway.post(path, body, headers);
  expect(res.status).toBe(200);
  return { bytes: Buffer.from(await res.arrayBuffer()), renderMs: Number(res.headers.get('x-render-time')) };
}

describe('the usage section: renders per day and the latest renders', () => {
  it('lists a render made with an API key with its kind, format, size and render time, charged, and counts it today', async () => {
    const user = await verifiedUser(stack.auth);
    const { bytes, renderMs } = await rendered(
      '/api/html-to-img/convert',
      { html: HTML, width: 120, height: 80, format: 'png' },
      keyHeaders(user.apiKey),
    );

    const rows = await settledRenders(keyHeaders(user.apiKey), 1);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'html', format: 'png', sizeBytes: bytes.length, renderMs, status: 'charged' });
    expect(Number.isInteger(rows[0]!.renderMs)).toBe(true);
    expect(Date.now() - Date.parse(rows[0]!.createdAt)).toBeLessThan(60_000);

    const daily = await get(stack.gateway, '/api/auth/usage/daily', bearer(user.token));
    expect(daily.status).toBe(200);
    const { data } = (await daily.json()) as { data: { since: string; days: Array<{ date: string; renders: number }> } };
    expect(data.days).toHaveLength(31);
    expect(data.days.at(-1)).toEqual({ date: new Date().toISOString().slice(0, 10), renders: 1 });
    expect(data.days.reduce((sum, day) => sum + day.renders, 0)).toBe(1);
  });

  it('records session renders and template generations too, newest first, and refuses a bad limit at the gateway', async () => {
    const user = await verifiedUser(stack.auth);
    const svgBytes = (await rendered('/api/svg-to-img/convert', { svg: SVG, width: 60, height: 60, format: 'jpeg' }, bearer(user.token)))
      .bytes.length;
    const templateId = await createTemplate(user.token);
    const generated = await rendered(
      '/api/template/generate',
      { templateId, variables: { title: 'Hello' }, format: 'webp', quality: 80 },
      keyHeaders(user.apiKey),
    );
    const templateBytes = generated.bytes.length;

    const rows = await settledRenders(bearer(user.token), 2);
    expect(rows.map((row) => [row.kind, row.format, row.sizeBytes, row.status])).toEqual([
      ['template', 'webp', templateBytes, 'charged'],
      ['svg', 'jpeg', svgBytes, 'charged'],
    ]);
    expect((await recent(keyHeaders(user.apiKey), '?limit=1')).map((row) => row.kind)).toEqual(['template']);

    const tooMany = await get(stack.gateway, '/api/auth/usage/recent?limit=101', bearer(user.token));
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toMatchObject({ success: false, message: 'limit must be a whole number between 1 and 100' });
    expect((await get(stack.gateway, '/api/auth/usage/recent', {})).status).toBe(401);
  });

  it('records a signed template image URL once, charged to the owner; a cached answer is not a render', async () => {
    const owner = await verifiedUser(stack.auth);
    const templateId = await createTemplate(owner.token);
    const params: Array<[string, string]> = [
      ['title', 'Signed'],
      ['format', 'png'],
    ];
    const sig = createHmac('sha256', owner.apiKey).update(templateImageSigningString(templateId, params)).digest('hex');
    const url = `${stack.gateway.url}/api/template/${templateId}/image?${new URLSearchParams([...params, ['sig', sig]])}`;
    const first = await fetch(url);
    expect(first.status).toBe(200);
    const size = (await first.arrayBuffer()).byteLength;
    const again = await fetch(url);
    expect(again.headers.get('x-cache')).toBe('HIT');
    await again.arrayBuffer();

    const rows = await settledRenders(bearer(owner.token), 1);
    expect(rows.map((row) => [row.kind, row.format, row.sizeBytes, row.status])).toEqual([['template', 'png', size, 'charged']]);
  });

  it('records the renders of an unlimited (Pro) account', async () => {
    const pro = await verifiedUser(stack.auth);
    await stack.auth.db.updateTable('users').set({ plan: 'pro' }).where('id', '=', pro.userId).execute();
    const res = await stack.gateway.post(
      '/api/html-to-img/convert',
      { html: HTML, width: 80, height: 60, format: 'jpeg' },
      keyHeaders(pro.apiKey),
    );
    expect(res.status).toBe(200);
    const size = (await res.arrayBuffer()).byteLength;
    const rows = await settledRenders(keyHeaders(pro.apiKey), 1);
    expect(rows.map((row) => [row.kind, row.format, row.sizeBytes, row.status])).toEqual([['html', 'jpeg', size, 'charged']]);
  });
});

describe('regenerating the API key', () => {
  const convert = (on: TestGateway, apiKey: string) =>
    on.post('/api/html-to-img/convert', { html: HTML, width: 50, height: 50 }, keyHeaders(apiKey));

  it('stops the old key at once on every gateway replica, even one that verified it moments ago', async () => {
    const user = await verifiedUser(stack.auth);
    const templateId = await createTemplate(user.token);
    // Both replicas have just verified the old key (and would start its next render alongside the check).
    for (const on of [stack.gateway, replica]) {
      const warm = await convert(on, user.apiKey);
      expect(warm.status).toBe(200);
      await warm.arrayBuffer();
    }

    const regenerated = await fetch(`${stack.gateway.url}/api/auth/api-key/regenerate`, { method: 'POST', headers: bearer(user.token) });
    expect(regenerated.status).toBe(200);
    const { apiKey } = (await regenerated.json()) as { apiKey: string };
    expect(apiKey).not.toBe(user.apiKey);

    for (const on of [replica, stack.gateway]) {
      const refused = await convert(on, user.apiKey);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
      expect(await refused.json()).toMatchObject({ success: false, code: 'UNAUTHORIZED', message: 'Invalid API key' });
    }
    const template = await replica.post('/api/template/generate', { templateId, format: 'png' }, keyHeaders(user.apiKey));
    expect(template.status).toBe(401);
    expect(template.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect((await get(replica, '/api/auth/usage', keyHeaders(user.apiKey))).status).toBe(401);
    expect((await get(replica, '/api/template/user', keyHeaders(user.apiKey))).status).toBe(401);

    const ok = await convert(replica, apiKey);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('image/png');
    await ok.arrayBuffer();
    // The refused calls reserved nothing: two renders with the old key, one with the new.
    const rows = await settledRenders(keyHeaders(apiKey), 3);
    expect(rows.map((row) => row.status)).toEqual(['charged', 'charged', 'charged']);
  });
});
