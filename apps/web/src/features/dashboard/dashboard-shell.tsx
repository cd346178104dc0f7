import type { UserView } from '@render/contracts';
import { Link, Navigate, useRouterState } from '@tanstack/react-router';
import { CreditCard, KeyRound, LayoutDashboard, LayoutTemplate, type LucideIcon, ShieldCheck, TrendingUp } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageSpinner } from '../../components/ui/spinner.tsx';
import { useSession } from '../../lib/session/session.context.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';

interface DashboardNavItem {
  to: string;
  labelKey: string;
  icon: LucideIcon;
  adminOnly?: boolean;
}

/** The design brief's left navigation; Templates lives in the template studio. */
export const DASHBOARD_NAV: DashboardNavItem[] = [
  { to: '/dashboard', labelKey: 'nav.overview', icon: LayoutDashboard },
  { to: '/dashboard/api-key', labelKey: 'nav.apiKey', icon: KeyRound },
  { to: '/dashboard/usage', labelKey: 'nav.usage', icon: TrendingUp },
  { to: '/dashboard/billing', labelKey: 'nav.billing', icon: CreditCard },
  { to: '/template/list', labelKey: 'nav.templates', icon: LayoutTemplate },
  { to: '/dashboard/admin', labelKey: 'nav.admin', icon: ShieldCheck, adminOnly: true },
];

const itemClass = 'flex items-center gap-2 whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium';

function DashboardNav({ user }: { user: UserView }) {
  const { t } = useTranslation('dashboard');
  const items = DASHBOARD_NAV.filter((item) => !item.adminOnly || user.accountType === 'administrator');
  return (
    <nav aria-label={t('nav.label')} className="lg:sticky lg:top-20">
      <ul className="flex flex-wrap gap-1 lg:flex-col">
        {items.map(({ to, labelKey, icon: Icon }) => (
          <li key={to}>
            <Link
              to={to as '/'}
              className={itemClass}
              activeOptions={{ exact: true }}
              activeProps={{ className: 'bg-accent-50 text-accent-700', 'aria-current': 'page' }}
              inactiveProps={{ className: 'text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900' }}
            >
              <Icon className="size-4 shrink-0" aria-hidden />
              {t(labelKey)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * docs/spec/screens.md: the dashboard is for signed-in users; a spinner while the session loads, /login otherwise
 * (coming back here afterwards). Each dashboard page renders inside this shell with its own title.
 */
export function DashboardShell({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  children: (user: UserView) => ReactNode;
}) {
  const { t } = useTranslation('dashboard');
  const session = useSession();
  // Where to come back after login: the page first asked for (the router's location moves on to /login).
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const [comeBack] = useState(pathname);
  usePageTitle(title === t('title') ? title : `${title} · ${t('title')}`);
  if (session.status === 'loading') return <PageSpinner />;
  if (session.status === 'signedOut') return <Navigate to="/login" search={{ redirect: comeBack } as never} replace />;
  const { user } = session;
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:grid lg:grid-cols-[13rem_minmax(0,1fr)] lg:gap-10 lg:py-10">
      <aside className="mb-6 lg:mb-0">
        <p className="mb-2 hidden px-3 text-xs font-semibold uppercase tracking-wide text-zinc-600 lg:block">{t('title')}</p>
        <DashboardNav user={user} />
      </aside>
      <div className="min-w-0">
        <header className="mb-6">
          <h1 className="text-2xl font-semibold tracking-tight text-zinc-900 sm:text-3xl">{title}</h1>
          {subtitle && <p className="mt-1 text-sm text-zinc-600">{subtitle}</p>}
        </header>
        {children(user)}
      </div>
    </div>
  );
}
