import { createHmac } from 'node:crypto';
import { templateImageSigningString } from '@render/contracts';
import puppeteer, { type Browser, type HTTPResponse, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The real account service, in-process on a throwaway database with a real SMTP server, as its own tests start it.
import { json, type Stack, verifiedUser } from './helpers/auth-stack.ts';
import { type FullStack, startFullStack, type TestGateway } from './helpers/stack.ts';

// The stored-XSS report, replayed through the real stack: a user saves a template whose link is animated
// to a javascript: URL under another XLink prefix, signs an SVG image URL for it, and a victim opens that
// URL (the gateway's origin) and clicks. Two layers must each hold: the template sanitiser (nothing
// script-bearing is stored) and the SVG answer's headers (a CSP sandbox and nosniff).

const SVG_HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox",
  'x-content-type-options': 'nosniff',
};

/** Run in the page, this sets the title and opens a dialog: either one shows that script ran. */
const SCRIPT = "javascript:document.title='pwned';alert('pwned')";

// The whole 300×200 image is the animated link, so a click anywhere on it follows the link. Chromium runs
// the animated javascript: href of `foo:href` (XLink) with from/to and with <set>; the other payloads of
// the report ride along to check what is stored.
const PAYLOAD = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:foo="http://www.w3.org/1999/xlink" width="300" height="200">
  <a id="link">
    <animate attributeName="foo:href" from="${SCRIPT}" to="${SCRIPT}" begin="0s" dur="1000s" fill="freeze"/>
    <set attributeName="foo:href" to="${SCRIPT}"/>
    <set attributeName=" href" to="${SCRIPT}"/>
    <set attributeName="formaction" to="${SCRIPT}"/>
    <rect width="300" height="200" fill="#00aa00"/>
  </a>
  <a xml:base="${SCRIPT}//" href="#x"><text x="5" y="15">base</text></a>
  <rect width="1" height="1" style="fill:url(java\\73 cript:alert(1))"><set attributeName=" onclick" to="alert(1)"/></rect>
  <style>@import url(https://evil.test/x.css); rect{stroke:url(java\\73 cript:alert(1))}</style>
  <p><style><!--</style><img src=x onerror=alert(1)>--></style></p>
  <image href="http://evil.test/x.png" width="1" height="1"/>
  <use href="http://evil.test/s.svg#x"/>
</svg>`;

let stack: FullStack;
let auth: Stack;
let gateway: TestGateway;
let browser: Browser;
let alice: Awaited<ReturnType<typeof verifiedUser>>;
let templateId: string;
let storedSvg: string;

beforeAll(async () => {
  stack = await startFullStack('template-xss', { worker: { RENDER_QUEUES: 'svg' } });
  ({ auth, gateway } = stack);
  alice = await verifiedUser(auth, { name: 'Alice Attacker' });
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';
  browser = await puppeteer.launch({
    executablePath,
    headless: executablePath.includes('headless-shell') ? 'shell' : true,
    args: [...(isRoot ? ['--no-sandbox'] : []), '--disable-gpu', '--disable-dev-shm-usage'],
  });

  const created = await fetch(`${gateway.url}/api/template`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${alice.token}` },
    body: JSON.stringify({ name: 'Innocent card', width: 300, height: 200, svg: PAYLOAD, variables: [] }),
  });
  const body = await json(created);
  if (created.status !== 201) throw new Error(`template not saved: ${created.status} ${JSON.stringify(body)}`);
  templateId = body.data.id;
  storedSvg = body.data.svg;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const signedSvgUrl = (params: Array<[string, string]> = []) => {
  const all: Array<[string, string]> = [...params, ['format', 'svg']];
  const sig = createHmac('sha256', alice.apiKey).update(templateImageSigningString(templateId, all)).digest('hex');
  return `${gateway.url}/api/template/${templateId}/image?${new URLSearchParams([...all, ['sig', sig]])}`;
};

const headersOf = (res: Response | HTTPResponse) => {
  const get = (name: string) => (res instanceof Response ? res.headers.get(name) : (res.headers()[name] ?? null));
  return { 'content-security-policy': get('content-security-policy'), 'x-content-type-options': get('x-content-type-options') };
};

/** Opens `url` (or whatever `route` answers for it), clicks the middle of the image, and reports any script that ran. */
async function clickThrough(url: string, route?: (page: Page) => Promise<void>) {
  const page = await browser.newPage();
  try {
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      dialog.dismiss().catch(() => {});
    });
    await route?.(page);
    const response = await page.goto(url, { waitUntil: 'load' });
    // Let the animation apply its value before clicking.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await page.mouse.click(150, 100);
    await new Promise((resolve) => setTimeout(resolve, 700));
    return { response, dialogs, title: await page.title() };
  } finally {
    await page.close();
  }
}

/** Answers every request of the page with `svg` and no other header, as if the gateway sent it bare. */
const answerWith = (svg: string) => async (page: Page) => {
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    request.respond({ status: 200, contentType: 'image/svg+xml', body: svg }).catch(() => {});
  });
};

describe('stored XSS through an SVG template', () => {
  it('stores the template without anything that could run, animate a link or fetch', () => {
    expect(storedSvg).toContain('<rect width="300" height="200" fill="#00aa00"/>');
    expect(storedSvg).not.toMatch(/javascript|cript:|foo:href|formaction|onclick|onerror|xml:base|@import|evil\.test|<p\b|<img/i);
    expect(storedSvg).not.toMatch(/<(set|animate)\b/);
  });

  it('answers the signed SVG URL with a CSP sandbox and nosniff: rendered, cached and revalidated', async () => {
    const url = signedSvgUrl();
    const first = await fetch(url);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/svg+xml');
    expect(headersOf(first)).toEqual(SVG_HEADERS);
    expect(await first.text()).not.toMatch(/javascript|foo:href/i);
    // Signed URLs are for <img> tags on other sites, which the app-wide same-origin policy would block.
    expect(first.headers.get('cross-origin-resource-policy')).toBe('cross-origin');

    const cached = await fetch(url);
    expect([cached.status, cached.headers.get('x-cache')]).toEqual([200, 'HIT']);
    expect(headersOf(cached)).toEqual(SVG_HEADERS);

    const revalidated = await fetch(url, { headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(revalidated.status).toBe(304);
    expect(headersOf(revalidated)).toEqual(SVG_HEADERS);
  });

  it('runs no script when a victim opens the signed URL in Chromium and clicks, nor when the stored SVG is served bare', async () => {
    const url = signedSvgUrl();
    const signed = await clickThrough(url);
    expect(signed.response?.status()).toBe(200);
    // The sanitiser alone: the same bytes on the gateway's origin without any CSP still run nothing.
    const bare = await clickThrough(`${gateway.url}/__stored.svg`, answerWith(await (await fetch(url)).text()));
    expect({
      signed: { dialogs: signed.dialogs, title: signed.title, headers: headersOf(signed.response!) },
      bare: { dialogs: bare.dialogs, title: bare.title },
    }).toEqual({ signed: { dialogs: [], title: '', headers: SVG_HEADERS }, bare: { dialogs: [], title: '' } });
  });

  it('the headers alone stop the live payload on the unsanitised svg-to-img path (control: without them it runs)', async () => {
    // svg-to-img with format svg hands the user's SVG back as it is: the headers are all that protects it.
    const body = { svg: PAYLOAD, format: 'svg', width: 300, height: 200 };
    const converted = await gateway.post('/api/svg-to-img/convert', body);
    expect(converted.status).toBe(200);
    expect(headersOf(converted)).toEqual(SVG_HEADERS);
    const bytes = await converted.text();
    expect(bytes).toContain('foo:href');

    // Control: the very bytes on the gateway's origin without the headers run script on click, so the
    // payload and the click are live and the other cases are not passing by missing the link.
    const bare = await clickThrough(`${gateway.url}/__control.svg`, answerWith(bytes));
    expect(bare.dialogs).toEqual(['pwned']);

    // The same SVG from the gateway itself: the navigation is turned into the convert POST.
    const served = await clickThrough(`${gateway.url}/api/svg-to-img/convert`, async (page) => {
      await page.setRequestInterception(true);
      page.on('request', (request) => {
        const convert = request.isNavigationRequest() && request.url().endsWith('/api/svg-to-img/convert');
        const override = {
          method: 'POST' as const,
          postData: JSON.stringify(body),
          headers: { ...request.headers(), 'content-type': 'application/json' },
        };
        (convert ? request.continue(override) : request.continue()).catch(() => {});
      });
    });
    expect(served.response?.status()).toBe(200);
    expect(headersOf(served.response!)).toEqual(SVG_HEADERS);
    expect({ dialogs: served.dialogs, title: served.title }).toEqual({ dialogs: [], title: '' });
  });
});
