import { Navigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { PageSpinner } from '../../components/ui/spinner.tsx';
import { useSession } from '../../lib/session/session.context.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';

/**
 * Spec §2: signed-in users only; a spinner while the session loads, others go to /login. The full
 * dashboard (usage, billing, templates, admin) is built on this page in the next part.
 */
export function DashboardPage() {
  const { t } = useTranslation('dashboard');
  const session = useSession();
  usePageTitle(t('title'));
  if (session.status === 'loading') return <PageSpinner />;
  if (session.status === 'signedOut') return <Navigate to="/login" search={{ redirect: '/dashboard' } as never} replace />;
  const { user } = session;
  return (
    <div className="mx-auto max-w-5xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-semibold tracking-tight text-zinc-900">{t('welcome', { name: user.name })}</h1>
      <dl className="mt-8 grid gap-4 sm:grid-cols-2">
        <div className="rounded-xl border border-zinc-200 p-5">
          <dt className="text-xs font-medium uppercase tracking-wide text-zinc-600">{t('email')}</dt>
          <dd className="mt-1 text-zinc-900">{user.email}</dd>
        </div>
        <div className="rounded-xl border border-zinc-200 p-5">
          <dt className="text-xs font-medium uppercase tracking-wide text-zinc-600">{t('plan')}</dt>
          <dd className="mt-1 text-zinc-900">{t(`plans.${user.plan}`)}</dd>
        </div>
        <div className="rounded-xl border border-zinc-200 p-5 sm:col-span-2">
          <dt className="text-xs font-medium uppercase tracking-wide text-zinc-600">{t('apiKey')}</dt>
          <dd className="mt-1 break-all font-mono text-sm text-zinc-900" data-testid="api-key">
            {user.apiKey ?? t('noApiKey')}
          </dd>
        </div>
      </dl>
    </div>
  );
}
