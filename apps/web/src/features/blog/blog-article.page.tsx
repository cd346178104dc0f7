import { Link, useParams } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { MarkdownArticle } from '../content/markdown-article.tsx';
import { useMarkdown } from '../content/use-markdown.ts';
import { NotFoundPage } from '../errors/not-found.page.tsx';
import { formatPostDate } from './blog-posts.ts';

export function BlogArticlePage() {
  const { slug = '' } = useParams({ strict: false }) as { slug?: string };
  const { t, i18n } = useTranslation('blog');
  const post = useMarkdown('post', slug);
  // The social card made for the article (scripts/render-social-cards.mjs), else its first illustration.
  usePageTitle(post?.meta.title, { description: post?.meta.description, image: post?.meta.socialImage ?? post?.meta.image });
  if (!post) return <NotFoundPage />;
  const language = i18n.resolvedLanguage ?? 'en';
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <Link to="/blog" className="inline-flex items-center gap-1.5 text-sm text-zinc-600 hover:text-zinc-900">
        <ArrowLeft className="size-4" aria-hidden />
        {t('back')}
      </Link>
      <h1 className="mt-6 text-4xl font-semibold tracking-tight text-zinc-900">{post.meta.title}</h1>
      <p className="mt-3 text-sm text-zinc-600">
        {[post.meta.author, formatPostDate(post.meta.date, language)].filter(Boolean).join(' · ')}
      </p>
      <div className="mt-8">
        <MarkdownArticle module={post} />
      </div>
    </article>
  );
}
