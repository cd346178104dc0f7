import { createServer, type Server } from 'node:http';
import { parseAllowlist } from '@render/egress-policy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EgressProxy, startEgressProxy } from '../src/egress/egress-proxy.ts';
import { RenderError } from '../src/renderers/page/render-error.ts';
import type { RendererContext } from '../src/renderers/page/renderer.ts';
import { renderScreenshot } from '../src/renderers/screenshot/screenshot.renderer.ts';
import { type Canary, closeServers, listen, startCanary } from './helpers/local-servers.ts';
import { screenshotJob } from './helpers/screenshot-job.ts';
import { startTestPool, type TestPool } from './helpers/test-pool.ts';

// Pages for agents (page-content.ts): the main content as markdown, HTML or text and the page's metadata,
// read by Readability and turndown inside a real Chromium, every request through the real egress proxy.

let proxy: EgressProxy;
let browser: TestPool;
let pages: { server: Server; port: number };
let canary: Canary;

const ARTICLE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Reading pages | Example</title></head>
<body>
  <nav><a href="/">Home</a> <a href="/pricing">Pricing</a> <span>Site navigation menu</span></nav>
  <div id="onetrust-consent-sdk"><div id="onetrust-banner-sdk" style="position:fixed;top:0;height:100px;background:#f00">
    <p>Onetrust consent text about partners</p>
    <button id="onetrust-accept-btn-handler">Accept All Cookies</button>
    <button id="onetrust-reject-all-handler" onclick="document.getElementById('onetrust-consent-sdk').remove()">Reject All</button>
  </div></div>
  <main><article>
    <h1>Reading pages</h1>
    <p>Agents read pages as text. This paragraph is long enough for Readability to take it as the main content of the
    page, with a <a href="/docs/reading">link to the reading docs</a> in the middle of it, and more words after it so that
    the score of this block is clearly above that of the navigation and the footer around it.</p>
    <p id="cookie-accept-line">We use cookies to track you everywhere, and this sentence is long enough to read as a paragraph of the article itself.</p>
    <h2>What it keeps</h2>
    <p>Headings, paragraphs, lists and tables are kept; the rest of the page is left out. Here is a list of them, then a
    table that compares two formats, as an article would have.</p>
    <ul><li>First point</li><li>Second point</li></ul>
    <table><thead><tr><th>Format</th><th>Type</th></tr></thead><tbody><tr><td>markdown</td><td>text/markdown</td></tr><tr><td>text</td><td>text/plain</td></tr></tbody></table>
    <p>A last paragraph closes the article, with enough text in it to count as content and not as a caption of the table.</p>
  </article></main>
  <footer><p>Footer copyright notice and legal links</p></footer>
</body></html>`;

const ALL_TAGS = `<!doctype html><html lang="fr-FR"><head><meta charset="utf-8">
<title>Tagged page</title>
<meta name="description" content="A page with every tag">
<link rel="canonical" href="/canonical/page">
<link rel="icon" href="/static/icon.png">
<meta property="og:title" content="OG title"><meta property="og:image" content="https://cdn.example/og.png">
<meta property="og:type" content="article">
<meta name="twitter:card" content="summary_large_image"><meta name="twitter:site" content="@example">
</head><body><p>Tagged.</p></body></html>`;

beforeAll(async () => {
  canary = await startCanary();
  const server = createServer((req, res) => {
    const html = (body: string, status = 200) => res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    if (req.url === '/article') return html(ARTICLE);
    if (req.url === '/tagged') return html(ALL_TAGS);
    if (req.url === '/old') return res.writeHead(301, { location: '/tagged' }).end();
    if (req.url === '/missing') return html('<title>Not here</title><p>Gone</p>', 404);
    if (req.url === '/empty') return html('<!doctype html><html><body></body></html>');
    return html('<!doctype html><body><p>bare</p></body>');
  });
  pages = { server, port: await listen(server) };
  proxy = await startEgressProxy({ allowlist: parseAllowlist(`127.0.0.1:${pages.port}`) });
  browser = await startTestPool('screenshot', proxy.url, 'page-content-test');
});

afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  closeServers(pages?.server, canary?.server);
});

const ctx: RendererContext = {
  pool: async () => browser.cluster,
  timeoutMs: 10_000,
  imageFetch: { proxyUrl: 'http://127.0.0.1:9', maxBytes: 1024, timeoutMs: 1_000 },
};

const at = (path: string) => `http://127.0.0.1:${pages.port}${path}`;

describe('page content', () => {
  it('answers the main content as markdown: headings, a link, a list and a table; no navigation, footer or banner', async () => {
    const result = await renderScreenshot(screenshotJob(at('/article'), { format: 'markdown' }), ctx);
    expect(result).toMatchObject({ format: 'markdown', mimeType: 'text/markdown; charset=utf-8', width: 0, height: 0 });
    const markdown = result.bytes.toString('utf8');
    expect(markdown).toMatch(/^# Reading pages \| Example\n\nAgents read pages as text\. /);
    expect(markdown).toContain('## What it keeps');
    expect(markdown).toContain(`[link to the reading docs](${at('/docs/reading')})`);
    expect(markdown).toMatch(/^- +First point\n- +Second point$/m);
    expect(markdown).toContain('| Format | Type |');
    expect(markdown).toContain('| markdown | text/markdown |');
    for (const outside of ['Site navigation', 'Footer copyright', 'We use cookies', 'Onetrust consent', 'Accept All'])
      expect(markdown, outside).not.toContain(outside);
  });

  it('leaves out a notice the cookie-notice list hides inside the article, and keeps it with hideCookieBanners: false', async () => {
    // Inside the main content, so only the page's own hiding (display: none, dropped from the copy) keeps it out.
    const hidden = await renderScreenshot(screenshotJob(at('/article'), { format: 'text' }), ctx);
    expect(hidden.bytes.toString('utf8')).not.toContain('We use cookies');
    const shown = await renderScreenshot(screenshotJob(at('/article'), { format: 'text', hideCookieBanners: false }), ctx);
    expect(shown.bytes.toString('utf8')).toContain('We use cookies to track you everywhere');
  });

  it('answers the content as text and as an HTML document', async () => {
    const text = (await renderScreenshot(screenshotJob(at('/article'), { format: 'text' }), ctx)).bytes.toString('utf8');
    expect(text).toMatch(
      /^Reading pages \| Example\n\nAgents read pages as text\. This paragraph is long enough for Readability to take it as the main content of the page, /,
    );
    expect(text).toContain('What it keeps\n');
    expect(text).toContain('First point\nSecond point');
    expect(text).toContain('link to the reading docs');
    expect(text).toContain('Format\tType\nmarkdown\ttext/markdown\n');
    expect(text).not.toContain('<');
    expect(text).not.toContain('Site navigation');

    const html = await renderScreenshot(screenshotJob(at('/article'), { format: 'html' }), ctx);
    expect(html.mimeType).toBe('text/html; charset=utf-8');
    const doc = html.bytes.toString('utf8');
    expect(doc).toMatch(/^<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Reading pages \| Example<\/title>/);
    expect(doc).toContain(`<a href="${at('/docs/reading')}">link to the reading docs</a>`);
    expect(doc).toContain('<li>First point</li>');
    expect(doc).not.toContain('Site navigation');
    expect(doc).not.toContain('<script');
  });

  it('reads every metadata field of a page that has them all, after a redirect', async () => {
    const result = await renderScreenshot(screenshotJob(at('/old'), { format: 'png', metadata: true }), ctx);
    expect(result.format).toBe('png');
    expect(result.metadata).toEqual({
      title: 'Tagged page',
      description: 'A page with every tag',
      canonicalUrl: at('/canonical/page'),
      language: 'fr-FR',
      openGraph: { title: 'OG title', image: 'https://cdn.example/og.png', type: 'article' },
      twitter: { card: 'summary_large_image', site: '@example' },
      favicon: at('/static/icon.png'),
      finalUrl: at('/tagged'),
      httpStatus: 200,
    });
  });

  it('answers nulls and empty objects for a page without tags, with its status', async () => {
    const result = await renderScreenshot(screenshotJob(at('/missing'), { format: 'markdown', metadata: true }), ctx);
    expect(result.metadata).toEqual({
      title: 'Not here',
      description: null,
      canonicalUrl: null,
      language: null,
      openGraph: {},
      twitter: {},
      favicon: null,
      finalUrl: at('/missing'),
      httpStatus: 404,
    });
    const empty = await renderScreenshot(screenshotJob(at('/empty'), { format: 'text', metadata: true }), ctx);
    expect(empty.metadata).toMatchObject({ title: null, language: null, httpStatus: 200 });
    expect(empty.bytes.length).toBeGreaterThan(0);
  });

  it('applies the egress policy to a content read as to a capture', async () => {
    const err = await renderScreenshot(screenshotJob(`http://127.0.0.1:${canary.port}/`, { format: 'markdown' }), ctx).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(RenderError);
    expect((err as RenderError).message).toBe(
      'Failed to capture screenshot: the address is not allowed (127.0.0.1 is in a private, loopback or reserved network)',
    );
    expect(canary.hits).toEqual([]);
  });
});
