import { ChartShortUrlsRepository } from '@render/db';
import { creditsUsed } from '@render/test-stack/account-calls';
import { colourShare, type Decoded, decodePng, near, webpSize } from '@render/test-stack/images';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_TOKEN, verifiedUser } from '../../auth/test/helpers/stack.ts';
import { type FullStack, startFullStack, startGateway, type TestGateway } from './helpers/stack.ts';

// Issue 29 §1, short URLs through the real stack: POST /chart/create (gateway → templates service → Postgres)
// answers QuickChart's { success, url }; GET of the url renders through the chart queue on a real worker.
let stack: FullStack;
let limited: TestGateway;

beforeAll(async () => {
  stack = await startFullStack('quickchart-short', { worker: { RENDER_QUEUES: 'chart' } });
  limited = await startGateway({
    QUEUE_PREFIX: stack.prefix,
    AUTH_SERVICE_URL: stack.auth.url,
    TEMPLATES_SERVICE_URL: stack.templates.url,
    INTERNAL_TOKEN,
    ANON_RATE_LIMIT_PER_MINUTE: '2',
  });
}, 120_000);

afterAll(async () => {
  await limited?.close();
  await stack?.close();
});

const RED = [255, 0, 0, 255];
const WHITE = [255, 255, 255, 255];
const BAR = "{type:'bar',data:{labels:['a','b'],datasets:[{data:[3,5],backgroundColor:'red'}]},options:{legend:{display:false}}}";

type Created = { success: boolean; url: string };

async function create(body: Record<string, unknown>, headers: Record<string, string> = {}, on = stack.gateway): Promise<Created> {
  const res = await on.post('/chart/create', body, headers);
  if (res.status !== 200) throw new Error(`${res.status}: ${await res.text()}`);
  return (await res.json()) as Created;
}

const idOf = (url: string) => url.split('/').at(-1) as string;

async function pngOf(res: Response): Promise<Decoded> {
  if (res.status !== 200) throw new Error(`${res.status}: ${await res.text()}`);
  expect(res.headers.get('content-type')).toBe('image/png');
  return decodePng(Buffer.from(await res.arrayBuffer()));
}

const redShare = (img: Decoded) => colourShare(img, RED, 3, 40);

describe('POST /chart/create → GET /chart/render/{id}', () => {
  it("answers QuickChart's { success, url } on this server, and the url renders the stored chart", async () => {
    const created = await create({ chart: BAR, width: 300, height: 200, devicePixelRatio: 1, backgroundColor: 'white' });
    expect(created.success).toBe(true);
    expect(created.url).toMatch(new RegExp(`^${stack.gateway.url}/chart/render/[A-Za-z0-9_-]{22}$`));
    const img = await pngOf(await fetch(created.url));
    expect([img.width, img.height]).toEqual([300, 200]);
    expect(near(img.pixel(1, 1), WHITE)).toBe(true);
    expect(redShare(img)).toBeGreaterThan(0.02);
  });

  it('HEAD answers the content type without rendering or charging (the GET renders and charges)', async () => {
    const user = await verifiedUser(stack.auth);
    const { url } = await create({ chart: BAR, width: 300, height: 200 });
    const head = await fetch(`${url}?key=${user.apiKey}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('image/png');
    expect(await creditsUsed(stack.gateway.url, user.token)).toBe(0);
    expect((await fetch(`${url}?key=${user.apiKey}`)).status).toBe(200);
    expect(await creditsUsed(stack.gateway.url, user.token)).toBe(1);
  });

  it('takes the short names and a config object, as POST /chart does; ids differ each time', async () => {
    const body = { c: { type: 'pie', data: { datasets: [{ data: [1], backgroundColor: ['red'] }] } }, w: 120, h: 80, bkg: 'white' };
    const [one, two] = [await create(body), await create(body)];
    expect(idOf(one.url)).not.toBe(idOf(two.url));
    const img = await pngOf(await fetch(one.url));
    expect([img.width, img.height]).toEqual([240, 160]);
    expect(redShare(img)).toBeGreaterThan(0.05);
  });

  it('the query overrides size, density, background and format (long and short names)', async () => {
    const { url } = await create({ chart: BAR, width: 300, height: 200, devicePixelRatio: 1 });
    const bigger = await pngOf(await fetch(`${url}?w=400&height=100&devicePixelRatio=2&bkg=white`));
    expect([bigger.width, bigger.height]).toEqual([800, 200]);
    expect(near(bigger.pixel(1, 1), WHITE)).toBe(true);
    const webp = await fetch(`${url}?f=webp`);
    expect(webp.headers.get('content-type')).toBe('image/webp');
    expect(webpSize(Buffer.from(await webp.arrayBuffer()))).toEqual({ width: 300, height: 200 });
    const svg = await fetch(`${url}?format=svg`);
    expect(svg.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    // The stored values stand when the query says nothing; the chart itself cannot be replaced.
    const same = await pngOf(await fetch(`${url}?c=${encodeURIComponent("{type:'line'}")}`));
    expect([same.width, same.height]).toEqual([300, 200]);
    expect(redShare(same)).toBeGreaterThan(0.02);
    const bad = await fetch(`${url}?w=5000`);
    expect(bad.status).toBe(400);
  });

  it('an unknown, malformed or expired id is a 404 with the reason', async () => {
    for (const id of ['AAAAAAAAAAAAAAAAAAAAAA', 'nope', '..%2F..%2Finternal']) {
      const res = await fetch(`${stack.gateway.url}/chart/render/${id}`);
      expect(res.status, id).toBe(404);
      expect(await res.text()).toMatch(/does not exist or has expired/);
      expect(res.headers.get('x-quickchart-error')).toMatch(/does not exist or has expired/);
    }
    const { url } = await create({ chart: BAR });
    expect((await fetch(url)).status).toBe(200);
    await stack.auth.db
      .updateTable('chart_short_urls')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', idOf(url))
      .execute();
    const expired = await fetch(url);
    expect(expired.status).toBe(404);
    expect(await expired.text()).toMatch(/does not exist or has expired/);
  });

  it('a bad request is refused as /chart refuses it, and nothing is stored', async () => {
    const count = async () => (await stack.auth.db.selectFrom('chart_short_urls').select('id').execute()).length;
    const before = await count();
    const cases: Record<string, unknown>[] = [{ w: 100 }, { chart: BAR, v: '7' }, { chart: BAR, f: 'gif' }, { chart: BAR, width: 5000 }];
    for (const body of cases) {
      const res = await stack.gateway.post('/chart/create', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.headers.get('x-quickchart-error'), JSON.stringify(body)).toBeTruthy();
    }
    const missing = await stack.gateway.post('/chart/create', { width: 100 });
    expect(await missing.text()).toMatch(/You are missing variable `c` or `chart`/);
    expect(await count()).toBe(before);
  });
});

describe('owners, expiry, limits and billing', () => {
  it("an API key's owner is recorded; anonymous ones have none; both expire after the configured 30 days", async () => {
    const user = await verifiedUser(stack.auth);
    const keyed = await create({ chart: BAR }, { 'x-api-key': user.apiKey });
    const inQuery = (await (
      await stack.gateway.post(`/chart/create?key=${encodeURIComponent(user.apiKey)}`, { chart: BAR })
    ).json()) as Created;
    const anonymous = await create({ chart: BAR });
    const urls = new ChartShortUrlsRepository(stack.auth.db);
    const row = async (url: string) => (await urls.findLive(idOf(url)))!;
    expect((await row(keyed.url)).user_id).toBe(user.userId);
    expect((await row(inQuery.url)).user_id).toBe(user.userId);
    const anon = await row(anonymous.url);
    expect(anon.user_id).toBeNull();
    const days = (anon.expires_at.getTime() - anon.created_at.getTime()) / 86_400_000;
    expect(days).toBeCloseTo(30, 2);
    expect((await stack.gateway.post('/chart/create', { chart: BAR }, { 'x-api-key': 'rk_not-a-key' })).status).toBe(401);
  });

  it('creating costs no credit; each render of the url costs one, by X-API-Key or key=', async () => {
    const user = await verifiedUser(stack.auth);
    const used = async () => {
      const r = await stack.auth.call('GET', '/api/auth/usage', { token: user.token });
      return ((await r.json()) as { data: { used: number } }).data.used;
    };
    const before = await used();
    const { url } = await create({ chart: BAR, width: 100, height: 100 }, { 'x-api-key': user.apiKey });
    expect(await used()).toBe(before);
    const byQuery = await fetch(`${url}?key=${encodeURIComponent(user.apiKey)}`);
    expect(byQuery.status).toBe(200);
    expect(byQuery.headers.get('x-credits-remaining')).not.toBeNull();
    expect((await fetch(url, { headers: { 'x-api-key': user.apiKey } })).status).toBe(200);
    expect(await used()).toBe(before + 2);
    // A 404 is not charged.
    expect((await fetch(`${stack.gateway.url}/chart/render/AAAAAAAAAAAAAAAAAAAAAA?key=${user.apiKey}`)).status).toBe(404);
    expect(await used()).toBe(before + 2);
    expect((await fetch(`${url}?key=rk_not-a-key`)).status).toBe(401);
  });

  it('anonymous creating and rendering take from the per-IP limit', async () => {
    const first = await limited.post('/chart/create', { chart: BAR, w: 50, h: 50 });
    expect(first.status).toBe(200);
    const { url } = (await first.json()) as Created;
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await fetch(url.replace(stack.gateway.url, limited.url))).status);
    expect(statuses[0]).toBe(200);
    expect(statuses).toContain(429);
    expect((await limited.post('/chart/create', { chart: BAR })).status).toBe(429);
  });
});
