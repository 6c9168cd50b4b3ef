import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { teamApi, templatesApi } from '@gantry/contract';
import type { Template, TemplateBody } from '@gantry/contract';
import { api } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/mutations.ts';
import { resourceKeys } from '../../../lib/project-resources.ts';

export function useCreateTemplate(projectId: number) {
  return useRefreshingMutation([resourceKeys.templates(projectId)], (body: TemplateBody) =>
    api(templatesApi.create, { params: { projectId }, body }),
  );
}

export function useUpdateTemplate(projectId: number) {
  return useRefreshingMutation(
    [resourceKeys.templates(projectId)],
    ({ templateId, body }: { templateId: number; body: TemplateBody }) =>
      api(templatesApi.update, { params: { projectId, templateId }, body }),
  );
}

export function useDeleteTemplate(projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (templateId: number) => api(templatesApi.remove, { params: { projectId, templateId } }),
    // Only the lists: the deleted template's own page is still open and would refetch into a 404.
    // The template leaves the cached lists at once, so a list shown before its refetch lands never offers it.
    onSuccess: (_result, templateId) => {
      const lists = [...resourceKeys.templates(projectId), 'list'];
      queryClient.setQueriesData<Template[]>({ queryKey: lists }, (templates) =>
        templates?.filter((template) => template.id !== templateId),
      );
      return queryClient.invalidateQueries({ queryKey: lists });
    },
  });
}

export const loadTemplate = (projectId: number, templateId: number) =>
  api(templatesApi.get, { params: { projectId, templateId } });
export const loadTemplateRefs = (projectId: number, templateId: number) =>
  api(templatesApi.refs, { params: { projectId, templateId } });

/** The project's members, whom the approval settings offer as approvers. */
export const projectMembersQuery = (projectId: number) =>
  queryOptions({
    queryKey: [...resourceKeys.templates(projectId), 'members'] as const,
    queryFn: ({ signal }) =>
      api(teamApi.list, { params: { projectId }, query: { sort: 'name', order: 'asc' }, signal }),
  });
