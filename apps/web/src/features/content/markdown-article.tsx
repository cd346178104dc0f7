import type { MarkdownModule } from './markdown-modules.ts';

/** Build-time HTML from our own repository's Markdown (trusted content, never user input). */
export function MarkdownArticle({ module }: { module: MarkdownModule }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: HTML produced at build time from repository Markdown.
  return <div className="prose-content" dangerouslySetInnerHTML={{ __html: module.html }} />;
}
