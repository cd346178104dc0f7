import { QueryClientProvider } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { useAppCache } from './app-cache.ts';
import { createQueryClient } from './query-client.ts';

/**
 * A page that queries, inside the app's one query client (made by the first such page, then shared). The
 * router wraps every page but the landing page with it, so TanStack Query loads with the first of them and not
 * before. The provider draws nothing: a prerendered page hydrates the same.
 */
export function withQueryClient<P extends object>(Page: ComponentType<P>): ComponentType<P> {
  function WithQueryClient(props: P) {
    const cache = useAppCache();
    cache.queryClient ??= createQueryClient();
    return (
      <QueryClientProvider client={cache.queryClient}>
        <Page {...props} />
      </QueryClientProvider>
    );
  }
  WithQueryClient.displayName = `WithQueryClient(${Page.displayName ?? Page.name})`;
  return WithQueryClient;
}
