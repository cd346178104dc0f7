import type { QueryClient } from '@tanstack/react-query';
import { createContext, useContext } from 'react';

/**
 * What one app instance keeps between its pages, made when the app starts but filled on first use: the query
 * client only once a page that queries loads (`with-query-client.tsx`: TanStack Query is not in the landing
 * page's first load), and the plan limits (`lib/plan-limits.ts`) read without it. The prerender makes one per
 * page, tests one per render.
 */
export interface AppCache {
  queryClient?: QueryClient;
  planLimits?: unknown;
}

export const createAppCache = (): AppCache => ({});

const AppCacheContext = createContext<AppCache | null>(null);
export const AppCacheProvider = AppCacheContext.Provider;

export function useAppCache(): AppCache {
  const cache = useContext(AppCacheContext);
  if (!cache) throw new Error('useAppCache needs an AppCacheProvider');
  return cache;
}
