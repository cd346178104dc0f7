import { useSuspenseQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { loadPage, loadPost, type MarkdownModule } from './markdown-modules.ts';

/** A Markdown page or post in the current language; suspends while its chunk loads. */
export function useMarkdown(kind: 'page' | 'post', slug: string): MarkdownModule | null {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? 'en';
  const { data } = useSuspenseQuery({
    queryKey: ['markdown', kind, language, slug],
    queryFn: () => (kind === 'page' ? loadPage(language, slug) : loadPost(language, slug)),
    staleTime: Number.POSITIVE_INFINITY,
  });
  return data;
}
