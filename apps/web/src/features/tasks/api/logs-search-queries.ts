import { infiniteQueryOptions } from '@tanstack/react-query';
import { logsSearchApi, type LogsSearchQuery } from '@gantry/contract';
import { api } from '../../../lib/api-client.ts';

export type LogsSearchFilters = Omit<LogsSearchQuery, 'cursor' | 'limit'>;

/** One page of tasks whose logs hold the search text, then older pages on request. */
export const logsSearchQuery = (projectId: number, filters: LogsSearchFilters) =>
  infiniteQueryOptions({
    // Not under the task keys: a search is not repeated each time a task changes.
    queryKey: ['projects', projectId, 'logs-search', filters] as const,
    queryFn: ({ signal, pageParam }) =>
      api(logsSearchApi.search, {
        params: { projectId },
        query: pageParam === undefined ? filters : { ...filters, cursor: pageParam },
        signal,
      }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
    retry: false,
  });
