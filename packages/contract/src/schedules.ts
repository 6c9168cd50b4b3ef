import { z } from 'zod';
import { endpoint, projectEndpoint, resourceEndpoints } from './endpoint.ts';
import {
  DateTime,
  GIT_BRANCH_INVALID,
  Id,
  NoContent,
  PathId,
  ProjectParams,
  isGitBranchName,
  requiredId,
  requiredText,
  resourceBodyFields,
} from './common.ts';
import { TaskParams } from './task-spec.ts';
import { ResourceRefs } from './refs.ts';
import { isJsonNestedTooDeep, nestedTooDeep } from './json-depth.ts';

/** What a schedule (or integration) passes to the task it starts. */
export const ScheduleTaskParams = z
  .object({
    environment: z
      .string()
      .max(1024 * 1024)
      .refine((v) => !isJsonNestedTooDeep(v), nestedTooDeep('Environment'))
      .nullable()
      .optional(),
    arguments: z
      .string()
      .max(64 * 1024)
      .nullable()
      .optional(),
    git_branch: z.string().max(255).refine(isGitBranchName, GIT_BRANCH_INVALID).nullable().optional(),
    message: z.string().max(1024).nullable().optional(),
    version: z.string().max(255).nullable().optional(),
    inventory_id: Id.nullable().optional(),
    params: TaskParams.nullable().optional(),
  })
  .catchall(z.unknown());
export type ScheduleTaskParams = z.infer<typeof ScheduleTaskParams>;

export const Schedule = z.object({
  id: Id,
  project_id: Id,
  /** Null for a schedule that starts a workflow (then `workflow_id` is set and `tpl_name` is empty). */
  template_id: Id.nullable(),
  /** Present only on a schedule that starts a workflow run instead of a task. */
  workflow_id: Id.optional(),
  tpl_name: z.string(),
  name: z.string(),
  cron_format: z.string(),
  active: z.boolean(),
  repository_id: Id.nullable(),
  next_run: DateTime.nullable(),
  task_params: z.record(z.string(), z.unknown()),
  /** Semaphore 2025's one-time schedules (type run_at) do not exist in Gantry: every schedule is a cron one. */
  type: z.literal(''),
  run_at: z.null(),
  delete_after_run: z.literal(false),
});
export type Schedule = z.infer<typeof Schedule>;

export const TEMPLATE_OR_WORKFLOW = 'Either a template or a workflow is required, not both';

/** What a schedule or integration starts: a template (Semaphore's only target) or a workflow, one of the two. */
export const targetFields = {
  /** Left out (or null) when it starts a workflow. */
  template_id: requiredId('Template').nullish(),
  /**
   * Gantry only: the workflow it starts instead of a template; `task_params.variables` (and an
   * integration's extracted values) give the values of the workflow's variables.
   */
  workflow_id: Id.nullish(),
};

/** Checks targetFields: exactly one of the two. */
export function requireOneTarget(
  value: { template_id?: number | null; workflow_id?: number | null },
  ctx: z.RefinementCtx,
): void {
  const targets = [value.template_id, value.workflow_id].filter((id) => id !== null && id !== undefined);
  if (targets.length === 1) return;
  ctx.addIssue({
    code: 'custom',
    path: ['template_id'],
    message: targets.length === 0 ? requiredText('Template') : TEMPLATE_OR_WORKFLOW,
  });
}

export const ONE_TIME_SCHEDULES_UNSUPPORTED =
  'One-time schedules (type run_at) are not supported; use a cron expression';

export const CRON_REQUIRED = 'Cron required';

/** How often a "run on new commit" schedule looks for a new commit; the first is the default. */
export const COMMIT_CHECK_INTERVALS = ['* * * * *', '*/5 * * * *', '*/10 * * * *', '@hourly', '@daily'] as const;

export const ScheduleBody = z
  .object({
    ...resourceBodyFields,
    ...targetFields,
    type: z
      .string()
      .max(32)
      .optional()
      .refine((type) => !type || type === 'cron', ONE_TIME_SCHEDULES_UNSUPPORTED),
    cron_format: z.string({ error: CRON_REQUIRED }).trim().min(1, CRON_REQUIRED).max(255),
    /** Absent means false, as in Semaphore: Go clients (the Terraform provider) leave false out. */
    active: z.boolean().optional().default(false),
    repository_id: Id.nullable().optional(),
    task_params: ScheduleTaskParams.nullable()
      .optional()
      .transform((v) => v ?? {}),
  })
  .superRefine(requireOneTarget);
export type ScheduleBody = z.input<typeof ScheduleBody>;

const ScheduleParams = z.object({ projectId: PathId, scheduleId: PathId });

export const schedulesApi = {
  ...resourceEndpoints({
    path: '/api/project/:projectId/schedules',
    params: ProjectParams,
    id: 'scheduleId',
    body: ScheduleBody,
    item: Schedule,
    /** Nothing refers to a schedule; the UI asks anyway before every delete, as for the other resources. */
    refs: ResourceRefs,
  }),
  validate: projectEndpoint('/schedules/validate', {
    method: 'POST',
    body: z.object({ cron_format: z.string({ error: CRON_REQUIRED }).trim().min(1, CRON_REQUIRED).max(255) }),
    response: z.object({ next_runs: z.array(DateTime) }),
  }),
  setActive: endpoint({
    method: 'PUT',
    path: '/api/project/:projectId/schedules/:scheduleId/active',
    params: ScheduleParams,
    body: z.object({ active: z.boolean({ error: 'active must be true or false' }) }),
    response: NoContent,
    status: 204,
  }),
  ofTemplate: endpoint({
    method: 'GET',
    path: '/api/project/:projectId/templates/:templateId/schedules',
    params: z.object({ projectId: PathId, templateId: PathId }),
    response: z.array(Schedule),
  }),
};
