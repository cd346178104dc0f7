import posts from 'virtual:blog-index';

export type PostSummary = (typeof posts)[number];

/** The articles in `language` (an article missing a translation is listed in English), newest first. */
export function postsFor(language: string): PostSummary[] {
  const bySlug = new Map<string, PostSummary>();
  for (const post of posts) {
    const current = bySlug.get(post.slug);
    if (!current || (post.lang === language && current.lang !== language)) bySlug.set(post.slug, post);
  }
  return [...bySlug.values()]
    .filter((post) => post.lang === language || post.lang === 'en')
    .sort((a, b) => (b.date ?? '').localeCompare(a.date ?? ''));
}

export const formatPostDate = (date: string | undefined, language: string) =>
  date ? new Date(`${date}T00:00:00Z`).toLocaleDateString(language, { dateStyle: 'long', timeZone: 'UTC' }) : '';
