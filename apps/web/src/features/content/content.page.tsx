import { useMatches } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { NotFoundPage } from '../errors/not-found.page.tsx';
import { MarkdownArticle } from './markdown-article.tsx';
import { useMarkdown } from './use-markdown.ts';

/** About, Contact and the legal pages: Markdown in content/pages/<lang>/<slug>.md. */
export function ContentPage() {
  const slug = useMatches({ select: (matches) => matches.at(-1)?.staticData.contentSlug }) ?? '';
  const { t, i18n } = useTranslation();
  const page = useMarkdown('page', slug);
  usePageTitle(page?.meta.title);
  if (!page) return <NotFoundPage />;
  const updated = page.meta.updated;
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <h1 className="text-4xl font-semibold tracking-tight text-zinc-900">{page.meta.title}</h1>
      {page.meta.description && <p className="mt-3 text-lg text-zinc-600">{page.meta.description}</p>}
      {updated && (
        <p className="mt-2 text-sm text-zinc-600">
          {t('content.updated', { date: new Date(updated).toLocaleDateString(i18n.resolvedLanguage, { dateStyle: 'long' }) })}
        </p>
      )}
      <div className="mt-8">
        <MarkdownArticle module={page} />
      </div>
    </article>
  );
}
