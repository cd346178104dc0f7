import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { useState } from 'react';
import { Toaster } from 'sonner';
import { SessionProvider } from '../lib/session/session.context.tsx';
import type { SessionStore } from '../lib/session/session.store.ts';
import { createQueryClient } from './query-client.ts';
import { createAppRouter } from './router.tsx';

/** Spec §2: toasts top-right, closing after 5 seconds. */
export const TOAST_DURATION_MS = 5000;

export function App({ session }: { session: SessionStore }) {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(() => createAppRouter({ session, queryClient }));
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider store={session}>
        <RouterProvider router={router} />
        <Toaster position="top-right" duration={TOAST_DURATION_MS} richColors closeButton />
      </SessionProvider>
    </QueryClientProvider>
  );
}
