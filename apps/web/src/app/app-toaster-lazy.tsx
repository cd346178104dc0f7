import { lazy, Suspense } from 'react';

// sonner (~10 KB gzipped) leaves the first load: every toast answers a user action on a page whose own chunk
// loads after this one, so the toaster is always mounted before the first toast.
const AppToaster = lazy(() => import('./app-toaster.tsx').then((m) => ({ default: m.AppToaster })));

export function LazyAppToaster() {
  return (
    <Suspense fallback={null}>
      <AppToaster />
    </Suspense>
  );
}
