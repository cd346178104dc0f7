import { Mail } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { siBluesky, siGithub, siX } from 'simple-icons';
import { AppLink } from '../components/ui/app-link.tsx';
import { BrandIcon } from '../components/ui/brand-icon.tsx';
import { Logo } from './logo.tsx';
import { pageLinks } from './nav-items.ts';

export const CONTACT_EMAIL = 'hello@render-api.dev';

const COLUMNS = [
  {
    titleKey: 'footer.features',
    links: pageLinks('/html-to-image', '/svg-to-image', '/chart-to-image', '/code-to-image', '/screenshot', '/template/list'),
  },
  { titleKey: 'footer.company', links: pageLinks('/about', '/pricing', '/blog', '/docs', '/contact') },
  { titleKey: 'footer.legal', links: pageLinks('/terms', '/privacy', '/cookies') },
];

const SOCIAL = [
  { href: 'https://github.com/render-api', labelKey: 'footer.github', icon: siGithub },
  { href: 'https://x.com/render_api', labelKey: 'footer.x', icon: siX },
  { href: 'https://bsky.app/profile/render-api.dev', labelKey: 'footer.bluesky', icon: siBluesky },
];

export function SiteFooter() {
  const { t } = useTranslation();
  return (
    <footer className="border-t border-zinc-200 bg-zinc-50">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-12 sm:px-6 md:grid-cols-[1.5fr_repeat(3,1fr)]">
        <div className="space-y-3">
          <Logo />
          <p className="max-w-xs text-sm text-zinc-600">{t('footer.tagline')}</p>
          <a href={`mailto:${CONTACT_EMAIL}`} className="inline-flex items-center gap-2 text-sm text-zinc-700 hover:text-accent-700">
            <Mail className="size-4" aria-hidden />
            {CONTACT_EMAIL}
          </a>
          <ul className="flex gap-3 pt-1" aria-label={t('footer.social')}>
            {SOCIAL.map(({ href, labelKey, icon }) => (
              <li key={href}>
                <a href={href} rel="noopener noreferrer" className="text-zinc-500 hover:text-zinc-900" aria-label={t(labelKey)}>
                  <BrandIcon icon={icon} />
                </a>
              </li>
            ))}
          </ul>
        </div>
        {COLUMNS.map((column) => (
          <div key={column.titleKey}>
            <h2 className="text-sm font-semibold text-zinc-900">{t(column.titleKey)}</h2>
            <ul className="mt-3 space-y-2">
              {column.links.map((link) => (
                <li key={link.to}>
                  <AppLink to={link.to} className="text-sm text-zinc-600 hover:text-zinc-900">
                    {t(link.labelKey)}
                  </AppLink>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
      <div className="border-t border-zinc-200 py-4 text-center text-xs text-zinc-600">
        {t('footer.copyright', { year: new Date().getFullYear() })}
      </div>
    </footer>
  );
}
