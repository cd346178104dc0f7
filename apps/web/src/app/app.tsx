import { RouterProvider } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { livePage } from '../lib/page-live.ts';
import { SessionProvider } from '../lib/session/session.context.tsx';
import type { SessionStore } from '../lib/session/session.store.ts';
import { AppCacheProvider, createAppCache } from './app-cache.ts';
import { LazyAppToaster } from './app-toaster-lazy.tsx';
import { type AppRouter, createAppRouter } from './router.tsx';

export interface AppProps {
  session: SessionStore;
  /** Given when made (and loaded) before rendering: by the prerender, and before hydrating its HTML. */
  router?: AppRouter;
}

export function App({ session, router: givenRouter }: AppProps) {
  const [cache] = useState(createAppCache);
  const [router] = useState(() => givenRouter ?? createAppRouter({ session }));
  useEffect(() => livePage('app'), []);
  return (
    <AppCacheProvider value={cache}>
      <SessionProvider store={session}>
        <RouterProvider router={router} />
        <LazyAppToaster />
      </SessionProvider>
    </AppCacheProvider>
  );
}
