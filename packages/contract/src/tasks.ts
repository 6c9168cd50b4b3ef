import { z } from 'zod';
import { ApprovalBody, ApprovalState } from './approvals.ts';
import { endpoint, projectEndpoint, taskEndpoint } from './endpoint.ts';
import {
  DateTime,
  GIT_BRANCH_INVALID,
  Id,
  NoContent,
  PathId,
  isGitBranchName,
  parseJsonObject,
  projectRefId,
  queryInteger,
  requiredId,
  wireInteger,
} from './common.ts';
import { TaskParams } from './task-spec.ts';
import { isJsonNestedTooDeep, nestedTooDeep } from './json-depth.ts';
import { CliArgsText, repositoryPath } from './templates.ts';
import { TaskStatus } from './task-statuses.ts';
import { HostRecap } from './task-hosts.ts';
import { PlanRecap } from './task-plan.ts';

/** Where an active task is: queued for dispatch or running (on the server or a runner). */
export const ActiveTaskLocation = z.enum(['queue', 'running']);
export type ActiveTaskLocation = z.infer<typeof ActiveTaskLocation>;

/** One entry of the admin's list of active tasks across all projects. */
export const ActiveTask = z.object({
  task_id: Id,
  project_id: Id,
  project_name: z.string().nullable().optional(),
  username: z.string().nullable().optional(),
  runner_id: Id.nullable().optional(),
  runner_name: z.string().nullable().optional(),
  status: TaskStatus,
  location: ActiveTaskLocation,
});
export type ActiveTask = z.infer<typeof ActiveTask>;

export const activeTasksApi = {
  list: endpoint({ method: 'GET', path: '/api/tasks', response: z.array(ActiveTask) }),
  /** Stops a queued or running task (not forced). */
  stop: endpoint({
    method: 'DELETE',
    path: '/api/tasks/:taskId',
    params: z.object({ taskId: PathId }),
    response: NoContent,
    status: 204,
  }),
};

export const Task = z.object({
  id: Id,
  template_id: Id,
  project_id: Id,
  status: TaskStatus,
  user_id: Id.nullable(),
  integration_id: Id.nullable(),
  schedule_id: Id.nullable(),
  message: z.string(),
  commit_hash: z.string().nullable(),
  commit_message: z.string(),
  build_task_id: Id.nullable(),
  version: z.string().nullable(),
  created: DateTime,
  start: DateTime.nullable(),
  end: DateTime.nullable(),
  environment: z.string(),
  arguments: z.string().nullable(),
  git_branch: z.string().nullable(),
  inventory_id: Id.nullable(),
  params: z.record(z.string(), z.unknown()),
  playbook: z.string(),
  runner_id: Id.nullable(),
  location: z.string(),
  // Older Semaphore clients read the Ansible switches at the top level, beside `params`.
  debug: z.boolean(),
  dry_run: z.boolean(),
  diff: z.boolean(),
  /** The hosts limit as one comma-separated string (Semaphore's deprecated field). */
  limit: z.string(),
  /** Semaphore's field for secret survey answers: always empty in a response, they never leave the server. */
  secret: z.string(),
  /** Gantry's own: an ansible task's hosts by outcome, once it reported them. */
  host_recap: HostRecap.nullable(),
  /** Gantry's own: the task whose failed hosts this one runs again. */
  rerun_of_task_id: Id.nullable(),
  /** Gantry's own: the task was created under its template's approval gate (see its approval). */
  needs_approval: z.boolean(),
  /** Gantry's own: what a terraform/OpenTofu task's plan changes, once it was planned. */
  plan_recap: PlanRecap.nullable(),
  /** Gantry's own: the first task of the retry chain this one belongs to (null for a first task). */
  retry_of_task_id: Id.nullable(),
  /** Gantry's own: which retry this is (0 for a first task) of how many the chain may take. */
  retry_attempt: wireInteger(),
  retry_limit: wireInteger(),
});
export type Task = z.infer<typeof Task>;

export const TaskWithTemplate = Task.extend({
  tpl_alias: z.string(),
  tpl_playbook: z.string(),
  tpl_type: z.string(),
  tpl_app: z.string(),
  user_name: z.string().nullable(),
  build_task: Task.nullable(),
  /** Gantry's own: the workflow run and step that started the task (the first run, when a retry kept it). */
  workflow_run: z.object({ id: Id, workflow_id: Id, step: z.string() }).nullable(),
});
export type TaskWithTemplate = z.infer<typeof TaskWithTemplate>;

/**
 * `task` is the Ansible task a line belongs to in Semaphore's records; Gantry sends it empty. `id` is
 * the line's number in its task counted from 1 (`seq` + 1): lines are keyed by task and number.
 */
export const TaskOutput = z.object({
  id: Id,
  task_id: Id,
  task: z.string(),
  seq: wireInteger(),
  time: DateTime,
  output: z.string(),
});
export type TaskOutput = z.infer<typeof TaskOutput>;

/** How long a task's environment or secret JSON may be, in characters. */
export const TASK_VARIABLES_MAX_LENGTH = 1024 * 1024;

export const JSON_OBJECT_TEXT = (label: string) =>
  z
    .string()
    .max(TASK_VARIABLES_MAX_LENGTH)
    .nullable()
    .optional()
    .transform((v) => (v?.trim() ? v : '{}'))
    .refine((v) => !isJsonNestedTooDeep(v), { error: nestedTooDeep(label), abort: true })
    .refine((v) => parseJsonObject(v) !== undefined, `${label} must be a JSON object`);

export const CreateTaskBody = z.object({
  template_id: requiredId('Template'),
  project_id: Id.optional(),
  message: z
    .string()
    .max(1024)
    .nullable()
    .optional()
    .transform((v) => v ?? ''),
  build_task_id: Id.nullable().optional(),
  environment: JSON_OBJECT_TEXT('Environment'),
  secret: JSON_OBJECT_TEXT('Secret'),
  arguments: CliArgsText,
  inventory_id: Id.nullable().optional(),
  git_branch: z.string().trim().max(255).refine(isGitBranchName, GIT_BRANCH_INVALID).nullable().optional(),
  playbook: repositoryPath('Playbook').nullable().optional(),
  params: TaskParams.nullable()
    .optional()
    .transform((v) => v ?? {}),
  // Stored as git writes it, so a re-run's pin compares equal to the commit its task ran.
  commit_hash: z
    .string()
    .trim()
    .regex(/^[0-9a-f]{7,40}$/i, 'Commit hash must be hexadecimal')
    .toLowerCase()
    .nullable()
    .optional(),
  debug: z.boolean().optional(),
  dry_run: z.boolean().optional(),
  diff: z.boolean().optional(),
  limit: z
    .string()
    .max(64 * 1024)
    .optional(),
});
export type CreateTaskBody = z.input<typeof CreateTaskBody>;

export const StopTaskBody = z
  .object({ force: z.boolean().optional().default(false) })
  .nullable()
  .optional();

/** Stops the queued tasks of a project, or of one of its templates, in one call (webhook floods queue hundreds). */
export const StopWaitingTasksBody = z
  .object({
    template_id: projectRefId('Template').optional(),
  })
  .nullable()
  .optional();
export type StopWaitingTasksBody = z.input<typeof StopWaitingTasksBody>;
export const StopWaitingTasksResult = z.object({ stopped: wireInteger() });
export type StopWaitingTasksResult = z.infer<typeof StopWaitingTasksResult>;
const TemplateTaskParams = z.object({ projectId: PathId, templateId: PathId });
/** Continues a list of tasks (newest first) after the last one seen: only tasks with a smaller id. */
const BeforeIdQuery = queryInteger({ min: 1, message: 'Invalid before_id' }).optional();
const LimitQuery = z.object({
  limit: queryInteger({ min: 1, max: 200 }).optional().catch(200),
  before_id: BeforeIdQuery,
});
const OutputQuery = z.object({
  offset: queryInteger().optional(),
  limit: queryInteger({ min: 1, max: 1_000_000 }).optional(),
});

/** A yes/no flag of a query string: true, false, 1 or 0. */
const queryFlag = (label: string) =>
  z
    .enum(['true', 'false', '1', '0'], { error: `${label} must be true or false` })
    .optional()
    .transform((v) => v === 'true' || v === '1');

/** Longest search text or regular expression accepted: enough for any real query, short enough to bound its cost. */
export const LOG_SEARCH_MAX_LENGTH = 500;
export const LOG_SEARCH_MAX_LIMIT = 1000;
export const TaskOutputSearchQuery = z.object({
  q: z
    .string({ error: 'Search text is required' })
    .min(1, 'Search text is required')
    .max(LOG_SEARCH_MAX_LENGTH, `Search text must be at most ${LOG_SEARCH_MAX_LENGTH} characters`),
  case: queryFlag('case'),
  regex: queryFlag('regex'),
  /** Only matches on lines after this seq (the last one of the previous page). */
  after: queryInteger({ min: 0, message: 'Invalid after' }).optional(),
  limit: queryInteger({ min: 1, max: LOG_SEARCH_MAX_LIMIT, message: 'Invalid limit' }).optional(),
});

/** Matches of a search in one task's log: how many lines match in all, and the seqs of a page of them. */
export const TaskOutputSearchResult = z.object({
  count: wireInteger(),
  /** Seqs (0-based line numbers, as in the output endpoint) of matching lines, ascending. */
  lines: z.array(wireInteger()),
  /** Lines of the log searched: a live task's log grows, and the count is for this many lines. */
  searched: wireInteger(),
});
export type TaskOutputSearchResult = z.infer<typeof TaskOutputSearchResult>;

export const StatsEntry = z.object({ date: z.string(), count_by_status: z.record(z.string(), wireInteger()) });
export type StatsEntry = z.infer<typeof StatsEntry>;

/** The days a stats request covers (YYYY-MM-DD, UTC, inclusive; by default the 30 days up to today). */
export const StatsRangeQuery = z.object({
  start: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Invalid start date')
    .optional(),
  end: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Invalid end date')
    .optional(),
});
export type StatsRangeQuery = z.infer<typeof StatsRangeQuery>;

export const tasksApi = {
  /**
   * Gantry's own: a new task of the same template, params, inventory and variables, limited to the hosts
   * that failed or were unreachable in this one (task.rerun_of_task_id names this one).
   */
  rerunFailedHosts: taskEndpoint('/rerun_failed_hosts', { method: 'POST', response: Task, status: 201 }),
  create: projectEndpoint('/tasks', { method: 'POST', body: CreateTaskBody, response: Task, status: 201 }),
  list: projectEndpoint('/tasks', { method: 'GET', response: z.array(TaskWithTemplate) }),
  last: projectEndpoint('/tasks/last', { method: 'GET', query: LimitQuery, response: z.array(TaskWithTemplate) }),
  get: taskEndpoint('', { method: 'GET', response: TaskWithTemplate }),
  output: taskEndpoint('/output', { method: 'GET', query: OutputQuery, response: z.array(TaskOutput) }),
  /** Gantry's own: finds lines of one task's log (text as shown, without colour codes; secrets already masked). */
  searchOutput: taskEndpoint('/output/search', {
    method: 'GET',
    query: TaskOutputSearchQuery,
    response: TaskOutputSearchResult,
  }),
  stop: taskEndpoint('/stop', { method: 'POST', body: StopTaskBody, response: NoContent, status: 204 }),
  stopWaiting: projectEndpoint('/tasks/stop_waiting', {
    method: 'POST',
    body: StopWaitingTasksBody,
    response: StopWaitingTasksResult,
  }),
  confirm: taskEndpoint('/confirm', { method: 'POST', response: NoContent, status: 204 }),
  reject: taskEndpoint('/reject', { method: 'POST', response: NoContent, status: 204 }),
  remove: taskEndpoint('', { method: 'DELETE', response: NoContent, status: 204 }),
  templateTasks: endpoint({
    method: 'GET',
    path: '/api/project/:projectId/templates/:templateId/tasks',
    params: TemplateTaskParams,
    query: z.object({ status: TaskStatus.optional(), before_id: BeforeIdQuery }),
    response: z.array(TaskWithTemplate),
  }),
  templateLast: endpoint({
    method: 'GET',
    path: '/api/project/:projectId/templates/:templateId/tasks/last',
    params: TemplateTaskParams,
    query: LimitQuery,
    response: z.array(TaskWithTemplate),
  }),
  templateStats: endpoint({
    method: 'GET',
    path: '/api/project/:projectId/templates/:templateId/stats',
    params: TemplateTaskParams,
    query: StatsRangeQuery.extend({ user_id: queryInteger({ min: 1, message: 'Invalid user_id' }).optional() }),
    response: z.array(StatsEntry),
  }),
};

/** Messages pushed over /api/ws. */
export const TaskUpdateMessage = z.object({
  type: z.literal('update'),
  task_id: Id,
  template_id: Id,
  project_id: Id,
  status: TaskStatus,
  start: DateTime.nullable(),
  end: DateTime.nullable(),
  version: z.string().nullable(),
});
export const TaskLogMessage = z.object({
  type: z.literal('log'),
  task_id: Id,
  project_id: Id,
  time: DateTime,
  output: z.string(),
});
/** Gantry's batched form of log messages, sent to sockets opened with ?batch=1. */
export const TaskLogBatchMessage = z.object({
  type: z.literal('logs'),
  task_id: Id,
  project_id: Id,
  lines: z.array(z.object({ seq: wireInteger(), time: DateTime, output: z.string() })),
});
export type TaskUpdateMessage = z.infer<typeof TaskUpdateMessage>;
export type TaskLogMessage = z.infer<typeof TaskLogMessage>;
export type TaskLogBatchMessage = z.infer<typeof TaskLogBatchMessage>;

export const rawOutputApi = taskEndpoint('/raw_output', { method: 'GET', response: z.string() });

/** Where the approval of a task of a template that needs approval stands (docs/workflows.md). */
export const TaskApproval = ApprovalState.extend({
  task_id: Id,
  /** waiting while approvers may decide, then approved, rejected, timed out or stopped (a stop while it waited). */
  state: z.enum(['waiting', 'approved', 'rejected', 'timed_out', 'stopped']),
  /** When nobody having decided settles it by the template's on-timeout rule. */
  due: DateTime.nullable(),
});
export type TaskApproval = z.output<typeof TaskApproval>;

export const taskApprovalApi = {
  get: taskEndpoint('/approval', { method: 'GET', response: TaskApproval }),
  /** Approves a task that waits for approval; with enough approvals it joins the queue. */
  approve: taskEndpoint('/approval/approve', { method: 'POST', body: ApprovalBody, response: TaskApproval }),
  /** Rejects a task that waits for approval: one rejection ends it as rejected. */
  reject: taskEndpoint('/approval/reject', { method: 'POST', body: ApprovalBody, response: TaskApproval }),
};
