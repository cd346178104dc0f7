import type { SimpleIcon } from 'simple-icons';

/** Brand marks (lucide has none): simple-icons' path data, drawn like a lucide icon. */
export function BrandIcon({ icon, className = 'size-5' }: { icon: SimpleIcon; className?: string }) {
  return (
    <svg viewBox="0 0 24 24" className={className} fill="currentColor" aria-hidden focusable="false">
      <path d={icon.path} />
    </svg>
  );
}
