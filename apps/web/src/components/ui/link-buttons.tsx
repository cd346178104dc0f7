import { Link, type LinkProps } from '@tanstack/react-router';
import { buttonClass, type Variant } from './button.tsx';

export interface LinkButton {
  to: LinkProps['to'];
  label: string;
  variant: Variant;
}

/** Links that look like buttons, in a row's order (a screen's or a dialog's way on). */
export function LinkButtons({ links }: { links: LinkButton[] }) {
  return links.map((link) => (
    <Link key={link.to} to={link.to} className={buttonClass(link.variant)}>
      {link.label}
    </Link>
  ));
}
