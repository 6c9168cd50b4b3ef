import { useMutation, useQueryClient } from '@tanstack/react-query';
import { viewsApi } from '@gantry/contract';
import type { ViewPositionsBody } from '@gantry/contract';
import { api } from '../../../lib/api-client.ts';
import { resourceKeys } from '../../../lib/project-resources.ts';

function useInvalidateViews(projectId: number) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: resourceKeys.views(projectId) });
}

export function useCreateView(projectId: number) {
  const invalidate = useInvalidateViews(projectId);
  return useMutation({
    mutationFn: ({ title, position }: { title: string; position: number }) =>
      api(viewsApi.create, { params: { projectId }, body: { title, position } }),
    onSuccess: invalidate,
  });
}

export function useUpdateView(projectId: number) {
  const invalidate = useInvalidateViews(projectId);
  return useMutation({
    mutationFn: ({ viewId, title, position }: { viewId: number; title: string; position: number }) =>
      api(viewsApi.update, { params: { projectId, viewId }, body: { id: viewId, title, position } }),
    onSuccess: invalidate,
  });
}

export function useDeleteView(projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (viewId: number) => api(viewsApi.remove, { params: { projectId, viewId } }),
    // Templates of a deleted view fall back to no view.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: resourceKeys.all(projectId) }),
  });
}

export function useSetViewPositions(projectId: number) {
  const invalidate = useInvalidateViews(projectId);
  return useMutation({
    mutationFn: (positions: ViewPositionsBody) => api(viewsApi.positions, { params: { projectId }, body: positions }),
    onSettled: invalidate,
  });
}
