import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { formatPostDate, postsFor } from './blog-posts.ts';

export function BlogListPage() {
  const { t, i18n } = useTranslation('blog');
  const language = i18n.resolvedLanguage ?? 'en';
  usePageTitle(t('title'));
  const posts = postsFor(language);
  return (
    <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6 sm:py-16">
      <header className="max-w-2xl">
        <h1 className="text-4xl font-semibold tracking-tight text-zinc-900">{t('title')}</h1>
        <p className="mt-3 text-lg text-zinc-600">{t('subtitle')}</p>
      </header>
      {posts.length === 0 ? (
        <p className="mt-10 text-zinc-600">{t('empty')}</p>
      ) : (
        <ul className="mt-10 grid gap-6 md:grid-cols-2">
          {posts.map((post) => (
            <li key={post.slug} className="overflow-hidden rounded-xl border border-zinc-200 bg-white">
              <Link to="/blog/$slug" params={{ slug: post.slug }} className="group block h-full">
                {post.image && (
                  <img src={post.image} alt="" className="aspect-[2/1] w-full border-b border-zinc-200 object-cover" loading="lazy" />
                )}
                <div className="p-5">
                  <p className="text-xs text-zinc-600">
                    {formatPostDate(post.date, language)} · {t('readingTime', { minutes: Number(post.readingMinutes) })}
                  </p>
                  <h2 className="mt-2 text-lg font-semibold text-zinc-900 group-hover:text-accent-700">{post.title}</h2>
                  {post.description && <p className="mt-2 text-sm text-zinc-600">{post.description}</p>}
                </div>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
