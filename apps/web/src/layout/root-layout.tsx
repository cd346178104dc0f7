import { Outlet } from '@tanstack/react-router';
import { Suspense } from 'react';
import { PageSpinner } from '../components/ui/spinner.tsx';
import { SiteFooter } from './site-footer.tsx';
import { SiteHeader } from './site-header.tsx';
import { SkipLink } from './skip-link.tsx';

export function RootLayout() {
  return (
    <div className="flex min-h-screen flex-col">
      <SkipLink />
      <SiteHeader />
      {/* At least a screen tall, so the footer starts below the fold: while a page's code and catalog load, nothing
          drawn above the fold moves when the page arrives (no layout shift). */}
      <main id="main" className="min-h-screen flex-1" tabIndex={-1}>
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </main>
      <SiteFooter />
    </div>
  );
}
