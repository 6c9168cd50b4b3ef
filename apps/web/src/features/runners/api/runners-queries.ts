import { queryOptions } from '@tanstack/react-query';
import { projectRunnersApi, runnersApi } from '@gantry/contract';
import type { RunnerBody, RunnerWithToken } from '@gantry/contract';
import { api } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/mutations.ts';

/** Null for the global runners (admin), a project id for that project's runners. */
export type RunnerScope = number | null;

const runnersKey = (scope: RunnerScope) =>
  scope === null ? (['runners'] as const) : (['projects', scope, 'runners'] as const);

export const runnersQuery = (scope: RunnerScope) =>
  queryOptions({
    queryKey: runnersKey(scope),
    queryFn: ({ signal }) =>
      scope === null
        ? api(runnersApi.list, { signal })
        : api(projectRunnersApi.list, { params: { projectId: scope }, signal }),
    // The heartbeat column ages; refresh it now and then while the page is open.
    refetchInterval: 15_000,
  });

/** Creates (answering with the one-time token) or updates a runner. */
export function useSaveRunner(scope: RunnerScope) {
  return useRefreshingMutation(
    [runnersKey(scope)],
    async ({ id, body }: { id?: number; body: RunnerBody }): Promise<RunnerWithToken | undefined> => {
      if (id === undefined) {
        return scope === null
          ? api(runnersApi.create, { body })
          : api(projectRunnersApi.create, { params: { projectId: scope }, body });
      }
      if (scope === null) await api(runnersApi.update, { params: { runnerId: id }, body });
      else await api(projectRunnersApi.update, { params: { projectId: scope, runnerId: id }, body });
      return undefined;
    },
  );
}

export function useSetRunnerActive(scope: RunnerScope) {
  return useRefreshingMutation(
    [runnersKey(scope)],
    ({ id, active }: { id: number; active: boolean }) =>
      scope === null
        ? api(runnersApi.setActive, { params: { runnerId: id }, body: { active } })
        : api(projectRunnersApi.setActive, { params: { projectId: scope, runnerId: id }, body: { active } }),
    { alsoAfterFailure: true },
  );
}

export function useDeleteRunner(scope: RunnerScope) {
  return useRefreshingMutation([runnersKey(scope)], (id: number) =>
    scope === null
      ? api(runnersApi.remove, { params: { runnerId: id } })
      : api(projectRunnersApi.remove, { params: { projectId: scope, runnerId: id } }),
  );
}
