import { appsApi } from '@gantry/contract';
import type { AppBody } from '@gantry/contract';
import { api } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/mutations.ts';
import { appsQuery } from '../../../lib/project-resources.ts';

const refresh = [appsQuery.queryKey];

export function useSaveApp() {
  return useRefreshingMutation(refresh, async ({ isNew, id, body }: { isNew: boolean; id: string; body: AppBody }) => {
    if (isNew) await api(appsApi.create, { body: { ...body, id } });
    else await api(appsApi.update, { params: { appId: id }, body });
  });
}

export function useSetAppActive() {
  return useRefreshingMutation(
    refresh,
    ({ id, active }: { id: string; active: boolean }) =>
      api(appsApi.setActive, { params: { appId: id }, body: { active } }),
    { alsoAfterFailure: true },
  );
}

export function useDeleteApp() {
  return useRefreshingMutation(refresh, (id: string) => api(appsApi.remove, { params: { appId: id } }));
}
