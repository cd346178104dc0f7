import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type PageContentFormat, PageContentLimits, PageContentMimeTypes, type PageMetadata, type RenderWarning } from '@render/contracts';
import type { CDPSession } from 'puppeteer-core';
import type { RenderedImage } from '../page/renderer.ts';
import { failure } from './page-navigation.ts';
import { evaluateIsolated } from './utility-world.ts';

/**
 * Pages for agents: the page's main content as markdown, HTML or text, read after the same load as a capture
 * (so cookie banners are hidden and every request went through the egress proxy).
 *
 * Mozilla's Readability (Apache-2.0) finds the main content and turndown (MIT, with its GFM plugin for tables
 * and strikethrough) turns it into markdown. Both run *inside the page*, in an isolated world (the page's DOM,
 * none of its globals: page scripts cannot see or tamper with them), on a copy of the document: the untrusted
 * markup is never parsed in Node, and the worker only receives a bounded string. Elements the page does not
 * show (display: none, which is how the cookie-notice list hides banners) are dropped from the copy first, so
 * a hidden banner's text does not end up in the content.
 */

const require = createRequire(import.meta.url);

let libraries: string | undefined;

/** The three libraries' browser builds as CommonJS modules, each evaluated in its own function scope. Read once. */
function librarySource(): string {
  if (!libraries) {
    const readability = join(dirname(require.resolve('@mozilla/readability/package.json')), 'Readability.js');
    const turndown = join(dirname(require.resolve('turndown/package.json')), 'lib', 'turndown.browser.cjs.js');
    const gfm = join(dirname(require.resolve('turndown-plugin-gfm/package.json')), 'lib', 'turndown-plugin-gfm.browser.cjs.js');
    const wrap = (file: string) =>
      `((module, exports) => {\n${readFileSync(file, 'utf8')}\n;return module.exports;})({ exports: {} }, undefined)`;
    // `exports` for the GFM plugin is its module's own object: pass it as both.
    const wrapExports = (file: string) =>
      `((module) => { const exports = module.exports;\n${readFileSync(file, 'utf8')}\n;return module.exports;})({ exports: {} })`;
    libraries = `const Readability = ${wrap(readability)};\nconst TurndownService = ${wrap(turndown)};\nconst gfmPlugin = ${wrapExports(gfm)};\n`;
  }
  return libraries;
}

/**
 * Runs in the page's isolated world. `FORMAT`, `MAX_CHARS` and `MAX_ELEMENTS` are filled in by `contentScript`.
 * Answers { content, title, cut } or { error }.
 */
const READ_CONTENT = `
  const live = document.body ? document.body.getElementsByTagName('*') : [];
  if (live.length > MAX_ELEMENTS) return { error: 'too-large' };
  const copy = document.cloneNode(true);
  const copied = copy.body ? copy.body.getElementsByTagName('*') : [];
  // The same elements in the same order (the copy was made synchronously): mark those the page hides.
  const hidden = [];
  for (let i = 0; i < live.length && i < copied.length; i++) {
    const element = live[i];
    if (typeof element.checkVisibility === 'function' ? !element.checkVisibility({ visibilityProperty: true }) : false) hidden.push(copied[i]);
  }
  for (const element of hidden) element.remove();
  let article = null;
  try {
    article = new Readability(copy, { maxElemsToParse: MAX_ELEMENTS, keepClasses: false }).parse();
  } catch (err) {
    return { error: String((err && err.message) || err).slice(0, 200) };
  }
  const title = ((article && article.title) || document.title || '').trim();
  // Not an article (a home page, an app): the visible body, as Readability would have cleaned none of it.
  const html = article && article.content ? article.content : (copy.body ? copy.body.innerHTML : '');
  const inert = document.implementation.createHTMLDocument('');
  inert.body.innerHTML = html;
  for (const element of inert.querySelectorAll('script, style, noscript, template, iframe, object, embed')) element.remove();
  // The html format is markup a reader may open: no event handlers or script URLs left in it.
  for (const element of inert.body.querySelectorAll('*')) {
    for (const attribute of [...element.attributes]) {
      const script = /^on/i.test(attribute.name) || /^s*(?:javascript|vbscript|data):/i.test(attribute.value);
      if (script && !(attribute.name === 'src' && /^s*data:image//i.test(attribute.value))) element.removeAttribute(attribute.name);
    }
  }
  let content;
  if (FORMAT === 'markdown') {
    const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '*' });
    service.use(gfmPlugin.gfm);
    const markdown = service.turndown(inert.body.innerHTML).trim();
    content = title && !/^#\\s/.test(markdown) ? '# ' + title.replace(/\\s+/g, ' ') + '\\n\\n' + markdown : markdown;
  } else if (FORMAT === 'text') {
    // The markup's own line breaks and indentation are not the text's (except in <pre>): one space each.
    const walker = inert.createTreeWalker(inert.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.parentElement || !node.parentElement.closest('pre')) node.data = node.data.replace(/\\s+/g, ' ');
    }
    const blocks = 'P,DIV,SECTION,ARTICLE,H1,H2,H3,H4,H5,H6,LI,TR,PRE,BLOCKQUOTE,UL,OL,TABLE,DT,DD,FIGCAPTION,HR,BR'.split(',');
    for (const element of inert.body.querySelectorAll(blocks.join(','))) element.after('\\n');
    for (const cell of inert.body.querySelectorAll('td, th')) cell.after('\\t');
    const text = inert.body.textContent.replace(/[ \\u00a0]+/g, ' ').replace(/[ \\t]*\\n[ \\t]*/g, '\\n').replace(/\\n{3,}/g, '\\n\\n').trim();
    content = title && !text.startsWith(title) ? title + '\\n\\n' + text : text;
  } else {
    const out = document.implementation.createHTMLDocument(title);
    const lang = document.documentElement.getAttribute('lang');
    if (lang) out.documentElement.setAttribute('lang', lang);
    const charset = out.createElement('meta');
    charset.setAttribute('charset', 'utf-8');
    out.head.prepend(charset);
    const main = out.createElement('article');
    main.innerHTML = inert.body.innerHTML;
    out.body.append(main);
    content = '<!DOCTYPE html>\\n' + out.documentElement.outerHTML;
  }
  const cut = content.length > MAX_CHARS;
  return { content: cut ? content.slice(0, MAX_CHARS) : content, title, cut };
`;

export function contentScript(format: PageContentFormat): string {
  return `(() => {\n${librarySource()}\nconst FORMAT = ${JSON.stringify(format)}; const MAX_CHARS = ${PageContentLimits.maxContentChars}; const MAX_ELEMENTS = ${PageContentLimits.maxElements};\ntry {${READ_CONTENT}} catch (err) { return { error: String((err && err.message) || err).slice(0, 200) }; }\n})()`;
}

type ContentAnswer = { content: string; title: string; cut: boolean } | { error: string };

/** The page's main content in `format`, as the job's result (no image: width and height are 0). */
export async function readPageContent(session: CDPSession, format: PageContentFormat): Promise<RenderedImage> {
  const answer = await evaluateIsolated<ContentAnswer>(session, contentScript(format));
  if (!answer || typeof answer !== 'object') throw failure('the page’s content could not be read');
  if ('error' in answer) {
    if (answer.error === 'too-large' || answer.error.startsWith('Aborting parsing document'))
      throw failure(`the page has more than ${PageContentLimits.maxElements.toLocaleString('en-US')} elements to read`);
    throw failure('the page’s content could not be read');
  }
  const content = typeof answer.content === 'string' ? answer.content.slice(0, PageContentLimits.maxContentChars) : '';
  const warnings: RenderWarning[] = answer.cut
    ? [
        {
          code: 'CONTENT_CUT',
          message: `The content was cut at ${PageContentLimits.maxContentChars.toLocaleString('en-US')} characters`,
        },
      ]
    : [];
  return {
    // An empty page still answers (an empty body), which the worker would read as no result at all.
    bytes: Buffer.from(content || (format === 'html' ? '<!DOCTYPE html>' : '\n'), 'utf8'),
    format,
    mimeType: PageContentMimeTypes[format],
    width: 0,
    height: 0,
    ...(warnings.length ? { warnings } : {}),
  };
}

/** Runs in the page's isolated world; `MAX_TAGS` and `MAX_VALUE` filled in. Absolute URLs against the document's base. */
const READ_METADATA = `(() => {
  const absolute = (value) => { if (!value) return null; try { return new URL(value.trim(), document.baseURI).href; } catch { return null; } };
  const text = (value) => (typeof value === 'string' && value.trim() ? value.trim().slice(0, MAX_VALUE) : null);
  const lower = (element, attribute) => (element.getAttribute(attribute) || '').trim().toLowerCase();
  const metas = [...document.querySelectorAll('meta[content]')];
  const named = (name) => text((metas.find((m) => lower(m, 'name') === name) || { getAttribute: () => null }).getAttribute('content'));
  const tags = (prefix) => {
    const out = {};
    for (const meta of metas) {
      const key = (meta.getAttribute('property') || meta.getAttribute('name') || '').trim();
      if (!key.toLowerCase().startsWith(prefix)) continue;
      const name = key.slice(prefix.length).toLowerCase();
      if (!name || name in out || Object.keys(out).length >= MAX_TAGS) continue;
      out[name] = (meta.getAttribute('content') || '').trim().slice(0, MAX_VALUE);
    }
    return out;
  };
  const links = [...document.querySelectorAll('link[rel][href]')];
  const link = (rel) => links.find((l) => lower(l, 'rel').split(/\\s+/).includes(rel));
  const icon = link('icon') || link('apple-touch-icon');
  return {
    title: text(document.title),
    description: named('description'),
    canonicalUrl: absolute(link('canonical') && link('canonical').getAttribute('href')),
    language: text(document.documentElement.getAttribute('lang')),
    openGraph: tags('og:'),
    twitter: tags('twitter:'),
    favicon: absolute(icon && icon.getAttribute('href')),
  };
})()`;

export function metadataScript(): string {
  return READ_METADATA.replace(/MAX_TAGS/g, String(PageContentLimits.maxTags)).replace(
    /MAX_VALUE/g,
    String(PageContentLimits.maxTagValueChars),
  );
}

type DocumentMetadata = Omit<PageMetadata, 'finalUrl' | 'httpStatus'>;

/** The page's metadata as it is now (after the load, the job's css and js), with where it ended up and its status. */
export async function readPageMetadata(
  session: CDPSession,
  document: { finalUrl: string; httpStatus: number | null },
): Promise<PageMetadata> {
  const found = await evaluateIsolated<DocumentMetadata>(session, metadataScript());
  const none: DocumentMetadata = {
    title: null,
    description: null,
    canonicalUrl: null,
    language: null,
    openGraph: {},
    twitter: {},
    favicon: null,
  };
  return { ...none, ...(found && typeof found === 'object' ? found : {}), ...document };
}
