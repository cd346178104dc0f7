import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Marked } from 'marked';
import { createHighlighter, type Highlighter } from 'shiki';
import type { Plugin } from 'vite';
import { parseFrontMatter } from './front-matter.ts';

/**
 * Markdown under content/ becomes a module `{ meta, html }` at build time, code blocks highlighted by
 * shiki there: the browser gets plain HTML and no highlighter. `virtual:blog-index` lists every article's
 * front matter so the blog list loads without the articles themselves.
 */
const contentDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'content');
const publicDir = join(contentDir, '..', 'public');

/**
 * An article's social card (scripts/render-social-cards.mjs renders them with the product's template renderer):
 * `/blog/social/<lang>/<slug>.jpg` when it exists, for og:image and twitter:image.
 */
const socialImage = (lang: string, slug: string): Record<string, string> => {
  const path = `/blog/social/${lang}/${slug}.jpg`;
  return existsSync(join(publicDir, path)) ? { socialImage: path } : {};
};
const INDEX_ID = 'virtual:blog-index';
const LANGS = ['bash', 'shell', 'json', 'ts', 'typescript', 'js', 'javascript', 'python', 'html', 'xml', 'svg', 'css', 'yaml', 'text'];

let highlighter: Promise<Highlighter> | undefined;
const getHighlighter = () => {
  highlighter ??= createHighlighter({ themes: ['github-dark-default'], langs: LANGS.filter((l) => l !== 'svg' && l !== 'text') });
  return highlighter;
};

/** A heading's anchor from its HTML: `<code>VALIDATION_ERROR</code>` → `validation-error` (error `type` links use these). */
export const headingId = (html: string): string =>
  html
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '');

async function renderMarkdown(body: string): Promise<string> {
  const shiki = await getHighlighter();
  const marked = new Marked({
    renderer: {
      code({ text, lang }) {
        const language = lang === 'svg' ? 'xml' : lang && shiki.getLoadedLanguages().includes(lang) ? lang : 'text';
        return shiki.codeToHtml(text, { lang: language, theme: 'github-dark-default' });
      },
      heading({ tokens, depth }) {
        const text = this.parser.parseInline(tokens);
        return `<h${depth} id="${headingId(text)}">${text}</h${depth}>\n`;
      },
    },
  });
  return marked.parse(body, { async: false });
}

function blogIndex(): string {
  const posts: Array<Record<string, string>> = [];
  const blogDir = join(contentDir, 'blog');
  for (const lang of readdirSync(blogDir)) {
    for (const file of readdirSync(join(blogDir, lang)).filter((f) => f.endsWith('.md'))) {
      const { meta, body } = parseFrontMatter(readFileSync(join(blogDir, lang, file), 'utf8'));
      const words = body.split(/\s+/).filter(Boolean).length;
      posts.push({ ...meta, lang, slug: basename(file, '.md'), readingMinutes: String(Math.max(1, Math.round(words / 220))) });
    }
  }
  posts.sort((a, b) => (b.date ?? '').localeCompare(a.date ?? ''));
  return `export default ${JSON.stringify(posts)};`;
}

export function markdownContent(): Plugin {
  return {
    name: 'markdown-content',
    enforce: 'pre',
    resolveId(id) {
      return id === INDEX_ID ? `\0${INDEX_ID}` : undefined;
    },
    load(id) {
      if (id !== `\0${INDEX_ID}`) return undefined;
      this.addWatchFile(join(contentDir, 'blog'));
      return blogIndex();
    },
    async transform(source, id) {
      if (!id.endsWith('.md') || relative(contentDir, id).startsWith('..')) return undefined;
      const { meta, body } = parseFrontMatter(source);
      const html = await renderMarkdown(body);
      const [section, lang, file] = relative(contentDir, id).split(/[\\/]/);
      if (section === 'blog' && lang && file) Object.assign(meta, socialImage(lang, basename(file, '.md')));
      return { code: `export const meta = ${JSON.stringify(meta)};\nexport const html = ${JSON.stringify(html)};\n`, map: null };
    },
    handleHotUpdate(ctx) {
      if (ctx.file.startsWith(join(contentDir, 'blog'))) {
        const index = ctx.server.moduleGraph.getModuleById(`\0${INDEX_ID}`);
        if (index) ctx.server.moduleGraph.invalidateModule(index);
      }
    },
  };
}
