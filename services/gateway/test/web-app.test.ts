import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from './helpers/raw-http.ts';
import { startGateway, type TestGateway } from './helpers/stack.ts';

/** The gateway serving a built web app (a small stand-in dist with the same layout as Vite's). */
const dist = mkdtempSync(join(tmpdir(), 'web-dist-'));
mkdirSync(join(dist, 'assets'));
writeFileSync(join(dist, 'index.html'), '<!doctype html><html><head><!--app-config--></head><body><div id="root"></div></body></html>');
writeFileSync(join(dist, 'assets', 'app-abc123.js'), 'console.log("app")');
writeFileSync(join(dist, 'assets', 'app-abc123.js.map'), '{}');
writeFileSync(join(dist, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
// A larger chunk with the copies the build's precompress step writes beside it (apps/web/vite/precompress.plugin.ts).
const chunk = `export const rows = ${JSON.stringify(Array.from({ length: 300 }, (_, i) => ({ id: i })))};`;
writeFileSync(join(dist, 'assets', 'chunk-77aa.js'), chunk);
writeFileSync(join(dist, 'assets', 'chunk-77aa.js.br'), brotliCompressSync(chunk));
writeFileSync(join(dist, 'assets', 'chunk-77aa.js.gz'), gzipSync(chunk));

// The build's prerendered public pages (apps/web scripts/prerender.mjs): `/` and `/docs` in each language.
const prerenderedPage = (lang: string, title: string) =>
  `<!doctype html><html lang="${lang}" data-prerendered="${lang}"><head><!--app-config--></head><body><div id="root"><h1>${title}</h1></div></body></html>`;
for (const [lang, path, title] of [
  ['en', '', 'Home'],
  ['fr', '', 'Accueil'],
  ['en', 'docs', 'Docs'],
  ['fr', 'docs', 'Documentation'],
]) {
  mkdirSync(join(dist, 'prerendered', lang!, path!), { recursive: true });
  writeFileSync(join(dist, 'prerendered', lang!, path!, 'index.html'), prerenderedPage(lang!, title!));
}

let plain: TestGateway;
let withTelemetry: TestGateway;
let apiOnly: TestGateway;

beforeAll(async () => {
  plain = await startGateway({ WEB_DIST_DIR: dist });
  withTelemetry = await startGateway({
    WEB_DIST_DIR: dist,
    APP_ENV: 'production',
    POSTHOG_KEY: 'phc_</script><script>alert(1)</script>',
    SENTRY_DSN: 'https://key@o1.ingest.de.sentry.io/42',
  });
  apiOnly = await startGateway({});
});
afterAll(async () => {
  await Promise.all([plain.close(), withTelemetry.close(), apiOnly.close()]);
  rmSync(dist, { recursive: true, force: true });
});

describe('the built web app, served by the gateway', () => {
  it('serves the build’s brotli or gzip copy to a client that accepts it, the file itself otherwise', async () => {
    const url = `${plain.url}/assets/chunk-77aa.js`;
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0.5, gzip;q=1', 'gzip'],
    ] as const) {
      const answer = await rawRequest(url, { headers: { 'accept-encoding': accept } });
      expect(answer.status, accept).toBe(200);
      expect(answer.headers['content-encoding'], accept).toBe(encoding);
      expect(answer.headers['content-type']).toMatch(/^(text|application)\/javascript/);
      expect(answer.headers.vary).toMatch(/accept-encoding/i);
      expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(answer.decoded().toString()).toBe(chunk);
    }
    const identity = await rawRequest(url);
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.headers.vary).toMatch(/accept-encoding/i);
    expect(identity.body.toString()).toBe(chunk);
    // The copies have no URL of their own.
    const copy = await rawRequest(`${url}.br`);
    expect(copy.headers['content-type']).toMatch(/^text\/html/);
  });

  it('answers index.html compressed when accepted (made once at boot, with its runtime config)', async () => {
    for (const encoding of ['br', 'gzip'] as const) {
      const answer = await rawRequest(`${withTelemetry.url}/dashboard`, { headers: { 'accept-encoding': encoding } });
      expect(answer.headers['content-encoding']).toBe(encoding);
      expect(answer.headers.vary).toMatch(/accept-encoding/i);
      const html = answer.decoded().toString();
      expect(html).toContain('<div id="root">');
      expect(html).toContain('https://key@o1.ingest.de.sentry.io/42');
    }
    const plainPage = await rawRequest(`${withTelemetry.url}/dashboard`);
    expect(plainPage.headers['content-encoding']).toBeUndefined();
    expect(plainPage.body.toString()).toContain('<div id="root">');
  });

  it('answers index.html, never cached, for / and for any client route', async () => {
    for (const path of ['/', '/blog/some-post', '/dashboard', '/template/edit/42?x=1', '/index.html']) {
      const response = await fetch(`${plain.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(await response.text()).toContain('<div id="root">');
    }
  });

  it('caches hashed assets for a year and other files for an hour; source maps are not served', async () => {
    const asset = await fetch(`${plain.url}/assets/app-abc123.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await asset.text()).toBe('console.log("app")');
    const logo = await fetch(`${plain.url}/logo.svg`);
    expect(logo.headers.get('cache-control')).toBe('public, max-age=3600');
    const map = await fetch(`${plain.url}/assets/app-abc123.js.map`);
    expect(map.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('serves source maps only when asked for (WEB_SOURCEMAPS=public)', async () => {
    const asked = await startGateway({ WEB_DIST_DIR: dist, WEB_SOURCEMAPS: 'public' });
    try {
      const map = await fetch(`${asked.url}/assets/app-abc123.js.map`);
      expect(map.status).toBe(200);
      expect(await map.text()).toBe('{}');
    } finally {
      await asked.close();
    }
    expect((await fetch(`${plain.url}/assets/app-abc123.js.map`)).headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('keeps unknown /api paths JSON 404s, and other methods on pages refused', async () => {
    const response = await fetch(`${plain.url}/api/nope`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
    expect((await fetch(`${plain.url}/api`)).status).toBe(404);
    const post = await fetch(`${plain.url}/some-page`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(post.status).toBe(404);
    expect(await post.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect((await fetch(`${plain.url}/api/ping`)).status).toBe(200);
  });

  it('writes the runtime config into the page, escaped so no value can end the script element', async () => {
    const html = await (await fetch(`${withTelemetry.url}/pricing`)).text();
    const json = /<script type="application\/json" id="app-config">(.*?)<\/script>/.exec(html)?.[1];
    expect(json).toBeDefined();
    expect(html).not.toContain('<script>alert(1)');
    expect(JSON.parse(json!)).toEqual({
      environment: 'production',
      posthogKey: 'phc_</script><script>alert(1)</script>',
      posthogHost: 'https://eu.i.posthog.com',
      sentryDsn: 'https://key@o1.ingest.de.sentry.io/42',
    });
    const plainHtml = await (await fetch(`${plain.url}/`)).text();
    expect(JSON.parse(/id="app-config">(.*?)<\/script>/.exec(plainHtml)![1]!)).toEqual({ environment: 'development' });
  });

  it('admits the analytics and error-reporting hosts in the CSP only when they are configured', async () => {
    const csp = (await fetch(`${withTelemetry.url}/`)).headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(
      /connect-src 'self' https:\/\/eu\.i\.posthog\.com https:\/\/eu-assets\.i\.posthog\.com https:\/\/o1\.ingest\.de\.sentry\.io/,
    );
    expect(csp).toMatch(/script-src 'self' https:\/\/eu-assets\.i\.posthog\.com;/);
    const plainCsp = (await fetch(`${plain.url}/`)).headers.get('content-security-policy') ?? '';
    expect(plainCsp).toContain("connect-src 'self';");
    expect(plainCsp).toContain("script-src 'self';");
  });

  it('answers a prerendered page in the stored language, else the best accepted one, else English', async () => {
    const page = async (path: string, headers: Record<string, string> = {}) => {
      const answer = await rawRequest(`${withTelemetry.url}${path}`, { headers: { 'accept-encoding': 'br', ...headers } });
      expect(answer.headers['content-encoding']).toBe('br');
      expect(answer.headers.vary).toMatch(/accept-language/i);
      expect(answer.headers['cache-control']).toBe('no-cache');
      return answer.decoded().toString();
    };
    expect(await page('/')).toContain('<h1>Home</h1>');
    expect(await page('/', { 'accept-language': 'fr-FR,fr;q=0.9,en;q=0.8' })).toContain('<h1>Accueil</h1>');
    expect(await page('/docs', { 'accept-language': 'de-DE, en;q=0.5, fr;q=0.7' })).toContain('<h1>Documentation</h1>');
    expect(await page('/docs/?utm_source=news&ref=hn', { 'accept-language': 'de, es' })).toContain('<h1>Docs</h1>');
    // A query that may change what the page shows (a docs tab): the page drawn for the path alone would not fit.
    expect(await page('/docs?tab=html')).toContain('<div id="root"></div>');
    expect(await page('/docs/?utm_source=news&tab=html')).toContain('<div id="root"></div>');
    // The stored choice (the `language` cookie the app writes) wins over the browser's languages.
    expect(await page('/docs', { 'accept-language': 'fr', cookie: 'a=1; language=en' })).toContain('<h1>Docs</h1>');
    expect(await page('/', { cookie: 'language=fr' })).toContain('<h1>Accueil</h1>');
    const html = await page('/', { cookie: 'language=xx', 'accept-language': 'xx' });
    expect(html).toContain('<h1>Home</h1>');
    expect(html).toContain('id="app-config"');
    // Pages the build did not prerender are the client-rendered index.html; the files have no URL of their own.
    expect(await page('/dashboard', { cookie: 'language=fr' })).toContain('<div id="root"></div>');
    expect(await page('/prerendered/fr/index.html')).toContain('<div id="root"></div>');
  });

  it('serves no pages without WEB_DIST_DIR', async () => {
    const response = await fetch(`${apiOnly.url}/`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});
