import { useMutation, useQueryClient } from '@tanstack/react-query';
import { appsApi } from '@gantry/contract';
import type { AppBody } from '@gantry/contract';
import { api } from '../../../lib/api-client.ts';
import { appsQuery } from '../../../lib/project-resources.ts';

function useInvalidateApps() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: appsQuery.queryKey });
}

export function useSaveApp() {
  const invalidate = useInvalidateApps();
  return useMutation({
    mutationFn: async ({ isNew, id, body }: { isNew: boolean; id: string; body: AppBody }): Promise<void> => {
      if (isNew) await api(appsApi.create, { body: { ...body, id } });
      else await api(appsApi.update, { params: { appId: id }, body });
    },
    onSuccess: invalidate,
  });
}

export function useSetAppActive() {
  const invalidate = useInvalidateApps();
  return useMutation({
    mutationFn: ({ id, active }: { id: string; active: boolean }) =>
      api(appsApi.setActive, { params: { appId: id }, body: { active } }),
    onSettled: invalidate,
  });
}

export function useDeleteApp() {
  const invalidate = useInvalidateApps();
  return useMutation({
    mutationFn: (id: string) => api(appsApi.remove, { params: { appId: id } }),
    onSuccess: invalidate,
  });
}
