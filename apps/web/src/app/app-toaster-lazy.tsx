import { lazy, Suspense, useEffect, useState } from 'react';

// sonner (~10 KB gzipped) leaves the first load: every toast answers a user action on a page whose own chunk
// loads after this one, so the toaster is always mounted before the first toast.
const AppToaster = lazy(() => import('./app-toaster.tsx').then((m) => ({ default: m.AppToaster })));

/**
 * Mounted after the first render: a prerendered page has no toaster in its HTML (sonner's first render reads the
 * document), so hydration finds nothing to compare.
 */
export function LazyAppToaster() {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  if (!mounted) return null;
  return (
    <Suspense fallback={null}>
      <AppToaster />
    </Suspense>
  );
}
