import { queryOptions } from '@tanstack/react-query';
import { activeTasksApi } from '@gantry/contract';
import { api } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/mutations.ts';
import { taskKeys } from '../../../lib/live-events.ts';

/** The admin's active tasks are refreshed every 10 seconds (and patched live in between). */
const ACTIVE_TASKS_REFRESH_MS = 10_000;

export const activeTasksQuery = queryOptions({
  queryKey: taskKeys.active,
  queryFn: ({ signal }) => api(activeTasksApi.list, { signal }),
  refetchInterval: ACTIVE_TASKS_REFRESH_MS,
});

export function useStopActiveTask() {
  return useRefreshingMutation(
    [activeTasksQuery.queryKey],
    (taskId: number) => api(activeTasksApi.stop, { params: { taskId } }),
    { alsoAfterFailure: true },
  );
}
