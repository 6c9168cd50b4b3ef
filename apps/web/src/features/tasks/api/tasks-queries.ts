import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  projectHostsApi,
  rawOutputApi,
  taskApprovalApi,
  taskHostsApi,
  taskPlanApi,
  tasksApi,
  teamApi,
  templatesApi,
} from '@gantry/contract';
import type { CreateTaskBody, Task } from '@gantry/contract';
import { api, buildUrl } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/mutations.ts';
import { taskKeys } from '../../../lib/live-events.ts';
import type { LogLine } from '../log/log-buffer.ts';

/** Template task lists show the last 200 tasks (the seed's default limit); the row summary the last 5. */
const TEMPLATE_TASKS_LIMIT = 200;
export const LAST_TASKS_ROW_LIMIT = 5;
/** The build version picker offers the last 20 successful builds. */
const BUILD_VERSIONS_LIMIT = 20;

export const taskQuery = (projectId: number, taskId: number) =>
  queryOptions({
    queryKey: taskKeys.detail(projectId, taskId),
    queryFn: ({ signal }) => api(tasksApi.get, { params: { projectId, taskId }, signal }),
  });

/** The hosts of an ansible task; stored when it ends, so read again once it has finished. */
export const taskHostsQuery = (projectId: number, taskId: number, finished: boolean) =>
  queryOptions({
    queryKey: [...taskKeys.detail(projectId, taskId), 'hosts', finished] as const,
    queryFn: ({ signal }) => api(taskHostsApi.list, { params: { projectId, taskId }, signal }),
  });

/** What a terraform/OpenTofu task's plan changes; stored once, before it waits for confirmation. */
export const taskPlanQuery = (projectId: number, taskId: number) =>
  queryOptions({
    queryKey: [...taskKeys.detail(projectId, taskId), 'plan'] as const,
    queryFn: ({ signal }) => api(taskPlanApi.get, { params: { projectId, taskId }, signal }),
  });

/** Every host of the project's ansible tasks with the newest task of each template on it. */
export const projectHostsQuery = (projectId: number) =>
  queryOptions({
    queryKey: [...taskKeys.project(projectId), 'hosts'] as const,
    queryFn: ({ signal }) => api(projectHostsApi.list, { params: { projectId }, signal }),
  });

/** The hosts that failed in the most tasks of the last `days` days. */
export const failingHostsQuery = (projectId: number, days: number) =>
  queryOptions({
    queryKey: [...taskKeys.project(projectId), 'hosts', 'failing', days] as const,
    queryFn: ({ signal }) => api(projectHostsApi.failing, { params: { projectId }, query: { days }, signal }),
  });

/** The history shows the newest 200 tasks, and 200 more each time the user asks for older ones. */
export const HISTORY_PAGE_SIZE = 200;

export const lastTasksQuery = (projectId: number) =>
  queryOptions({
    queryKey: taskKeys.last(projectId),
    queryFn: ({ signal }) => api(tasksApi.last, { params: { projectId }, query: { limit: HISTORY_PAGE_SIZE }, signal }),
  });

/** The page of history below a task (keyset: before_id), so reading deep into a year costs what the first page does. */
export const fetchOlderTasks = (projectId: number, beforeId: number) =>
  api(tasksApi.last, { params: { projectId }, query: { limit: HISTORY_PAGE_SIZE, before_id: beforeId } });

export const templateTasksQuery = (projectId: number, templateId: number, limit = TEMPLATE_TASKS_LIMIT) =>
  queryOptions({
    queryKey: taskKeys.templateLast(projectId, templateId, limit),
    queryFn: ({ signal }) =>
      api(tasksApi.templateLast, { params: { projectId, templateId }, query: { limit }, signal }),
  });

/** Successful tasks of a build template, newest first: the versions a deploy can use. */
export const buildVersionsQuery = (projectId: number, buildTemplateId: number) =>
  queryOptions({
    queryKey: taskKeys.templateSuccessful(projectId, buildTemplateId),
    queryFn: async ({ signal }) => {
      const tasks = await api(tasksApi.templateTasks, {
        params: { projectId, templateId: buildTemplateId },
        query: { status: 'success' },
        signal,
      });
      return tasks.filter((task) => task.status === 'success').slice(0, BUILD_VERSIONS_LIMIT);
    },
    staleTime: 0,
  });

export const templateStatsQuery = (projectId: number, templateId: number, start: string, userId: number | null) =>
  queryOptions({
    queryKey: taskKeys.templateStats(projectId, templateId, start, userId),
    queryFn: ({ signal }) =>
      api(tasksApi.templateStats, {
        params: { projectId, templateId },
        query: { start, ...(userId === null ? {} : { user_id: userId }) },
        signal,
      }),
  });

/** The template a task form is built from; always fresh, since its survey may just have changed. */
export const taskTemplateQuery = (projectId: number, templateId: number) =>
  queryOptions({
    queryKey: [...taskKeys.template(projectId, templateId), 'definition'] as const,
    queryFn: ({ signal }) => api(templatesApi.get, { params: { projectId, templateId }, signal }),
    staleTime: 0,
  });

export const teamMembersQuery = (projectId: number) =>
  queryOptions({
    queryKey: ['projects', projectId, 'users'] as const,
    queryFn: ({ signal }) =>
      api(teamApi.list, { params: { projectId }, query: { sort: 'name', order: 'asc' }, signal }),
  });

/** Reads log lines [offset, offset + limit) of a task. */
export async function fetchTaskOutput(
  projectId: number,
  taskId: number,
  offset: number,
  limit: number,
  signal: AbortSignal,
): Promise<LogLine[]> {
  return api(tasksApi.output, { params: { projectId, taskId }, query: { offset, limit }, signal });
}

export interface LogSearch {
  text: string;
  caseSensitive: boolean;
  regex: boolean;
}

/** Matches the log search bar can step through; the count is always the total. */
const LOG_SEARCH_PAGE = 1000;

/** Search in one task's log on the server for the first `limit` matches; a running task's is searched again every `refreshMs`. */
export const taskLogSearchQuery = (
  projectId: number,
  taskId: number,
  search: LogSearch,
  refreshMs: number | false,
  limit = LOG_SEARCH_PAGE,
) =>
  queryOptions({
    queryKey: ['projects', projectId, 'tasks', 'log-search', taskId, search, limit] as const,
    queryFn: ({ signal }) =>
      api(tasksApi.searchOutput, {
        params: { projectId, taskId },
        query: {
          q: search.text,
          case: search.caseSensitive ? 'true' : 'false',
          regex: search.regex ? 'true' : 'false',
          limit,
        },
        signal,
      }),
    enabled: search.text !== '',
    placeholderData: keepPreviousData,
    refetchInterval: refreshMs,
    retry: false,
  });

export function rawOutputUrl(projectId: number, taskId: number): string {
  return buildUrl(rawOutputApi.path, { projectId, taskId });
}

export function useCreateTask(projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateTaskBody) => api(tasksApi.create, { params: { projectId }, body }),
    onSuccess: (task: Task) => {
      // The server announces a task on its first status change; lists show it right away.
      void queryClient.invalidateQueries({ queryKey: taskKeys.last(projectId) });
      void queryClient.invalidateQueries({ queryKey: taskKeys.template(projectId, task.template_id) });
      void queryClient.invalidateQueries({ queryKey: taskKeys.active });
    },
  });
}

/** Queues the template again for the failed and unreachable hosts of a task. */
export function useRerunFailedHosts(projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (taskId: number) => api(tasksApi.rerunFailedHosts, { params: { projectId, taskId } }),
    onSuccess: (task: Task) => {
      void queryClient.invalidateQueries({ queryKey: taskKeys.last(projectId) });
      void queryClient.invalidateQueries({ queryKey: taskKeys.template(projectId, task.template_id) });
      void queryClient.invalidateQueries({ queryKey: taskKeys.active });
    },
  });
}

export type TaskAction = { kind: 'stop'; force: boolean } | { kind: 'confirm' } | { kind: 'reject' };

export function useTaskAction(projectId: number, taskId: number) {
  return useRefreshingMutation(
    [taskKeys.detail(projectId, taskId)],
    (action: TaskAction) => {
      const params = { projectId, taskId };
      if (action.kind === 'stop') return api(tasksApi.stop, { params, body: { force: action.force } });
      if (action.kind === 'confirm') return api(tasksApi.confirm, { params });
      return api(tasksApi.reject, { params });
    },
    { alsoAfterFailure: true },
  );
}

/** Stops every waiting task of the project, or of one template; resolves with how many were stopped. */
export function useStopWaitingTasks(projectId: number) {
  // The websocket updates each row; this also refreshes lists whose socket missed some.
  return useRefreshingMutation(
    [taskKeys.project(projectId)],
    (templateId?: number) =>
      api(tasksApi.stopWaiting, {
        params: { projectId },
        body: templateId === undefined ? {} : { template_id: templateId },
      }),
    { alsoAfterFailure: true },
  );
}

/** Where the approval of a task of a template that needs approval stands; read again as the task's status moves. */
export const taskApprovalQuery = (projectId: number, taskId: number, status: string) =>
  queryOptions({
    queryKey: [...taskKeys.detail(projectId, taskId), 'approval', status] as const,
    queryFn: ({ signal }) => api(taskApprovalApi.get, { params: { projectId, taskId }, signal }),
    // The panel (and a reason dialog in it) stays while the next status's answer loads.
    placeholderData: keepPreviousData,
  });

/** Approves or rejects a task that waits for approval, with the reason every decision needs. */
export function useDecideTaskApproval(projectId: number, taskId: number) {
  return useRefreshingMutation(
    [taskKeys.detail(projectId, taskId)],
    ({ decision, reason }: { decision: 'approve' | 'reject'; reason: string }) =>
      api(decision === 'approve' ? taskApprovalApi.approve : taskApprovalApi.reject, {
        params: { projectId, taskId },
        body: { reason },
      }),
  );
}
