import { useSuspenseQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { loadGuide, loadPage, loadPost, type MarkdownModule } from './markdown-modules.ts';

const LOADERS = { page: loadPage, post: loadPost, guide: loadGuide };

/** A Markdown page, post or docs guide in the current language; suspends while its chunk loads. */
export function useMarkdown(kind: 'page' | 'post' | 'guide', slug: string): MarkdownModule | null {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? 'en';
  const { data } = useSuspenseQuery({
    queryKey: ['markdown', kind, language, slug],
    queryFn: () => LOADERS[kind](language, slug),
    staleTime: Number.POSITIVE_INFINITY,
  });
  return data;
}
