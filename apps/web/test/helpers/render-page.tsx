import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { render } from '@testing-library/react';
import { type ReactNode, Suspense } from 'react';
import { AppCacheProvider, createAppCache } from '../../src/app/app-cache.ts';
import { AppToaster } from '../../src/app/app-toaster.tsx';
import { createQueryClient } from '../../src/app/query-client.ts';
import { SessionProvider } from '../../src/lib/session/session.context.tsx';
import { createSessionStore, type SessionStore } from '../../src/lib/session/session.store.ts';

/**
 * Renders one page inside the app's real providers (app cache, query client, session, router on a memory history,
 * toasts), at `path`. Other paths render a marker so navigation can be asserted with `router.state`.
 */
export function renderPage(Page: () => ReactNode, options: { path?: string; url?: string; session?: SessionStore } = {}) {
  const path = options.path ?? '/';
  const session = options.session ?? createSessionStore();
  const rootRoute = createRootRoute({
    component: () => (
      <Suspense fallback={<p>loading</p>}>
        <Outlet />
      </Suspense>
    ),
  });
  const pageRoute = createRoute({ getParentRoute: () => rootRoute, path, component: Page });
  const elsewhere = createRoute({ getParentRoute: () => rootRoute, path: '$', component: () => <p data-testid="elsewhere">elsewhere</p> });
  const router = createRouter({
    routeTree: rootRoute.addChildren([pageRoute, elsewhere]),
    history: createMemoryHistory({ initialEntries: [options.url ?? path] }),
  });
  const queryClient = createQueryClient();
  const view = render(
    <AppCacheProvider value={createAppCache()}>
      <QueryClientProvider client={queryClient}>
        <SessionProvider store={session}>
          <RouterProvider router={router as never} />
          <AppToaster />
        </SessionProvider>
      </QueryClientProvider>
    </AppCacheProvider>,
  );
  return { ...view, router, session };
}
