import { z } from 'zod';
import { collectionEndpoints, endpoint, resourceEndpoints } from './endpoint.ts';
import {
  COUNTER_MESSAGES,
  DateTime,
  Id,
  NoContent,
  PathId,
  ProjectParams,
  queryInteger,
  requiredString,
  wireInteger,
} from './common.ts';
import { TaskSpec } from './task-spec.ts';
import { TaskHostReport } from './task-hosts.ts';
import { TaskPlan } from './task-plan.ts';
import { TaskOutputs } from './task-outputs.ts';
import { TaskStatus } from './task-statuses.ts';

export const Runner = z.object({
  id: Id,
  project_id: Id.nullable(),
  name: z.string(),
  webhook: z.string(),
  /** 0 means unlimited. */
  max_parallel_tasks: wireInteger(),
  active: z.boolean(),
  /** Last heartbeat of the runner process, null until it first connects. */
  touched: DateTime.nullable(),
});
export type Runner = z.infer<typeof Runner>;

/** The creation answer: the only time the token is shown. */
export const RunnerWithToken = Runner.extend({ token: z.string() });
export type RunnerWithToken = z.infer<typeof RunnerWithToken>;

const Webhook = z
  .string()
  .trim()
  .max(1024, 'Webhook must be at most 1024 characters')
  .refine((v) => v === '' || /^https?:\/\/\S+$/i.test(v), 'Webhook must be an http or https URL');

export const RunnerMaxParallelTasks = wireInteger({ max: 100000, message: COUNTER_MESSAGES });

export const RunnerBody = z.object({
  id: Id.optional(),
  project_id: Id.nullable().optional(),
  name: requiredString('Name'),
  webhook: Webhook.nullable()
    .optional()
    .transform((v) => v ?? ''),
  // The form sends an empty field as 0 (unlimited).
  max_parallel_tasks: RunnerMaxParallelTasks.nullable()
    .optional()
    .transform((v) => v ?? 0),
  active: z.boolean().optional().default(true),
});
export type RunnerBody = z.input<typeof RunnerBody>;

export const RunnerActiveBody = z.object({ active: z.boolean({ error: 'Invalid request body' }) });

const GlobalRunnerParams = z.object({ runnerId: PathId });
const ProjectRunnerParams = z.object({ projectId: PathId, runnerId: PathId });

export const runnersApi = {
  ...collectionEndpoints({
    path: '/api/runners',
    itemPath: '/api/runners/:runnerId',
    itemParams: GlobalRunnerParams,
    body: RunnerBody,
    item: Runner,
    created: RunnerWithToken,
  }),
  setActive: endpoint({
    method: 'POST',
    path: '/api/runners/:runnerId/active',
    params: GlobalRunnerParams,
    body: RunnerActiveBody,
    response: NoContent,
    status: 204,
  }),
};

export const projectRunnersApi = {
  ...resourceEndpoints({
    path: '/api/project/:projectId/runners',
    params: ProjectParams,
    id: 'runnerId',
    body: RunnerBody,
    item: Runner,
    created: RunnerWithToken,
  }),
  setActive: endpoint({
    method: 'POST',
    path: '/api/project/:projectId/runners/:runnerId/active',
    params: ProjectRunnerParams,
    body: RunnerActiveBody,
    response: NoContent,
    status: 204,
  }),
};

// ---- Internal protocol between `gantry runner` and the server (header X-Runner-Token) ----

export const RUNNER_TOKEN_HEADER = 'x-runner-token';
/** When the runner process started: a new value tells the server the runner lost the jobs it had. */
export const RUNNER_STARTED_AT_HEADER = 'x-runner-started-at';

export const RunnerRegisterBody = z.object({
  registration_token: z.string({ error: 'Invalid format' }).max(1024),
  name: z.string().trim().max(255).optional(),
  webhook: Webhook.optional(),
  max_parallel_tasks: RunnerMaxParallelTasks.optional(),
  project_id: Id.nullable().optional(),
});
export type RunnerRegisterBody = z.input<typeof RunnerRegisterBody>;

/** A job the server handed to the runner: the task's self-contained spec, secrets included. */
export const RunnerJob = z.object({ id: Id, spec: TaskSpec });
export type RunnerJob = z.infer<typeof RunnerJob>;

/** The key casing follows the reference protocol. */
export const RunnerState = z.object({
  /** Started jobs of this runner with the server's status: stopping/stopped kill, confirmed/rejected answer a plan. */
  CurrentJobs: z.array(z.object({ id: Id, status: TaskStatus, force: z.boolean() })),
  new_jobs: z.array(RunnerJob),
  /** Key material travels inside each job's spec; kept for the reference's shape. */
  access_keys: z.record(z.string(), z.unknown()),
});
export type RunnerState = z.infer<typeof RunnerState>;

export const RunnerPollQuery = z.object({
  /** Seconds the server may hold the request open until there is news for the runner. */
  wait: queryInteger({ max: 60 }).optional(),
});

export const RunnerReportedStatus = z.enum([
  'running',
  'waiting_confirmation',
  'success',
  'error',
  'stopped',
  'rejected',
]);
export type RunnerReportedStatus = z.infer<typeof RunnerReportedStatus>;

export const RunnerJobProgress = z.object({
  ID: Id,
  Status: RunnerReportedStatus.optional(),
  /** Index of the first record in the runner's own numbering of this job's lines; resending is harmless. */
  LogOffset: wireInteger().default(0),
  // Stored as given, in a varchar(40) column: a time must be one.
  LogRecords: z
    .array(
      z.object({
        time: z.iso.datetime({ offset: true, error: 'must be an RFC 3339 time' }).max(40),
        message: z.string().max(1024 * 1024),
      }),
    )
    .max(10000)
    .default([]),
  Commit: z
    .object({ hash: z.string().max(64), message: z.string().max(1024) })
    .nullable()
    .optional(),
  /** An ansible task's results per host, sent with its final status. */
  Hosts: TaskHostReport.optional(),
  /** A terraform/OpenTofu task's plan summary, sent before it waits for confirmation (until acknowledged). */
  Plan: TaskPlan.optional(),
  /** The outputs the task published, sent with its final status. */
  Outputs: TaskOutputs.optional(),
});
export type RunnerJobProgress = z.input<typeof RunnerJobProgress>;

export const RunnerProgressBody = z.object({ Jobs: z.array(RunnerJobProgress).max(1000).nullable().default([]) });
export type RunnerProgressBody = z.input<typeof RunnerProgressBody>;

export const RunnerProgressResult = z.object({
  /** Jobs the runner must kill and forget: unknown, finished, stopped or handed to someone else. */
  terminated_jobs: z.array(Id),
  /** Per job, how many of its lines the server holds; the runner drops those and resends the rest. */
  log_offsets: z.record(z.string(), wireInteger()),
});
export type RunnerProgressResult = z.infer<typeof RunnerProgressResult>;

export const runnerProtocolApi = {
  register: endpoint({
    method: 'POST',
    path: '/api/internal/runners',
    body: RunnerRegisterBody,
    response: z.object({ token: z.string() }),
  }),
  poll: endpoint({ method: 'GET', path: '/api/internal/runners', query: RunnerPollQuery, response: RunnerState }),
  progress: endpoint({
    method: 'PUT',
    path: '/api/internal/runners',
    body: RunnerProgressBody,
    response: RunnerProgressResult,
  }),
  unregister: endpoint({ method: 'DELETE', path: '/api/internal/runners', response: NoContent, status: 204 }),
};
