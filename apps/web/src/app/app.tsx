import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { livePage } from '../lib/page-live.ts';
import { SessionProvider } from '../lib/session/session.context.tsx';
import type { SessionStore } from '../lib/session/session.store.ts';
import { LazyAppToaster } from './app-toaster-lazy.tsx';
import { createQueryClient } from './query-client.ts';
import { type AppRouter, createAppRouter } from './router.tsx';

export interface AppProps {
  session: SessionStore;
  /** Given when made (and loaded) before rendering: by the prerender, and before hydrating its HTML. */
  queryClient?: QueryClient;
  router?: AppRouter;
}

export function App({ session, queryClient: givenClient, router: givenRouter }: AppProps) {
  const [queryClient] = useState(() => givenClient ?? createQueryClient());
  const [router] = useState(() => givenRouter ?? createAppRouter({ session, queryClient }));
  useEffect(() => livePage('app'), []);
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider store={session}>
        <RouterProvider router={router} />
        <LazyAppToaster />
      </SessionProvider>
    </QueryClientProvider>
  );
}
