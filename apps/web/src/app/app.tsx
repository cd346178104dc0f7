import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { useState } from 'react';
import { SessionProvider } from '../lib/session/session.context.tsx';
import type { SessionStore } from '../lib/session/session.store.ts';
import { LazyAppToaster } from './app-toaster-lazy.tsx';
import { createQueryClient } from './query-client.ts';
import { createAppRouter } from './router.tsx';

export function App({ session }: { session: SessionStore }) {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(() => createAppRouter({ session, queryClient }));
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider store={session}>
        <RouterProvider router={router} />
        <LazyAppToaster />
      </SessionProvider>
    </QueryClientProvider>
  );
}
