import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { teamApi, workflowRunsApi, workflowsApi } from '@gantry/contract';
import type { ApprovalDecision, Endpoint, WorkflowBody } from '@gantry/contract';
import type { z } from 'zod';
import { api, request } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/mutations.ts';

export const workflowKeys = {
  all: (projectId: number) => ['projects', projectId, 'workflows'] as const,
  one: (projectId: number, workflowId: number) => ['projects', projectId, 'workflows', workflowId] as const,
  runs: (projectId: number, workflowId: number) => ['projects', projectId, 'workflows', workflowId, 'runs'] as const,
};

/** A running workflow run is read again this often (runs have no live messages). */
const RUN_POLL_MS = 1500;

const workflowsQuery = (projectId: number) =>
  queryOptions({
    queryKey: workflowKeys.all(projectId),
    queryFn: ({ signal }) => api(workflowsApi.list, { params: { projectId }, signal }),
  });

/** One view of a workflow (its definition, YAML file form, revisions): GET on its endpoint, cached under the workflow. */
const workflowPartQuery =
  <TPart extends string, E extends Endpoint<z.ZodType<unknown, { projectId: unknown; workflowId: unknown }>>>(
    part: TPart,
    endpoint: E,
  ) =>
  (projectId: number, workflowId: number) =>
    queryOptions({
      queryKey: [...workflowKeys.one(projectId, workflowId), part] as const,
      queryFn: ({ signal }) => request(endpoint, { params: { projectId, workflowId }, signal }),
    });

export const workflowQuery = workflowPartQuery('definition', workflowsApi.get);
export const workflowYamlQuery = workflowPartQuery('yaml', workflowsApi.yaml);
export const workflowVersionsQuery = workflowPartQuery('versions', workflowsApi.versions);

export const workflowRunsQuery = (projectId: number, workflowId: number) =>
  queryOptions({
    queryKey: workflowKeys.runs(projectId, workflowId),
    queryFn: ({ signal }) => api(workflowRunsApi.list, { params: { projectId, workflowId }, signal }),
    refetchInterval: (query) => (query.state.data?.some((run) => run.status === 'running') ? RUN_POLL_MS : false),
  });

/** The workflow's ended runs per day from `start` (YYYY-MM-DD) to today. */
export const workflowRunStatsQuery = (projectId: number, workflowId: number, start: string) =>
  queryOptions({
    queryKey: [...workflowKeys.runs(projectId, workflowId), 'stats', start] as const,
    queryFn: ({ signal }) =>
      api(workflowRunsApi.stats, { params: { projectId, workflowId }, query: { start }, signal }),
  });

export const workflowRunQuery = (projectId: number, workflowId: number, runId: number) =>
  queryOptions({
    queryKey: [...workflowKeys.runs(projectId, workflowId), runId] as const,
    queryFn: ({ signal }) => api(workflowRunsApi.get, { params: { projectId, workflowId, runId }, signal }),
    refetchInterval: (query) => (query.state.data?.status === 'running' ? RUN_POLL_MS : false),
  });

export const validateWorkflow = (projectId: number, body: WorkflowBody, signal?: AbortSignal) =>
  api(workflowsApi.validate, { params: { projectId }, body, signal });

/**
 * Creates the workflow (no id) or saves a new revision of it over `revision`, the one the edit started
 * from (refused if another was saved meanwhile); resolves to the saved workflow.
 */
export function useSaveWorkflow(projectId: number) {
  return useRefreshingMutation(
    [workflowKeys.all(projectId)],
    ({ id, revision, body }: { id?: number; revision?: number; body: WorkflowBody }) =>
      id
        ? api(workflowsApi.update, { params: { projectId, workflowId: id }, query: { revision }, body })
        : api(workflowsApi.create, { params: { projectId }, body }),
  );
}

function useDeleteWorkflow(projectId: number) {
  return useRefreshingMutation([workflowKeys.all(projectId)], (workflowId: number) =>
    api(workflowsApi.remove, { params: { projectId, workflowId } }),
  );
}

export function useStartWorkflowRun(projectId: number, workflowId: number) {
  return useRefreshingMutation([workflowKeys.runs(projectId, workflowId)], (variables: Record<string, string>) =>
    api(workflowRunsApi.start, { params: { projectId, workflowId }, body: { variables } }),
  );
}

export function useStopWorkflowRun(projectId: number, workflowId: number) {
  return useRefreshingMutation([workflowKeys.runs(projectId, workflowId)], (runId: number) =>
    api(workflowRunsApi.stop, { params: { projectId, workflowId, runId } }),
  );
}

/** Retries a failed or stopped run from its failed steps (or the one named); resolves to the new run. */
export function useRetryWorkflowRun(projectId: number, workflowId: number) {
  return useRefreshingMutation(
    [workflowKeys.runs(projectId, workflowId)],
    ({ runId, step }: { runId: number; step: string | null }) =>
      api(workflowRunsApi.retry, { params: { projectId, workflowId, runId }, body: { step } }),
  );
}

/** The project's members, the approvers an approval step can name. */
export const membersQuery = (projectId: number) =>
  queryOptions({
    queryKey: [...workflowKeys.all(projectId), 'members'] as const,
    queryFn: ({ signal }) =>
      api(teamApi.list, { params: { projectId }, query: { sort: 'name', order: 'asc' }, signal }),
  });

/** Workflows as their list page knows them. */
export const workflowsResource = {
  section: 'workflows',
  texts: { newTitle: 'workflows.newWorkflow' },
  query: workflowsQuery,
  useRemove: useDeleteWorkflow,
};

/** Approves or rejects an approval step; the run's answer replaces the cached run at once. */
export function useDecideApproval(projectId: number, workflowId: number, runId: number) {
  const queryClient = useQueryClient();
  return useRefreshingMutation(
    [workflowKeys.runs(projectId, workflowId)],
    async ({
      stepKey,
      decision,
      reason,
    }: {
      stepKey: string;
      decision: ApprovalDecision['decision'];
      reason: string;
    }) => {
      const params = { projectId, workflowId, runId, stepKey };
      const run = await api(decision === 'approve' ? workflowRunsApi.approve : workflowRunsApi.reject, {
        params,
        body: { reason },
      });
      queryClient.setQueryData(workflowRunQuery(projectId, workflowId, runId).queryKey, run);
      return run;
    },
  );
}
