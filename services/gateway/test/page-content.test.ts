import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PageContentMessages } from '@render/contracts';
import { creditsUsed } from '@render/test-stack/account-calls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifiedUser } from './helpers/auth-stack.ts';
import { type FullStack, startFullStack } from './helpers/stack.ts';

// Pages for agents through the whole stack: a screenshot call with format markdown, html or text, metadata
// in JSON answers, the MCP tool read_page, and the refusals, against a real worker and Chromium and a page
// served on 127.0.0.1 (the one allow-listed origin).

const ROUTE = '/api/screenshot/convert';
const ARTICLE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Field notes</title>
<meta name="description" content="Notes from the field"><meta property="og:title" content="Field notes (OG)">
<meta name="twitter:card" content="summary"><link rel="icon" href="/favicon.svg"><link rel="canonical" href="/notes"></head>
<body><nav><a href="/">Home</a> Navigation links here</nav>
<article><h1>Field notes</h1>
<p>The first paragraph of the notes is long enough to be the main content, and links to <a href="/more">more notes</a>
for whoever wants them; a second sentence makes it longer than the navigation and the footer around it.</p>
<h2>Findings</h2><ul><li>Alpha</li><li>Beta</li></ul>
<p>The last paragraph says what was found, in a few more words than a caption would have, to close the article.</p>
<a href="javascript:void 0" onclick="void 0">Script link</a></article>
<footer>Footer text of the site</footer></body></html>`;

let stack: FullStack;
let user: Awaited<ReturnType<typeof verifiedUser>>;
let pages: { server: Server; origin: string };

beforeAll(async () => {
  const server = createServer((req, res) => {
    if (req.url === '/gone') return res.writeHead(410, { 'content-type': 'text/html' }).end('<p>Gone</p>');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  pages = { server, origin: `http://127.0.0.1:${port}` };
  stack = await startFullStack('page-content', {
    worker: { RENDER_QUEUES: 'screenshot', RENDER_TIMEOUT_MS: '8000', RENDER_EGRESS_ALLOWLIST: `127.0.0.1:${port}` },
  });
  user = await verifiedUser(stack.auth, { name: 'Page Reader' });
});

afterAll(async () => {
  await stack?.close();
  pages?.server.closeAllConnections();
  await new Promise((resolve) => pages?.server.close(resolve));
});

const read = (body: Record<string, unknown>) =>
  stack.gateway.post(ROUTE, { url: `${pages.origin}/article`, ...body }, { 'x-api-key': user.apiKey });

describe('screenshot formats markdown, html and text', () => {
  it('answers markdown as text/markdown, charged one credit like a screenshot', async () => {
    const before = await creditsUsed(stack.gateway.url, user.token);
    const res = await read({ format: 'markdown' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('inline; filename="page.md"');
    const markdown = await res.text();
    expect(markdown).toMatch(/^# Field notes \(OG\)\n/);
    expect(markdown).toContain('## Findings');
    expect(markdown).toContain(`[more notes](${pages.origin}/more)`);
    expect(markdown).toMatch(/^- +Alpha\n- +Beta$/m);
    expect(markdown).not.toContain('Navigation links');
    expect(markdown).not.toContain('Footer text');
    expect(await creditsUsed(stack.gateway.url, user.token)).toBe(before + 1);
  });

  it('answers text as text/plain, and html as a document that may not run script on the API’s origin', async () => {
    const text = await read({ format: 'text' });
    expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await text.text()).toContain('Findings\n');

    const html = await read({ format: 'html' });
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html.headers.get('content-security-policy')).toContain('sandbox');
    expect(html.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(html.headers.get('x-content-type-options')).toBe('nosniff');
    const doc = await html.text();
    expect(doc).toContain('<li>Alpha</li>');
    // Event handlers and script URLs are taken out of the markup.
    expect(doc).toContain('Script link');
    expect(doc).not.toMatch(/onclick|javascript:/);
  });

  it('answers JSON with the content and, with metadata: true, the page’s metadata', async () => {
    const res = await read({ format: 'markdown', output: 'json', metadata: true });
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: Record<string, unknown> };
    expect(data).toMatchObject({ format: 'markdown', mimeType: 'text/markdown; charset=utf-8', width: 0, height: 0 });
    expect(data.content).toMatch(/^# Field notes \(OG\)\n/);
    expect(Buffer.from(data.image as string, 'base64').toString('utf8')).toBe(data.content);
    expect(data.metadata).toEqual({
      title: 'Field notes',
      description: 'Notes from the field',
      canonicalUrl: `${pages.origin}/notes`,
      language: 'en',
      openGraph: { title: 'Field notes (OG)' },
      twitter: { card: 'summary' },
      favicon: `${pages.origin}/favicon.svg`,
      finalUrl: `${pages.origin}/article`,
      httpStatus: 200,
    });
  });

  it('adds metadata to a JSON image answer too, with the page’s status', async () => {
    const res = await stack.gateway.post(
      ROUTE,
      { url: `${pages.origin}/gone`, outputType: 'json', metadata: true, width: 400, height: 300 },
      {
        'x-api-key': user.apiKey,
      },
    );
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: Record<string, unknown> };
    expect(data.format).toBe('png');
    expect(data).not.toHaveProperty('content');
    expect(data.metadata).toMatchObject({ title: null, openGraph: {}, finalUrl: `${pages.origin}/gone`, httpStatus: 410 });
  });

  it('refuses metadata on a binary answer, and selector or clip with a text format, with catalogued messages', async () => {
    const before = await creditsUsed(stack.gateway.url, user.token);
    const binary = await read({ format: 'markdown', metadata: true });
    expect(binary.status).toBe(400);
    expect(await binary.json()).toMatchObject({
      message: PageContentMessages.metadataNeedsJson,
      messageId: 'pageContent.metadataNeedsJson',
    });
    for (const extra of [{ selector: 'article' }, { clip: { x: 0, y: 0, width: 10, height: 10 } }]) {
      const res = await read({ format: 'text', ...extra });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ messageId: 'pageContent.contentNoSelector' });
    }
    const unknown = await read({ format: 'docx' });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()) as { message: string }).toMatchObject({
      message: 'format must be one of: png, jpeg, webp, avif, pdf, mp4, webm, gif, markdown, html, text',
    });
    expect(await creditsUsed(stack.gateway.url, user.token)).toBe(before);
  });
});

describe('MCP read_page', () => {
  it('answers the page as markdown then its metadata, through the gateway’s /api/mcp, one credit', async () => {
    const client = new Client({ name: 'read-page-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${stack.gateway.url}/api/mcp`), {
        requestInit: { headers: { 'x-api-key': user.apiKey } },
      }),
    );
    try {
      const { tools } = await client.listTools();
      const tool = tools.find((t) => t.name === 'read_page');
      expect(tool?.inputSchema.required).toEqual(['url']);
      for (const field of ['format', 'metadata', 'fullPage', 'quality', 'selector', 'clip', 'pageSize'])
        expect(tool?.inputSchema.properties, field).not.toHaveProperty(field);
      const before = await creditsUsed(stack.gateway.url, user.token);
      const result = (await client.callTool({ name: 'read_page', arguments: { url: `${pages.origin}/article` } })) as CallToolResult;
      expect(result.isError ?? false).toBe(false);
      const [markdown, metadata] = result.content as { type: string; text: string }[];
      expect(markdown?.type).toBe('text');
      expect(markdown?.text).toMatch(/^# Field notes \(OG\)\n/);
      expect(JSON.parse(metadata?.text ?? '{}')).toMatchObject({
        metadata: { title: 'Field notes', finalUrl: `${pages.origin}/article`, httpStatus: 200, twitter: { card: 'summary' } },
      });
      expect(await creditsUsed(stack.gateway.url, user.token)).toBe(before + 1);

      const refused = (await client.callTool({ name: 'read_page', arguments: { url: 'ftp://example.com/' } })) as CallToolResult;
      expect(refused.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});
