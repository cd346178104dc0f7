import { Link, type LinkProps } from '@tanstack/react-router';
import type { AnchorHTMLAttributes, ReactNode } from 'react';

/**
 * A router link for paths held as data (navigation lists, content): typed routes cannot check a string
 * from a table, so the cast lives here once.
 */
export function AppLink({
  to,
  children,
  ...rest
}: { to: string; children: ReactNode } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & Pick<LinkProps, 'activeProps'>) {
  return (
    <Link to={to as '/'} {...rest}>
      {children}
    </Link>
  );
}
