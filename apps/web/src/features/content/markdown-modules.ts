/** Markdown turned into `{ meta, html }` at build time (vite/markdown-content.plugin.ts). */
export interface MarkdownModule {
  meta: Record<string, string>;
  html: string;
}

const pages = import.meta.glob<MarkdownModule>('../../../content/pages/*/*.md');
const posts = import.meta.glob<MarkdownModule>('../../../content/blog/*/*.md');
const guides = import.meta.glob<MarkdownModule>('../../../content/docs/*/*.md');

const pick = (modules: typeof pages, kind: string, language: string, slug: string) =>
  modules[`../../../content/${kind}/${language}/${slug}.md`] ?? modules[`../../../content/${kind}/en/${slug}.md`];

/** The page in the reader's language, else English, else null. */
export async function loadPage(language: string, slug: string): Promise<MarkdownModule | null> {
  const load = pick(pages, 'pages', language, slug);
  return load ? load() : null;
}

/** A docs guide (SDK, CLI, MCP) in the reader's language, else English. */
export async function loadGuide(language: string, slug: string): Promise<MarkdownModule | null> {
  const load = pick(guides, 'docs', language, slug);
  return load ? load() : null;
}

export async function loadPost(language: string, slug: string): Promise<MarkdownModule | null> {
  const load = pick(posts, 'blog', language, slug);
  return load ? load() : null;
}
