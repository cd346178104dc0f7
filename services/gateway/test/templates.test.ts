import { createHmac, randomBytes } from 'node:crypto';
import { templateImageSigningString } from '@render/contracts';
import { UsersRepository } from '@render/db';
import type { RenderWorkerHandle } from '@render/render-worker';
import { decodePng, near } from '@render/test-stack/images';
import { xmlProblem } from '@render/test-stack/strict-xml';
import { closeInOrder } from '@render/test-stack/teardown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The real account service, in-process on a throwaway database with a real SMTP server, as its own tests start it.
import { INTERNAL_TOKEN, json, type Stack, startStack, verifiedUser } from './helpers/auth-stack.ts';
import { startAssetServer, startCanary, type TestServer } from './helpers/servers.ts';
import { startGateway, startTemplates, startWorker, type TestGateway, uniquePrefix } from './helpers/stack.ts';

// Everything goes through the gateway over a real socket: it authenticates, forwards to the templates
// service (real Postgres), renders through the SVG queue (real Redis, real Chromium) and charges credits.

let auth: Stack;
let templatesService: { url: string; close(): Promise<void> };
let worker: RenderWorkerHandle;
let gateway: TestGateway;
let assets: TestServer;
let canary: TestServer;
let alice: Awaited<ReturnType<typeof verifiedUser>>;
let bob: Awaited<ReturnType<typeof verifiedUser>>;

beforeAll(async () => {
  const prefix = uniquePrefix('templates');
  auth = await startStack();
  [assets, canary] = await Promise.all([startAssetServer(), startCanary()]);
  templatesService = await startTemplates(auth.databaseUrl, INTERNAL_TOKEN);
  worker = await startWorker({ QUEUE_PREFIX: prefix, RENDER_QUEUES: 'svg', RENDER_EGRESS_ALLOWLIST: `127.0.0.1:${assets.port}` });
  gateway = await startGateway({
    QUEUE_PREFIX: prefix,
    AUTH_SERVICE_URL: auth.url,
    TEMPLATES_SERVICE_URL: templatesService.url,
    INTERNAL_TOKEN,
  });
  [alice, bob] = await Promise.all([verifiedUser(auth, { name: 'Alice Author' }), verifiedUser(auth, { name: 'Bob Builder' })]);
});

afterAll(async () => {
  await closeInOrder(gateway, worker, templatesService);
  await Promise.all([assets?.close(), canary?.close()]);
  await auth?.close();
});

function call(method: string, path: string, options: { body?: unknown; token?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  return fetch(`${gateway.url}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
}

async function ok(res: Response, status = 200) {
  if (res.status !== status) expect.fail(`expected ${status}, got ${res.status}: ${await res.text()}`);
  return json(res);
}

/** A message matched exactly, not read as a pattern. */
const exactly = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

async function expectError(res: Response, status: number, message: string | RegExp) {
  const body = await json(res);
  expect({ status: res.status, message: body.message }).toEqual({ status, message: expect.stringMatching(message) });
}

async function png(res: Response) {
  if (res.status !== 200) expect.fail(`expected an image, got ${res.status}: ${await res.text()}`);
  expect(res.headers.get('content-type')).toBe('image/png');
  return decodePng(Buffer.from(await res.arrayBuffer()));
}

const used = async (token: string) => (await ok(await call('GET', '/api/auth/usage', { token }))).data.used as number;

// The left half shows the colour rule a text variable writes into <style>; the right half an image variable.
const CARD_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100">
  <style data-variable="theme">.bg{fill:#00ff00}</style>
  <rect class="bg" width="100" height="100"/>
  <image data-variable="logo" x="100" y="0" width="100" height="100" preserveAspectRatio="none"/>
  <text x="10" y="90" font-size="12" data-variable="title">Hello</text>
  <text x="10" y="20" font-size="12" data-variable="count">0</text>
</svg>`;

const CARD = {
  name: 'Social card',
  width: 200,
  height: 100,
  svg: CARD_SVG,
  variables: [
    { name: 'theme', type: 'text', defaultValue: '.bg{fill:#00ff00}' },
    { name: 'logo', type: 'image', defaultValue: '' },
    { name: 'title', type: 'text', defaultValue: 'Hello' },
    { name: 'count', type: 'number', defaultValue: 0 },
  ],
};

async function createTemplate(token: string, body: Record<string, unknown> = CARD) {
  return (await ok(await call('POST', '/api/template', { token, body }), 201)).data as Record<string, unknown> & { id: string };
}

describe('template life cycle over the gateway', () => {
  let cardId: string;
  let copyId: string;

  it('creates a private template for its author', async () => {
    const created = await createTemplate(alice.token);
    cardId = created.id;
    expect(created).toMatchObject({
      name: 'Social card',
      width: 200,
      height: 100,
      variablesCount: 4,
      creatorName: 'Alice Author',
      isPublic: false,
      isOwner: true,
      starCount: 0,
      isStarred: false,
    });
    expect(created.variables).toEqual([
      { name: 'theme', type: 'text', defaultValue: '.bg{fill:#00ff00}' },
      { name: 'logo', type: 'image', defaultValue: '' },
      { name: 'title', type: 'text', defaultValue: 'Hello' },
      { name: 'count', type: 'number', defaultValue: '0' },
    ]);
    const fetched = await ok(await call('GET', `/api/template/${cardId}`, { token: alice.token }));
    expect(fetched.data.id).toBe(cardId);
  });

  it('lets the owner edit a private template', async () => {
    const res = await call('PUT', `/api/template/${cardId}`, { token: alice.token, body: { ...CARD, name: 'Social card v2' } });
    const { data } = await ok(res);
    expect(data.name).toBe('Social card v2');
    expect(Date.parse(data.updatedAt)).toBeGreaterThanOrEqual(Date.parse(data.createdAt));
  });

  it('generates an image of the template size with the variables applied, for one credit', async () => {
    const before = await used(alice.token);
    const res = await call('POST', '/api/template/generate', {
      token: alice.token,
      body: { templateId: cardId, variables: { theme: '.bg{fill:#ff0000}', logo: `${assets.origin}/blue.png`, count: 42 } },
    });
    const image = await png(res);
    expect([image.width, image.height]).toEqual([200, 100]);
    expect(near(image.pixel(50, 50), [255, 0, 0, 255])).toBe(true);
    expect(near(image.pixel(150, 50), [0, 0, 255, 255])).toBe(true);
    expect(await used(alice.token)).toBe(before + 1);
  });

  it('uses the defaults for missing variables and escapes text values (SVG output, JSON answer)', async () => {
    const res = await call('POST', '/api/template/generate', {
      token: alice.token,
      body: { templateId: cardId, variables: { title: '<b>Tom & "Jerry"</b>' }, format: 'svg', outputType: 'json' },
    });
    const { data } = await ok(res);
    const svg = Buffer.from(data.image, 'base64').toString('utf8');
    expect(svg).toMatch(/>&lt;b(&gt;|>)Tom &amp; ("|&quot;)Jerry("|&quot;)&lt;\/b(&gt;|>)<\/text>/);
    expect(svg).not.toContain('<b>');
    expect(svg).toContain('.bg{fill:#00ff00}');
    expect(data).toMatchObject({ format: 'svg', width: 200, height: 100 });
  });

  it('carries render warnings: a filled-in character no font has (JSON), none on a clean image (header)', async () => {
    const res = await call('POST', '/api/template/generate', {
      token: alice.token,
      body: { templateId: cardId, variables: { title: 'box \u{10FFFD}' }, outputType: 'json' },
    });
    const { data } = await ok(res);
    expect(data.warnings.map((w: { detail?: { codePoints?: string[] } }) => w.detail?.codePoints)).toEqual([['U+10FFFD']]);
    expect(res.headers.get('x-render-warnings')).toBe('1');
    const clean = await call('POST', '/api/template/generate', { token: alice.token, body: { templateId: cardId } });
    await png(clean);
    expect(clean.headers.get('x-render-warnings')).toBe('0');
  });

  it('renders the default colour when no variables are given (PNG by default)', async () => {
    const image = await png(await call('POST', '/api/template/generate', { token: alice.token, body: { templateId: cardId } }));
    expect(near(image.pixel(50, 50), [0, 255, 0, 255])).toBe(true);
  });

  it("hides a private template from everyone else as 'Template Not Found'", async () => {
    await expectError(await call('GET', `/api/template/${cardId}`, { token: bob.token }), 404, /^Template Not Found$/);
    await expectError(await call('PUT', `/api/template/${cardId}`, { token: bob.token, body: CARD }), 404, /^Template Not Found$/);
    await expectError(await call('DELETE', `/api/template/${cardId}`, { token: bob.token }), 404, /^Template Not Found$/);
    await expectError(await call('POST', `/api/template/${cardId}/star`, { token: bob.token }), 404, /^Template Not Found$/);
    await expectError(await call('POST', `/api/template/${cardId}/duplicate`, { token: bob.token }), 404, /^Template Not Found$/);
    await expectError(
      await call('POST', '/api/template/generate', { token: bob.token, body: { templateId: cardId } }),
      404,
      /^Template Not Found$/,
    );
  });

  it('publishes irreversibly; a public template can no longer be edited, and never by others', async () => {
    const { data } = await ok(await call('POST', `/api/template/${cardId}/publish`, { token: alice.token }));
    expect(data.isPublic).toBe(true);
    // Publishing again changes nothing.
    expect((await ok(await call('POST', `/api/template/${cardId}/publish`, { token: alice.token }))).data.isPublic).toBe(true);
    await expectError(
      await call('PUT', `/api/template/${cardId}`, { token: alice.token, body: { ...CARD, name: 'Changed' } }),
      403,
      /^Public templates can no longer be edited/,
    );
    await expectError(
      await call('PUT', `/api/template/${cardId}`, { token: bob.token, body: CARD }),
      403,
      /^You do not have permission to modify this template$/,
    );
    await expectError(await call('DELETE', `/api/template/${cardId}`, { token: bob.token }), 403, /^You do not have permission/);
    await expectError(await call('POST', `/api/template/${cardId}/publish`, { token: bob.token }), 403, /^You do not have permission/);
    const seen = await ok(await call('GET', `/api/template/${cardId}`, { token: bob.token }));
    expect(seen.data).toMatchObject({ name: 'Social card v2', isPublic: true, isOwner: false, creatorName: 'Alice Author' });
  });

  it('lets another user generate from and duplicate a public template into their own private one', async () => {
    const image = await png(await call('POST', '/api/template/generate', { token: bob.token, body: { templateId: cardId } }));
    expect(image.width).toBe(200);
    const copy = (await ok(await call('POST', `/api/template/${cardId}/duplicate`, { token: bob.token }), 201)).data;
    copyId = copy.id;
    expect(copy).toMatchObject({ name: 'Social card v2 (copy)', isPublic: false, isOwner: true, creatorName: 'Bob Builder', starCount: 0 });
    const source = (await ok(await call('GET', `/api/template/${cardId}`, { token: bob.token }))).data;
    expect([copy.svg, copy.variables]).toEqual([source.svg, source.variables]);
    const edited = await ok(await call('PUT', `/api/template/${copyId}`, { token: bob.token, body: { ...CARD, name: "Bob's card" } }));
    expect(edited.data.name).toBe("Bob's card");
  });

  it('stars and unstars idempotently', async () => {
    const star = (token: string, method: 'POST' | 'DELETE') => call(method, `/api/template/${cardId}/star`, { token });
    expect((await ok(await star(bob.token, 'POST'))).data).toEqual({ isStarred: true, starCount: 1 });
    expect((await ok(await star(bob.token, 'POST'))).data).toEqual({ isStarred: true, starCount: 1 });
    expect((await ok(await star(alice.token, 'POST'))).data).toEqual({ isStarred: true, starCount: 2 });
    expect((await ok(await star(bob.token, 'DELETE'))).data).toEqual({ isStarred: false, starCount: 1 });
    expect((await ok(await star(bob.token, 'DELETE'))).data).toEqual({ isStarred: false, starCount: 1 });
    const view = await ok(await call('GET', `/api/template/${cardId}`, { token: alice.token }));
    expect(view.data).toMatchObject({ starCount: 1, isStarred: true });
  });

  it('lists own, public, starred and usable templates, sorted, searched and paged', async () => {
    // A newer public template with no stars: first by date, second by stars.
    const newer = await createTemplate(bob.token, { ...CARD, name: 'Newer plain card' });
    await ok(await call('POST', `/api/template/${newer.id}/publish`, { token: bob.token }));

    const ids = (body: Record<string, unknown>) => (body.data as Array<{ id: string }>).map((t) => t.id);
    const byDate = await ok(await call('GET', '/api/template/public', { token: bob.token }));
    expect(ids(byDate).slice(0, 2)).toEqual([newer.id, cardId]);
    const byStars = await ok(await call('GET', '/api/template/public?sortBy=stars', { token: bob.token }));
    expect(ids(byStars).slice(0, 2)).toEqual([cardId, newer.id]);

    expect(ids(await ok(await call('GET', '/api/template/user', { token: bob.token })))).toEqual([newer.id, copyId]);
    expect(ids(await ok(await call('GET', '/api/template/starred', { token: alice.token })))).toEqual([cardId]);
    expect(ids(await ok(await call('GET', '/api/template/starred', { token: bob.token })))).toEqual([]);
    // Bob can use his own and the public ones, not Alice's private ones.
    const aliceSecret = await createTemplate(alice.token, { ...CARD, name: 'Alice secret' });
    const usable = ids(await ok(await call('GET', '/api/template', { token: bob.token })));
    expect(usable).toEqual(expect.arrayContaining([newer.id, copyId, cardId]));
    expect(usable).not.toContain(aliceSecret.id);

    const search = await ok(await call('GET', '/api/template/public?q=PLAIN', { token: bob.token }));
    expect(ids(search)).toEqual([newer.id]);
    const wildcard = await ok(await call('GET', '/api/template/public?q=%25', { token: bob.token }));
    expect(ids(wildcard)).toEqual([]);

    const page2 = await ok(await call('GET', '/api/template/public?pageSize=1&page=2', { token: bob.token }));
    expect(page2.pagination).toEqual({ page: 2, pageSize: 1, total: 2 });
    expect(ids(page2)).toEqual([cardId]);
    await expectError(
      await call('GET', '/api/template/public?pageSize=500', { token: bob.token }),
      400,
      /pageSize must be a whole number between 1 and 50/,
    );
    await expectError(
      await call('GET', '/api/template/public?sortBy=name', { token: bob.token }),
      400,
      /sortBy must be one of: date, stars/,
    );
  });

  it('lets visitors browse the public list only', async () => {
    const list = await ok(await call('GET', '/api/template/public'));
    expect(list.data.every((t: { isPublic: boolean; isStarred: boolean }) => t.isPublic && !t.isStarred)).toBe(true);
    expect(list.data.length).toBeGreaterThan(0);
    for (const [method, path] of [
      ['GET', '/api/template'],
      ['GET', `/api/template/${cardId}`],
      ['GET', '/api/template/starred'],
      ['POST', `/api/template/${cardId}/star`],
    ] as const) {
      await expectError(await call(method, path), 401, /sign in/i);
    }
    await expectError(await call('POST', '/api/template/generate', { body: { templateId: cardId } }), 401, /sign in/i);
  });

  it('deletes only for the owner', async () => {
    await ok(await call('DELETE', `/api/template/${copyId}`, { token: bob.token }));
    await expectError(await call('GET', `/api/template/${copyId}`, { token: bob.token }), 404, /^Template Not Found$/);
  });
});

describe('template validation', () => {
  const create = (body: Record<string, unknown>) => call('POST', '/api/template', { token: alice.token, body });

  it('refuses SVG and variables that do not match, naming the problem', async () => {
    await expectError(await create({ ...CARD, name: 'x' }), 400, /^Name must be at least 2 characters$/);
    await expectError(await create({ ...CARD, name: '    ' }), 400, /^Name must be at least 2 characters$/);
    await expectError(await create({ ...CARD, name: undefined }), 400, /^Name is required$/);
    await expectError(await create({ ...CARD, svg: '' }), 400, /^Please enter some SVG content$/);
    await expectError(await create({ ...CARD, svg: '<svg><rect></svg>' }), 400, /not well-formed XML/);
    await expectError(await create({ ...CARD, svg: '<html></html>' }), 400, /root element must be <svg>, found <html>/);
    await expectError(await create({ ...CARD, width: 10 }), 400, /width must be between 50 and 4000/);
    await expectError(
      await create({ ...CARD, variables: CARD.variables.slice(1) }),
      400,
      /^The SVG binds data-variable="theme" but no variable named "theme" is declared$/,
    );
    await expectError(
      await create({ ...CARD, variables: [...CARD.variables, { name: 'subtitle', type: 'text' }] }),
      400,
      /^Variable "subtitle" is declared but no element in the SVG has data-variable="subtitle"$/,
    );
    await expectError(
      await create({ ...CARD, variables: CARD.variables.map((v) => (v.name === 'title' ? { ...v, type: 'image' } : v)) }),
      400,
      /^Variable "title" is an image URL and must be bound to an <image> element, not <text>$/,
    );
    await expectError(
      await create({ ...CARD, variables: CARD.variables.map((v) => (v.name === 'count' ? { ...v, defaultValue: 'many' } : v)) }),
      400,
      /default value of variable "count" must be a number/,
    );
    await expectError(await create({ ...CARD, variables: [{ name: '1bad', type: 'text' }] }), 400, /Variable names start with a letter/);
    for (const name of ['__proto__', 'constructor', 'prototype']) {
      const svg = CARD_SVG.replace('data-variable="title"', `data-variable="${name}"`);
      const variables = CARD.variables.map((v) => (v.name === 'title' ? { ...v, name } : v));
      const message = `Variable name "${name}" is not allowed (__proto__, constructor, prototype name a JavaScript object's prototype); pick another`;
      await expectError(await create({ ...CARD, svg, variables }), 400, exactly(message));
    }
    await expectError(
      await create({ ...CARD, variables: [{ name: 'x', type: 'color' }] }),
      400,
      /Variable type must be one of: text, number, image/,
    );
    const huge = `<svg xmlns="http://www.w3.org/2000/svg"><desc>${'x'.repeat(600 * 1024)}</desc></svg>`;
    await expectError(await create({ ...CARD, svg: huge, variables: [] }), 400, /SVG content is too large: at most 512 KB/);
  });

  it('refuses unknown or mistyped variables at generation, and unknown ids as not found, charging nothing', async () => {
    const { id } = await createTemplate(alice.token);
    // The credit is reserved while the template is filled: every refusal below must hand it back.
    const before = await used(alice.token);
    const generate = (body: Record<string, unknown>) => call('POST', '/api/template/generate', { token: alice.token, body });
    await expectError(
      await generate({ templateId: id, variables: { nope: 1 } }),
      400,
      /^Unknown variable "nope"; this template's variables are: theme, logo, title, count$/,
    );
    await expectError(await generate({ templateId: id, variables: { count: 'lots' } }), 400, /value of variable "count" must be a number/);
    await expectError(
      await generate({ templateId: id, variables: { logo: 'file:///etc/passwd' } }),
      400,
      /must be an http:\/\/ or https:\/\/ image URL/,
    );
    await expectError(await generate({ templateId: id, format: 'gif' }), 400, /format must be one of: png, jpeg, webp, avif, svg/);
    await expectError(await generate({ templateId: 'not-a-uuid' }), 404, /^Template Not Found$/);
    await expectError(await generate({ templateId: '00000000-0000-4000-8000-000000000000' }), 404, /^Template Not Found$/);
    await expectError(await call('GET', '/api/template/nope', { token: alice.token }), 404, /^Template Not Found$/);
    expect(await used(alice.token)).toBe(before);
  });
});

describe('generation with cache', () => {
  const generate = (id: string, token = alice.token) =>
    call('POST', '/api/template/generate', { token, body: { templateId: id, variables: { count: 3 }, cache: 600 } });

  /** Generates twice: rendered the first time (MISS), from the cache the second (HIT), both showing `rgba`. */
  async function expectMissThenHit(id: string, rgba: number[]) {
    for (const cache of ['MISS', 'HIT']) {
      const res = await generate(id);
      expect(res.headers.get('x-cache')).toBe(cache);
      expect(near((await png(res)).pixel(50, 50), rgba)).toBe(true);
    }
  }

  it('answers from the cache until the template is edited, and a deleted template is not found', async () => {
    const { id } = await createTemplate(alice.token);
    const before = await used(alice.token);
    await expectMissThenHit(id, [0, 255, 0, 255]);
    expect(await used(alice.token)).toBe(before + 1);

    // The edit changes the default colour: the same request is a miss, and shows it.
    const red = CARD.variables.map((v) => (v.name === 'theme' ? { ...v, defaultValue: '.bg{fill:#ff0000}' } : v));
    await ok(await call('PUT', `/api/template/${id}`, { token: alice.token, body: { ...CARD, variables: red } }));
    await expectMissThenHit(id, [255, 0, 0, 255]);
    expect(await used(alice.token)).toBe(before + 2);

    await ok(await call('DELETE', `/api/template/${id}`, { token: alice.token }));
    await expectError(await generate(id), 404, /^Template Not Found$/);
    expect(await used(alice.token)).toBe(before + 2);
  });

  it('does not serve the owner’s cached image to someone who may not use the template', async () => {
    const { id } = await createTemplate(alice.token);
    expect((await generate(id)).headers.get('x-cache')).toBe('MISS');
    await expectError(await generate(id, bob.token), 404, /^Template Not Found$/);
  });
});

describe('SVG sanitising and image egress', () => {
  it('strips scripts, handlers and javascript: links on save, and nothing reaches the canary on render', async () => {
    const hostile = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100" onload="fetch('${canary.origin}/onload')">
      <script>fetch('${canary.origin}/script')</script>
      <rect width="100" height="100" fill="#00f" onclick="fetch('${canary.origin}/click')"/>
      <a xlink:href="javascript:fetch('${canary.origin}/link')"><text data-variable="t">x</text></a>
      <image href="${canary.origin}/img.png" onerror="fetch('${canary.origin}/onerror')" width="10" height="10"/>
      <foreignObject><iframe xmlns="http://www.w3.org/1999/xhtml" src="${canary.origin}/iframe"/></foreignObject>
    </svg>`;
    const saved = await createTemplate(alice.token, {
      name: 'Hostile',
      width: 100,
      height: 100,
      svg: hostile,
      variables: [{ name: 't', type: 'text' }],
    });
    expect(saved.svg).not.toMatch(/<script|onload|onclick|onerror|javascript:|foreignObject|iframe/i);
    const image = await png(await call('POST', '/api/template/generate', { token: alice.token, body: { templateId: saved.id } }));
    expect(near(image.pixel(50, 50), [0, 0, 255, 255])).toBe(true);
    expect(canary.requests).toEqual([]);
  });

  it('refuses an image variable pointing at a non-public address, and the canary sees nothing', async () => {
    const { id } = await createTemplate(alice.token);
    const before = await used(alice.token);
    const res = await call('POST', '/api/template/generate', {
      token: alice.token,
      body: { templateId: id, variables: { logo: `${canary.origin}/logo.png` } },
    });
    await expectError(res, 422, /^Image variable URL http:\/\/127\.0\.0\.1:\d+\/logo\.png is not allowed/);
    expect(canary.requests).toEqual([]);
    // A failed render costs nothing.
    expect(await used(alice.token)).toBe(before);
  });
});

describe('signed image URLs', () => {
  let id: string;

  beforeAll(async () => {
    ({ id } = await createTemplate(alice.token));
  });

  const signed = (params: Array<[string, string]>, apiKey = alice.apiKey) => {
    const sig = createHmac('sha256', apiKey).update(templateImageSigningString(id, params)).digest('hex');
    return `/api/template/${id}/image?${new URLSearchParams([...params, ['sig', sig]])}`;
  };

  it('renders a valid signature once, charges the owner once, and serves repeats from the cache', async () => {
    const url = signed([
      ['theme', '.bg{fill:#ff0000}'],
      ['count', '7'],
    ]);
    const before = await used(alice.token);
    const first = await call('GET', url);
    expect(first.headers.get('x-cache')).toBe('MISS');
    expect(first.headers.get('cache-control')).toBe('public, max-age=3600');
    const etag = first.headers.get('etag');
    const image = await png(first);
    expect(near(image.pixel(50, 50), [255, 0, 0, 255])).toBe(true);
    expect(await used(alice.token)).toBe(before + 1);

    const second = await call('GET', url);
    expect(second.headers.get('x-cache')).toBe('HIT');
    expect(near((await png(second)).pixel(50, 50), [255, 0, 0, 255])).toBe(true);
    expect(await used(alice.token)).toBe(before + 1);

    const revalidated = await call('GET', url, { headers: { 'if-none-match': etag ?? '' } });
    expect(revalidated.status).toBe(304);
  });

  it('charges a burst of identical first requests once', async () => {
    const url = signed([['title', `burst ${randomBytes(4).toString('hex')}`]]);
    const before = await used(alice.token);
    const answers = await Promise.all(Array.from({ length: 5 }, () => call('GET', url)));
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.filter((res) => res.headers.get('x-cache') === 'MISS')).toHaveLength(1);
    expect(await used(alice.token)).toBe(before + 1);
  });

  it('refuses tampered, missing and foreign signatures with 403', async () => {
    const url = signed([['theme', '.bg{fill:#ff0000}']]);
    const tampered = url.replace('ff0000', '0000ff');
    await expectError(await call('GET', tampered), 403, /Invalid or missing signature/);
    await expectError(await call('GET', `/api/template/${id}/image?theme=x`), 403, /Invalid or missing signature/);
    await expectError(await call('GET', signed([['theme', 'x']], bob.apiKey)), 403, /Invalid or missing signature/);
    await expectError(
      await call('GET', `/api/template/${randomBytes(16).toString('hex')}/image?sig=${'0'.repeat(64)}`),
      404,
      /^Template Not Found$/,
    );
  });

  it('names a __proto__, constructor or prototype parameter in a clear 400, signed or not', async () => {
    for (const name of ['__proto__', 'constructor', 'prototype']) {
      const message = `Query parameter "${name}" is not allowed: __proto__, constructor, prototype cannot name template variables`;
      await expectError(await call('GET', signed([[name, 'x']])), 400, exactly(message));
      await expectError(await call('GET', `/api/template/${id}/image?${name}=x&sig=${'0'.repeat(64)}`), 400, exactly(message));
    }
  });

  it('validates a signed request like any other generation', async () => {
    await expectError(await call('GET', signed([['nope', '1']])), 400, /^Unknown variable "nope"/);
    await expectError(await call('GET', signed([['format', 'gif']])), 400, /format must be one of/);
    await expectError(await call('GET', `${signed([['theme', 'a']])}&theme=b`), 400, /may appear once/);
  });

  it('serves another format from the same signed scheme', async () => {
    const res = await call(
      'GET',
      signed([
        ['format', 'jpeg'],
        ['quality', '60'],
      ]),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
  });
});

describe('characters XML forbids', () => {
  const TEXT_SVG =
    '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50"><text x="5" y="30" data-variable="title">Hi</text></svg>';
  const TEXT = {
    name: 'Text only',
    width: 100,
    height: 50,
    svg: TEXT_SVG,
    variables: [{ name: 'title', type: 'text', defaultValue: 'Hi' }],
  };
  let id: string;

  beforeAll(async () => {
    ({ id } = await createTemplate(alice.token, TEXT));
  });

  const generateSvg = (title: string) =>
    call('POST', '/api/template/generate', { token: alice.token, body: { templateId: id, format: 'svg', variables: { title } } });
  const signed = (params: Array<[string, string]>) => {
    const sig = createHmac('sha256', alice.apiKey).update(templateImageSigningString(id, params)).digest('hex');
    return `/api/template/${id}/image?${new URLSearchParams([...params, ['sig', sig]])}`;
  };

  it.each([
    ['\u000B', 'U+000B'],
    ['\u0001', 'U+0001'],
    ['\u001F', 'U+001F'],
    ['\uFFFE', 'U+FFFE'],
    ['\uFFFF', 'U+FFFF'],
    ['\uD800', 'a lone surrogate (U+D800)'],
    ['\uDC00', 'a lone surrogate (U+DC00)'],
  ])('a variable holding %j is a 400 naming it, at no charge, by body and by signed URL', async (char, name) => {
    const before = await used(alice.token);
    const escaped = name.replace(/[()+]/g, (c) => `\\${c}`);
    const message = new RegExp(`^The value of variable "title" contains ${escaped} at position 2, a character XML does not allow$`);
    await expectError(await generateSvg(`a${char}b`), 400, message);
    // A lone surrogate cannot be sent in a URL (percent-encoded UTF-8 has none); the others can.
    if (!/surrogate/.test(name))
      await expectError(
        await call(
          'GET',
          signed([
            ['title', `a${char}b`],
            ['format', 'svg'],
          ]),
        ),
        400,
        message,
      );
    expect(await used(alice.token)).toBe(before);
  });

  it('refuses them in a default value and in the SVG at save, naming where', async () => {
    await expectError(
      await call('POST', '/api/template', {
        token: alice.token,
        body: { ...TEXT, variables: [{ name: 'title', type: 'text', defaultValue: 'x\u000Cy' }] },
      }),
      400,
      /^The default value of variable "title" contains U\+000C at position 2, a character XML does not allow$/,
    );
    await expectError(
      await call('POST', '/api/template', { token: alice.token, body: { ...TEXT, svg: TEXT_SVG.replace('Hi', 'H\u000Bi') } }),
      400,
      /^Invalid SVG: the content contains U\+000B at line 1, column \d+, a character XML does not allow$/,
    );
  });

  it('answers well-formed XML for everything XML allows, by body and by signed URL', async () => {
    const allowed = 'tab\tnew\nline\rcr \u0085 \u00A0 \uE000 \uFFFD \u{1F600} 中文 &<>"\' ]]> <!-- x --> <?pi?>';
    for (const res of [
      await generateSvg(allowed),
      await call(
        'GET',
        signed([
          ['title', allowed],
          ['format', 'svg'],
        ]),
      ),
    ]) {
      if (res.status !== 200) expect.fail(`expected an SVG, got ${res.status}: ${await res.text()}`);
      expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(xmlProblem(bytes)).toBeUndefined();
      expect(bytes.toString('utf8')).toContain('\u{1F600} 中文 &amp;&lt;&gt;');
    }
  });

  it('keeps the SVG convert call to well-formed XML too', async () => {
    const res = await call('POST', '/api/svg-to-img/convert', {
      body: { svg: '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>a\uFFFFb</text></svg>', format: 'svg' },
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(((await json(res)) as { message: string }).message).toMatch(/U\+FFFF at line 1, column \d+, a character XML does not allow/);
  });
});

describe('OpenAPI', () => {
  it('documents the template calls from the same contracts the gateway validates with', async () => {
    const doc = await (await fetch(`${gateway.url}/api/openapi.json`)).json();
    for (const path of [
      '/api/template',
      '/api/template/public',
      '/api/template/{id}',
      '/api/template/{id}/star',
      '/api/template/generate',
      '/api/template/{id}/image',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
    expect(doc.paths['/api/template/public'].get.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['q', 'page', 'pageSize', 'sortBy']),
    );
  });
});

describe('stars under concurrency', () => {
  it('keeps the star count exact when many users star and unstar at once', async () => {
    const { id } = await createTemplate(alice.token);
    await ok(await call('POST', `/api/template/${id}/publish`, { token: alice.token }));
    // Accounts straight in the database with tokens from the auth service's own signer: signing up 12
    // users through scrypt would only slow the test down.
    const users = new UsersRepository(auth.db);
    const tokens = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const user = await users.create({
          name: `Star ${i}`,
          email: `star-${i}-${randomBytes(4).toString('hex')}@example.com`,
          password_hash: 'x',
          company: null,
          usage_source: 'personal',
          referral_source: 'other',
          planned_services: ['svg2img'],
        });
        return auth.app.issueToken(user!);
      }),
    );
    // Each user stars twice at once; the first four also unstar once, after their stars.
    await Promise.all(
      tokens.flatMap((token) => [call('POST', `/api/template/${id}/star`, { token }), call('POST', `/api/template/${id}/star`, { token })]),
    );
    await Promise.all(tokens.slice(0, 4).map((token) => call('DELETE', `/api/template/${id}/star`, { token })));
    const view = await ok(await call('GET', `/api/template/${id}`, { token: alice.token }));
    expect(view.data.starCount).toBe(8);
  });
});
