import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../lib/api-client.ts';

/**
 * Answers that asking again will not change: a 4xx, or a deployment without billing (a configuration matter
 * for its operator, whose 503 says so by its code).
 */
const isFinal = (error: unknown) =>
  error instanceof ApiError &&
  ((error.status >= 400 && error.status < 500) || (error.data as { code?: unknown } | undefined)?.code === 'BILLING_NOT_CONFIGURED');

export const createQueryClient = () =>
  new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        retry: (count, error) => !isFinal(error) && count < 2,
        refetchOnWindowFocus: false,
      },
    },
  });
