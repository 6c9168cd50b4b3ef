import { viewsApi } from '@gantry/contract';
import type { ViewPositionsBody } from '@gantry/contract';
import { api } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/mutations.ts';
import { resourceKeys } from '../../../lib/project-resources.ts';

export function useCreateView(projectId: number) {
  return useRefreshingMutation(
    [resourceKeys.views(projectId)],
    ({ title, position }: { title: string; position: number }) =>
      api(viewsApi.create, { params: { projectId }, body: { title, position } }),
  );
}

export function useUpdateView(projectId: number) {
  return useRefreshingMutation(
    [resourceKeys.views(projectId)],
    ({ viewId, title, position }: { viewId: number; title: string; position: number }) =>
      api(viewsApi.update, { params: { projectId, viewId }, body: { id: viewId, title, position } }),
  );
}

export function useDeleteView(projectId: number) {
  // Templates of a deleted view fall back to no view.
  return useRefreshingMutation([resourceKeys.all(projectId)], (viewId: number) =>
    api(viewsApi.remove, { params: { projectId, viewId } }),
  );
}

export function useSetViewPositions(projectId: number) {
  return useRefreshingMutation(
    [resourceKeys.views(projectId)],
    (positions: ViewPositionsBody) => api(viewsApi.positions, { params: { projectId }, body: positions }),
    { alsoAfterFailure: true },
  );
}
