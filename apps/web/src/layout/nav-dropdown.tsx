import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { ChevronDown } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '../components/ui/app-link.tsx';
import type { NavGroup } from './nav-items.ts';
import { linkClass } from './nav-styles.ts';

/** Dropdowns close on outside click (Radix) and whenever the route changes. */
export function NavDropdown({ group, pathname }: { group: NavGroup; pathname: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: closing is the point of watching the path.
  useEffect(() => setOpen(false), [pathname]);
  return (
    <DropdownMenu.Root open={open} onOpenChange={setOpen} modal={false}>
      <DropdownMenu.Trigger className={`${linkClass} inline-flex items-center gap-1`} data-testid={`nav-${group.id}`}>
        {t(group.labelKey)}
        <ChevronDown className="size-3.5" aria-hidden />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="start"
          sideOffset={6}
          className="z-50 min-w-48 rounded-lg border border-zinc-200 bg-white p-1 shadow-lg"
        >
          {group.items.map((item) => (
            <DropdownMenu.Item key={item.to} asChild>
              <AppLink
                to={item.to}
                className="block rounded-md px-3 py-2 text-sm text-zinc-700 outline-none data-[highlighted]:bg-zinc-100"
              >
                {t(item.labelKey)}
              </AppLink>
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
