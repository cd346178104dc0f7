/// <reference types="vite/client" />

declare module 'virtual:blog-index' {
  /** Every article's front matter with its language, slug and reading time (vite/markdown-content.plugin.ts). */
  const posts: Array<{
    lang: string;
    slug: string;
    title: string;
    description?: string;
    date?: string;
    author?: string;
    tags?: string;
    image?: string;
    readingMinutes: string;
  }>;
  export default posts;
}
