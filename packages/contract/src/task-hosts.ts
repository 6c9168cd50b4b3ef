import { z } from 'zod';
import { DateTime, Id, queryInteger, wireInteger } from './common.ts';
import { projectEndpoint, taskEndpoint } from './endpoint.ts';
import { TaskStatus } from './task-statuses.ts';

/** What one ansible task did on one host, as ansible's recap names it. */
export const HOST_STATUSES = ['ok', 'changed', 'failed', 'unreachable', 'skipped', 'rescued', 'ignored'] as const;
export const HostStatus = z.enum(HOST_STATUSES);
export type HostStatus = z.infer<typeof HostStatus>;

/**
 * Bounds of one task's host results: counts are kept for every host up to MAX_HOSTS, task results
 * only up to MAX_RESULTS (a playbook of 50 tasks on 5,000 hosts has 250,000), so neither the
 * runner's report nor the store grows with the size of the fleet times the playbook.
 */
export const HOST_LIMITS = {
  maxHosts: 10_000,
  maxResults: 5_000,
  nameLength: 255,
  messageLength: 1_000,
} as const;

const Name = z.string().max(HOST_LIMITS.nameLength);
const Count = wireInteger({ min: 0 });

/** One field per host status, in ansible's order, each holding `value` (a count's schema, or a count). */
const fillHostStatuses = <T>(value: T) =>
  Object.fromEntries(HOST_STATUSES.map((status) => [status, value])) as Record<HostStatus, T>;

export const HostCounts = z.object(fillHostStatuses(Count));
export type HostCounts = z.infer<typeof HostCounts>;

/** The counts of a host before any of its results. */
export const createEmptyHostCounts = (): HostCounts => fillHostStatuses(0);

export const HostTaskResult = z.object({
  play: Name,
  task: Name,
  status: HostStatus,
  duration_ms: wireInteger({ min: 0 }),
  /** Why it failed or was unreachable, secrets masked; empty otherwise. */
  message: z.string().max(HOST_LIMITS.messageLength),
});
export type HostTaskResult = z.infer<typeof HostTaskResult>;

/** One task's results per host, as a runner reports them with the task's end. */
export const TaskHostReport = z.object({
  hosts: z.array(HostCounts.extend({ host: Name })).max(HOST_LIMITS.maxHosts),
  results: z.array(HostTaskResult.extend({ host: Name })).max(HOST_LIMITS.maxResults),
  /** Task results were left out past MAX_RESULTS (the counts are complete). */
  truncated: z.boolean(),
});
export type TaskHostReport = z.infer<typeof TaskHostReport>;

const EventCount = z
  .number()
  .int()
  .min(0)
  .max(2 ** 31 - 1);
/**
 * One line of the events file Gantry's ansible callback plugin writes while a task runs (read back by
 * the runner package, which masks secrets and applies HOST_LIMITS before anything is reported).
 */
export const HostEventLine = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('result'),
    host: z.string(),
    play: z.string(),
    task: z.string(),
    status: HostStatus,
    duration_ms: EventCount.catch(0),
    message: z.string(),
  }),
  z.object({
    type: z.literal('host'),
    host: z.string(),
    ...fillHostStatuses(EventCount.default(0)),
  }),
  z.object({ type: z.literal('truncated') }),
]);

/** Hosts of a task by how their run ended: each host counted once, by its worst status. */
export const HostRecap = HostCounts.pick({ ok: true, changed: true, failed: true, unreachable: true });
export type HostRecap = z.infer<typeof HostRecap>;

export const TaskHost = HostCounts.extend({ host: z.string(), results: z.array(HostTaskResult) });
export type TaskHost = z.infer<typeof TaskHost>;

export const TaskHosts = z.object({ hosts: z.array(TaskHost), truncated: z.boolean() });
export type TaskHosts = z.infer<typeof TaskHosts>;

export const taskHostsApi = {
  /** Gantry's own: the hosts of an ansible task with their counts and task results. */
  list: taskEndpoint('/hosts', { method: 'GET', response: TaskHosts }),
};

/** The last task of one template that ran on a host. */
export const HostLastRun = z.object({
  template_id: Id,
  template_name: z.string(),
  task_id: Id,
  status: TaskStatus,
  /** When the task ended (or started, or was queued, while it has not). */
  time: DateTime,
  failed: Count,
  unreachable: Count,
});
export type HostLastRun = z.infer<typeof HostLastRun>;

export const ProjectHost = z.object({ host: z.string(), runs: z.array(HostLastRun) });
export type ProjectHost = z.infer<typeof ProjectHost>;

/** Host-and-template pairs one answer holds at most; past it, `truncated` (hosts in name order). */
export const PROJECT_HOSTS_MAX_RUNS = 20_000;

export const ProjectHosts = z.object({ hosts: z.array(ProjectHost), truncated: z.boolean() });
export type ProjectHosts = z.infer<typeof ProjectHosts>;

export const FAILING_HOSTS_MAX = 100;

export const FailingHost = z.object({
  host: z.string(),
  /** Tasks in the window in which the host had a failed or unreachable result. */
  failures: Count,
  last_task_id: Id,
  last_time: DateTime,
});
export type FailingHost = z.infer<typeof FailingHost>;

export const FailingHostsQuery = z.object({
  days: queryInteger({ min: 1, max: 365, message: 'days must be an integer from 1 to 365' }).optional().default(30),
});

export const FailingHosts = z.object({ days: Count, hosts: z.array(FailingHost) });
export type FailingHosts = z.infer<typeof FailingHosts>;

/** Gantry's own: the hosts ansible tasks of a project ran on (docs/task-hosts.md). */
export const projectHostsApi = {
  list: projectEndpoint('/hosts', { method: 'GET', response: ProjectHosts }),
  /** Hosts by how many tasks failed on them in the last `days` days, most first (at most FAILING_HOSTS_MAX). */
  failing: projectEndpoint('/hosts/failing', { method: 'GET', query: FailingHostsQuery, response: FailingHosts }),
};
