import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ErrorCodes, problemType } from '@render/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DocsPage } from '../src/features/docs/docs.page.tsx';
import { ORIGIN_PLACEHOLDER, prepareGuideHtml } from '../src/features/docs/docs-guide.tsx';
import { DOCS_GUIDES, DOCS_SECTIONS } from '../src/features/docs/docs-sections.ts';
import { examplesOf, type OpenApiDocument, operationsFor } from '../src/features/docs/openapi-fields.ts';
import openapi from '../src/generated/openapi.json';
import { buildSnippet } from '../src/lib/request-snippets.ts';
import { parseFrontMatter } from '../vite/front-matter.ts';
import { headingId } from '../vite/markdown-content.plugin.ts';
import { renderPage } from './helpers/render-page.tsx';

const doc = openapi as unknown as OpenApiDocument;
const guide = (language: string, slug: string) =>
  parseFrontMatter(readFileSync(join(import.meta.dirname, '..', 'content', 'docs', language, `${slug}.md`), 'utf8'));
const codeBlocks = (body: string) => [...body.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], code: m[2]! }));

describe('the SDK, CLI and MCP guides', () => {
  it('each has a tab, and is written in English and French with the same code samples', () => {
    expect(DOCS_SECTIONS.filter((s) => s.guide).map((s) => s.guide)).toEqual([...DOCS_GUIDES]);
    for (const slug of DOCS_GUIDES) {
      const en = guide('en', slug);
      const fr = guide('fr', slug);
      expect(en.meta.title, slug).toBeTruthy();
      expect(fr.meta.title, slug).toBeTruthy();
      expect(fr.meta.title, slug).not.toBe(en.meta.title);
      // Same structure: as many sections and code blocks, in the same languages.
      expect(fr.body.match(/^## /gm)?.length, slug).toBe(en.body.match(/^## /gm)?.length);
      expect(
        codeBlocks(fr.body).map((b) => b.lang),
        slug,
      ).toEqual(codeBlocks(en.body).map((b) => b.lang));
    }
  });

  it('the errors guide has an entry for every error code, where each error body’s `type` points', () => {
    for (const language of ['en', 'fr']) {
      const body = guide(language, 'errors').body;
      const entries = [...body.matchAll(/^### `([A-Z_]+)`$/gm)].map((m) => m[1]);
      expect(entries, language).toEqual(Object.keys(ErrorCodes));
    }
    // The anchors the Markdown plugin gives those headings are the fragments of each code's `type`.
    for (const code of Object.keys(ErrorCodes)) {
      expect(problemType(code)).toBe(`/docs?tab=errors#${headingId(`<code>${code}</code>`)}`);
    }
  });

  it('show the SDK methods, CLI commands and MCP tools as they are named', () => {
    const sdk = guide('en', 'sdk').body;
    // One method, command and MCP tool a format.
    const formats = ['html', 'svg', 'chart', 'code', 'screenshot'];
    for (const format of formats) expect(sdk).toContain(`render.${format}(`);
    expect(sdk).toContain("render.template('YOUR_TEMPLATE_ID', { variables:");
    expect(sdk).toMatch(/new RenderClient\(\{ apiKey: process\.env\.RENDER_API_KEY, baseUrl: '__ORIGIN__' \}\)/);
    expect(sdk).toContain('RenderApiError');
    const cli = guide('en', 'cli').body;
    for (const command of [...formats, 'template', 'batch']) expect(cli).toContain(`renderapi ${command}`);
    // The batch lines are JSON, each with a kind, a body and an output file.
    const jsonl = codeBlocks(cli)
      .find((b) => b.code.includes('"kind"'))!
      .code.trim()
      .split('\n');
    for (const line of jsonl) expect(Object.keys(JSON.parse(line))).toEqual(['kind', 'body', 'out']);
    const mcp = guide('en', 'mcp').body;
    for (const tool of [...formats.map((format) => `render_${format}`), 'list_templates', 'generate_template_image']) {
      expect(mcp).toContain(`\`${tool}\``);
    }
    // Both client configurations are valid JSON.
    for (const block of codeBlocks(mcp).filter((b) => b.lang === 'json')) {
      expect(JSON.parse(block.code.replaceAll(ORIGIN_PLACEHOLDER, 'https://x.test')).mcpServers.renderapi).toBeTruthy();
    }
  });

  it('put this site’s origin and the reader’s key in place, and a copy button on each code block', () => {
    const html = '<p>YOUR_API_KEY</p><pre class="shiki"><code>__ORIGIN__/api/mcp YOUR_API_KEY</code></pre>';
    const signedOut = prepareGuideHtml(html, { origin: 'https://render.test', copyLabel: 'Copy' });
    expect(signedOut).toContain('https://render.test/api/mcp YOUR_API_KEY');
    expect(signedOut.match(/data-copy-code/g)).toHaveLength(1);
    const signedIn = prepareGuideHtml(html, { origin: 'https://render.test', apiKey: 'rk_<b>', copyLabel: 'Copier' });
    expect(signedIn).toContain('rk_&lt;b&gt;');
    expect(signedIn).not.toContain('YOUR_API_KEY');
    expect(signedIn).toMatch(
      /<div class="[^"]*"><div class="[^"]*"><button type="button" data-copy-code[^>]*>Copier<\/button><\/div><pre class="shiki">.*<\/pre><\/div>/,
    );
  });

  it('on the docs page: the MCP tab shows the guide with this origin, and its copy buttons copy the code', async () => {
    const user = userEvent.setup();
    // After setup: user-event puts its own clipboard stub on navigator.
    const writeText = vi.fn(async (_text: string) => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderPage(DocsPage, { path: '/docs', url: '/docs?tab=mcp' });
    const article = await screen.findByTestId('guide-mcp', {}, { timeout: 10_000 });
    expect(screen.getByRole('heading', { level: 2, name: 'MCP server' })).toBeInTheDocument();
    expect(article.textContent).toContain(`${window.location.origin}/api/mcp`);
    expect(article.textContent).not.toContain(ORIGIN_PLACEHOLDER);
    const buttons = screen.getAllByRole('button', { name: 'Copy' });
    expect(buttons.length).toBeGreaterThanOrEqual(3);
    await user.click(buttons.at(-1)!);
    await waitFor(() => expect(writeText).toHaveBeenCalled());
    expect(writeText.mock.calls[0]).toEqual([
      expect.stringContaining(`curl -sS --fail-with-body -X POST '${window.location.origin}/api/mcp'`),
    ]);
  });
});

describe('the guides of issue 30: page interactions, pages for agents, videos, batches, named API keys', () => {
  const ISSUE_30 = {
    'screenshot-interactions': {
      heading: 'What these options do',
      fields: ['hideSelectors', 'click', 'scrollTo', 'timezone', 'geolocation', 'failOnHttpStatus', 'failOnConsoleError', 'blockRequests'],
      sdk: ['render.screenshot(', '--fail-on-status', '--fail-on-console-error', '--scroll-to', '--geolocation', '--block', '--hide'],
    },
    'read-page': {
      heading: 'Reading a page instead of looking at it',
      fields: ['format', 'metadata'],
      sdk: ['render.readPage(', '`read_page`'],
    },
    videos: {
      heading: 'A screenshot that moves',
      fields: ['format', 'scenario', 'duration', 'fps'],
      sdk: ['render.screenshot(', '--format mp4'],
    },
    batches: {
      heading: 'Many renders, one call',
      fields: ['items', 'defaults', 'webhook', 'kind', 'body'],
      sdk: ['render.batch(', 'render.getBatch(', 'render.batchArchive('],
    },
    'api-keys': {
      heading: 'Named keys beside the default key',
      fields: ['name', 'scope', 'expiresAt'],
      sdk: ['new RenderClient(', 'RenderApiError'],
    },
  } as const;
  /** The JSON body of each curl call in a bash block, with the path it posts to. */
  const curlBodies = (code: string) =>
    code.split(/(?=curl -sS)/).flatMap((command) => {
      const path = /'__ORIGIN__(\/api\/[\w/-]+)'/.exec(command)?.[1];
      const body = /-d '([^']*)'/.exec(command)?.[1];
      return path && body ? [{ path, body: JSON.parse(body) as Record<string, unknown> }] : [];
    });

  it('each has a curl, JavaScript (fetch), Python (requests) and SDK example, in English and French', () => {
    for (const [slug, { fields, sdk }] of Object.entries(ISSUE_30)) {
      expect(DOCS_GUIDES, slug).toContain(slug);
      expect(DOCS_SECTIONS.find((s) => s.id === slug)?.translated, slug).toBe(true);
      for (const language of ['en', 'fr']) {
        const body = guide(language, slug).body;
        const code = codeBlocks(body);
        expect(
          code.map((b) => b.lang),
          `${language}/${slug}`,
        ).toEqual(expect.arrayContaining(['bash', 'js', 'python']));
        expect(body, `${language}/${slug}`).toContain('curl -sS --fail-with-body');
        expect(body, `${language}/${slug}`).toContain('await fetch(');
        expect(body, `${language}/${slug}`).toContain('import requests');
        expect(body, `${language}/${slug}`).toContain("from 'render-api-sdk'");
        for (const text of sdk) expect(body, `${language}/${slug}`).toContain(text);
        for (const field of fields) expect(body, `${language}/${slug}: ${field}`).toContain(`\`${field}\``);
      }
    }
  });

  it('post only fields the OpenAPI document declares for their call', () => {
    const properties = (path: string) =>
      Object.keys(
        (doc.paths[path] as { post: { requestBody: { content: { 'application/json': { schema: { properties: object } } } } } }).post
          .requestBody.content['application/json'].schema.properties,
      );
    const calls = Object.keys(ISSUE_30).flatMap((slug) =>
      codeBlocks(guide('en', slug).body)
        .filter((b) => b.lang === 'bash')
        .flatMap((b) => curlBodies(b.code)),
    );
    expect(calls.map((c) => c.path)).toEqual(
      expect.arrayContaining(['/api/screenshot/convert', '/api/auth/keys', '/api/auth/login', '/api/batch']),
    );
    for (const call of calls.filter((c) => c.path !== '/api/mcp')) {
      expect(properties(call.path), call.path).toEqual(expect.arrayContaining(Object.keys(call.body)));
    }
  });

  it('the named keys tab shows the guide, then the three key calls', async () => {
    const keys = DOCS_SECTIONS.find((s) => s.id === 'api-keys')!;
    expect(operationsFor(doc, keys.match).map((o) => `${o.method.toUpperCase()} ${o.path}`)).toEqual(
      expect.arrayContaining(['GET /api/auth/keys', 'POST /api/auth/keys', 'DELETE /api/auth/keys/{id}']),
    );
    renderPage(DocsPage, { path: '/docs', url: '/docs?tab=api-keys' });
    const article = await screen.findByTestId('guide-api-keys', {}, { timeout: 10_000 });
    expect(screen.getByRole('heading', { level: 2, name: ISSUE_30['api-keys'].heading })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'API keys' })).toBeInTheDocument();
    expect(article.textContent).toContain(`${window.location.origin}/api/auth/keys`);
  });
});

describe('examples that fail loudly', () => {
  const guides = (dir: string) =>
    ['en', 'fr'].flatMap((language) =>
      readdirSync(join(import.meta.dirname, '..', 'content', dir, language))
        .filter((file) => file.endsWith('.md'))
        .map((file) => ({
          file: `${dir}/${language}/${file}`,
          body: readFileSync(join(import.meta.dirname, '..', 'content', dir, language, file), 'utf8'),
        })),
    );

  it('every curl command of the guides and articles says -sS --fail-with-body (an error is not saved as the image)', () => {
    const commands = [...guides('docs'), ...guides('blog')].flatMap(({ file, body }) =>
      codeBlocks(body).flatMap((block) => [...block.code.matchAll(/(?:^|[$(|]\s*)curl\b[^\n]*/gm)].map((m) => `${file}: ${m[0]}`)),
    );
    expect(commands.length).toBeGreaterThan(5);
    expect(commands.filter((command) => !command.includes('curl -sS --fail-with-body'))).toEqual([]);
  });

  it('the generated curl snippets too', () => {
    const curl = buildSnippet('curl', {
      baseUrl: 'https://x.test',
      method: 'POST',
      path: '/api/html-to-img/convert',
      body: { html: 'x' },
      outputFile: 'a.png',
    });
    expect(curl.startsWith("curl -sS --fail-with-body -X POST 'https://x.test/api/html-to-img/convert'")).toBe(true);
  });

  it('the screenshot guides and tab say how to capture a page offline or on a private network', async () => {
    for (const language of ['en', 'fr']) {
      for (const slug of ['cli', 'sdk']) expect(guide(language, slug).body, `${language}/${slug}`).toContain('RENDER_EGRESS_ALLOWLIST');
    }
    renderPage(DocsPage, { path: '/docs', url: '/docs?tab=screenshot' });
    expect(await screen.findByTestId('screenshot-offline-note')).toHaveTextContent('RENDER_EGRESS_ALLOWLIST');
  });
});

describe('further examples of an operation (the PDF calls)', () => {
  it('are read from the document, main one first, and shown in the tab with their name', async () => {
    const html = examplesOf(doc, 'post', '/api/html-to-img/convert');
    expect(html.map((e) => e.name)).toEqual([undefined, 'PDF']);
    expect(html[1]!.body).toMatchObject({ format: 'pdf', pageSize: 'A4' });
    expect(examplesOf(doc, 'post', '/api/svg-to-img/convert')).toHaveLength(1);
    renderPage(DocsPage, { path: '/docs', url: '/docs?tab=html' });
    expect(await screen.findByRole('heading', { level: 3, name: 'Example: PDF' })).toBeInTheDocument();
    const snippets = screen.getAllByTestId('snippet-curl');
    expect(snippets).toHaveLength(2);
    expect(snippets[1]!.textContent).toContain('"format":"pdf"');
    expect(snippets[1]!.textContent).toContain('-o hello.pdf');
  });
});
