import { keysApi } from '@gantry/contract';
import type { KeyBody } from '@gantry/contract';
import { api } from '../../../lib/api-client.ts';
import { useRefreshingMutation, useSaveMutation } from '../../../lib/mutations.ts';
import { keysQuery, resourceKeys } from '../../../lib/project-resources.ts';

export function useSaveKey(projectId: number) {
  return useSaveMutation<KeyBody>(
    [resourceKeys.keys(projectId)],
    (body) => api(keysApi.create, { params: { projectId }, body }),
    (keyId, body) => api(keysApi.update, { params: { projectId, keyId }, body }),
  );
}

function useDeleteKey(projectId: number) {
  return useRefreshingMutation([resourceKeys.keys(projectId)], (keyId: number) =>
    api(keysApi.remove, { params: { projectId, keyId } }),
  );
}

const loadKeyRefs = (projectId: number, keyId: number) => api(keysApi.refs, { params: { projectId, keyId } });

/** Keys as their list page knows them. */
export const keysResource = {
  section: 'keys',
  query: keysQuery,
  useRemove: useDeleteKey,
  loadRefs: loadKeyRefs,
};
