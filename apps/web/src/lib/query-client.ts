import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-client.ts';
import { currentUserQuery } from './shared-queries.ts';

/**
 * A 401 on any call means the session ended: refetching the current user makes the app shell
 * notice it and go to the sign-in page. Client errors (4xx) are answers, so they are not retried.
 */
export function createQueryClient(): QueryClient {
  const onError = (error: unknown, queryKey?: readonly unknown[]) => {
    if (isApiError(error, 401) && queryKey?.[0] !== currentUserQuery.queryKey[0]) {
      void client.invalidateQueries({ queryKey: currentUserQuery.queryKey });
    }
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => onError(error, query.queryKey) }),
    mutationCache: new MutationCache({ onError: (error) => onError(error) }),
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        refetchOnWindowFocus: false,
        retry: (failureCount, error) => {
          if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
          return failureCount < 2;
        },
      },
    },
  });
  return client;
}
