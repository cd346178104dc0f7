import { Link, useNavigate, useRouterState } from '@tanstack/react-router';
import { LogOut, Menu, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '../components/ui/app-link.tsx';
import { useSession, useSessionStore } from '../lib/session/session.context.tsx';
import { LanguageSwitch } from './language-switch.tsx';
import { Logo } from './logo.tsx';
import { LazyNavDropdown } from './nav-dropdown-lazy.tsx';
import { isGroup, NAV_ITEMS } from './nav-items.ts';
import { linkClass } from './nav-styles.ts';

const activeProps = { className: 'text-accent-700', 'aria-current': 'page' as const };

function AccountLinks({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation();
  const session = useSession();
  const store = useSessionStore();
  const navigate = useNavigate();
  if (session.status === 'signedIn') {
    const logout = () => {
      store.signOut();
      onNavigate?.();
      void navigate({ to: '/' });
    };
    return (
      <>
        <Link
          to="/dashboard"
          className={`${linkClass} inline-block max-w-36 truncate align-middle`}
          onClick={onNavigate}
          data-testid="nav-dashboard"
        >
          {session.user.name || t('nav.dashboard')}
        </Link>
        <button type="button" onClick={logout} className={`${linkClass} inline-flex items-center gap-1.5`}>
          <LogOut className="size-4" aria-hidden />
          {t('nav.logout')}
        </button>
      </>
    );
  }
  return (
    <>
      <Link to="/login" className={linkClass} onClick={onNavigate}>
        {t('nav.login')}
      </Link>
      <Link
        to="/signup"
        onClick={onNavigate}
        className="whitespace-nowrap rounded-md bg-accent-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-accent-700"
      >
        {t('nav.signup')}
      </Link>
    </>
  );
}

function MobileMenu({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <nav id="mobile-menu" aria-label={t('nav.mobileLabel')} className="border-t border-zinc-200 bg-white px-4 pb-4 xl:hidden">
      <ul className="flex flex-col py-2">
        <li>
          <Link to="/" className={`${linkClass} block py-2`} onClick={onClose}>
            {t('nav.home')}
          </Link>
        </li>
        {NAV_ITEMS.flatMap((item) => (isGroup(item) ? item.items : [item])).map((item) => (
          <li key={item.to}>
            <AppLink to={item.to} className={`${linkClass} block py-2`} onClick={onClose}>
              {t(item.labelKey)}
            </AppLink>
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap items-center gap-2 border-t border-zinc-200 pt-3">
        <AccountLinks onNavigate={onClose} />
        <div className="ml-auto">
          <LanguageSwitch id="language-switch-mobile" />
        </div>
      </div>
    </nav>
  );
}

export function SiteHeader() {
  const { t } = useTranslation();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const [menuOpen, setMenuOpen] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the menu closes on navigation.
  useEffect(() => setMenuOpen(false), [pathname]);
  return (
    <header className="sticky top-0 z-40 border-b border-zinc-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-14 max-w-7xl items-center gap-4 px-4 sm:px-6">
        <Logo />
        <nav aria-label={t('nav.mainLabel')} className="hidden flex-1 items-center gap-0.5 xl:flex">
          {NAV_ITEMS.map((item) =>
            isGroup(item) ? (
              <LazyNavDropdown key={item.id} group={item} pathname={pathname} />
            ) : (
              <AppLink key={item.to} to={item.to} className={linkClass} activeProps={activeProps}>
                {t(item.labelKey)}
              </AppLink>
            ),
          )}
        </nav>
        <div className="ml-auto hidden items-center gap-1 xl:flex">
          <LanguageSwitch />
          <AccountLinks />
        </div>
        <button
          type="button"
          className="ml-auto rounded-md p-2 text-zinc-700 hover:bg-zinc-100 xl:hidden"
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          aria-label={menuOpen ? t('nav.closeMenu') : t('nav.openMenu')}
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? <X className="size-5" aria-hidden /> : <Menu className="size-5" aria-hidden />}
        </button>
      </div>
      {menuOpen && <MobileMenu onClose={() => setMenuOpen(false)} />}
    </header>
  );
}
