import { ChevronDown } from 'lucide-react';
import { lazy, Suspense, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import type { NavGroup } from './nav-items.ts';
import { linkClass } from './nav-styles.ts';

// Radix's menu (with its positioning and scroll-lock code, ~25 KB gzipped) is not part of the first load: the
// desktop bar that shows the dropdowns is hidden below Tailwind's `xl`, so phones never fetch it at all.
const NavDropdown = lazy(() => import('./nav-dropdown.tsx').then((m) => ({ default: m.NavDropdown })));

const DESKTOP = '(min-width: 80rem)';
// Without matchMedia (jsdom, prerendering) the bar counts as hidden, and the placeholder is drawn.
const query = () => (typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(DESKTOP) : null);
const subscribe = (onChange: () => void) => {
  const list = query();
  list?.addEventListener('change', onChange);
  return () => list?.removeEventListener('change', onChange);
};
const isDesktop = () => query()?.matches ?? false;

/** The trigger as drawn before the menu's code is there: same box, so nothing moves when it arrives. */
function TriggerPlaceholder({ group }: { group: NavGroup }) {
  const { t } = useTranslation();
  return (
    <span className={`${linkClass} inline-flex items-center gap-1`} aria-hidden>
      {t(group.labelKey)}
      <ChevronDown className="size-3.5" aria-hidden />
    </span>
  );
}

/** A header dropdown whose menu code loads only where the desktop bar is shown. */
export function LazyNavDropdown({ group, pathname }: { group: NavGroup; pathname: string }) {
  const desktop = useSyncExternalStore(subscribe, isDesktop, () => false);
  if (!desktop) return <TriggerPlaceholder group={group} />;
  return (
    <Suspense fallback={<TriggerPlaceholder group={group} />}>
      <NavDropdown group={group} pathname={pathname} />
    </Suspense>
  );
}
