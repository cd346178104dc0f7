import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../lib/use-page-title.ts';

export type ErrorKind = 403 | 404 | 500;

/** docs/spec/screens.md, errors.md: 403 Access denied, 404 Page not found, 500 Server error, each with a way home. */
export function ErrorScreen({ status }: { status: ErrorKind }) {
  const { t } = useTranslation();
  usePageTitle(t(`errors.${status}.title`));
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center" data-testid={`error-${status}`}>
      <p className="text-sm font-semibold text-accent-700">{status}</p>
      <h1 className="mt-2 text-3xl font-semibold tracking-tight text-zinc-900">{t(`errors.${status}.title`)}</h1>
      <p className="mt-3 text-zinc-600">{t(`errors.${status}.body`)}</p>
      <Link to="/" className="mt-8 rounded-md bg-accent-600 px-4 py-2 text-sm font-medium text-white hover:bg-accent-700">
        {t('errors.goHome')}
      </Link>
    </section>
  );
}

/** The router's error boundary: an unexpected failure in a page shows the 500 screen. */
export function ErrorPage({ error }: { error: unknown }) {
  console.error(error);
  return <ErrorScreen status={500} />;
}

export const ForbiddenPage = () => <ErrorScreen status={403} />;
