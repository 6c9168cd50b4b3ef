import {
  FAILING_HOSTS_MAX,
  HOST_LIMITS,
  PROJECT_HOSTS_MAX_RUNS,
  type FailingHosts,
  type ProjectHost,
  type ProjectHosts,
  HOST_STATUSES,
  type HostRecap,
  type HostCounts,
  type TaskHostReport,
  type TaskHosts,
} from '@gantry/contract';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import { notFound } from '../../errors.ts';
import type { TaskHostsRepository } from './task-hosts.repository.ts';
import type { TasksRepository } from './tasks.repository.ts';

/** A host counted once in the recap, by the worst of its results. */
function outcomeOf(counts: HostCounts): keyof HostRecap {
  if (counts.unreachable > 0) return 'unreachable';
  if (counts.failed > 0) return 'failed';
  if (counts.changed > 0) return 'changed';
  return 'ok';
}

function summarizeHosts(hosts: readonly HostCounts[]): HostRecap {
  const recap: HostRecap = { ok: 0, changed: 0, failed: 0, unreachable: 0 };
  for (const host of hosts) recap[outcomeOf(host)] += 1;
  return recap;
}

interface TaskHostsDeps {
  hosts: TaskHostsRepository;
  tasks: TasksRepository;
  clock: Clock;
}

const DAY_MS = 86_400_000;

/** When a task happened, as the history shows it: its end, else its start, else when it was queued. */
function timeOf(task: { created: string; start: string | null; end: string | null }): string {
  return task.end ?? task.start ?? task.created;
}

/** What ansible did per host in a task (docs/task-hosts.md): stored at the task's end, read by the Hosts view. */
export function createTaskHosts(deps: TaskHostsDeps) {
  async function assertTask(projectId: number, taskId: number): Promise<void> {
    if (!(await deps.tasks.find(projectId, taskId))) throw notFound('Task');
  }

  return {
    /** Stores a report (from this server's run or a runner's); the report is already masked and bounded. */
    async save(taskId: number, report: TaskHostReport): Promise<void> {
      const hosts = report.hosts.slice(0, HOST_LIMITS.maxHosts);
      const results = report.results.slice(0, HOST_LIMITS.maxResults);
      await deps.hosts.replace(
        taskId,
        hosts.map((host) => ({ task_id: taskId, ...host })),
        results.map((result) => ({ task_id: taskId, ...result })),
        JSON.stringify(summarizeHosts(hosts)),
      );
    },

    async list(projectId: number, taskId: number): Promise<TaskHosts> {
      await assertTask(projectId, taskId);
      const [hosts, results] = await Promise.all([deps.hosts.listHosts(taskId), deps.hosts.listResults(taskId)]);
      const byHost = new Map<string, TaskHosts['hosts'][number]['results']>();
      for (const { host, play, task, status, duration_ms, message } of results) {
        const list = byHost.get(host) ?? [];
        list.push({ play, task, status, duration_ms, message });
        byHost.set(host, list);
      }
      const counted = hosts.reduce((sum, host) => sum + HOST_STATUSES.reduce((n, s) => n + host[s], 0), 0);
      return {
        hosts: hosts.map((row) => ({
          host: row.host,
          ok: row.ok,
          changed: row.changed,
          failed: row.failed,
          unreachable: row.unreachable,
          skipped: row.skipped,
          rescued: row.rescued,
          ignored: row.ignored,
          results: byHost.get(row.host) ?? [],
        })),
        truncated: results.length < counted,
      };
    },

    listFailedHosts: (taskId: number) => deps.hosts.listFailedHosts(taskId),

    /** Every host of the project's ansible tasks with the newest task of each template on it. */
    async listProjectHosts(projectId: number): Promise<ProjectHosts> {
      const rows = await deps.hosts.listLastRuns(projectId, PROJECT_HOSTS_MAX_RUNS + 1);
      const hosts: ProjectHost[] = [];
      for (const row of rows.slice(0, PROJECT_HOSTS_MAX_RUNS)) {
        let host = hosts.at(-1);
        if (host?.host !== row.host) {
          host = { host: row.host, runs: [] };
          hosts.push(host);
        }
        host.runs.push({
          template_id: row.template_id,
          template_name: row.template_name,
          task_id: row.task_id,
          status: row.status,
          time: timeOf(row),
          failed: row.failed,
          unreachable: row.unreachable,
        });
      }
      return { hosts, truncated: rows.length > PROJECT_HOSTS_MAX_RUNS };
    },

    /** Hosts by the number of the last `days` days' tasks that failed on them or could not reach them. */
    async listFailingHosts(projectId: number, days: number): Promise<FailingHosts> {
      const since = toTimestamp(new Date(deps.clock.now().getTime() - days * DAY_MS));
      const rows = await deps.hosts.listFailing(projectId, since, FAILING_HOSTS_MAX);
      const ids = rows.map((row) => Number(row.last_task_id));
      const times = new Map(
        (await deps.hosts.listTaskTimes(projectId, ids)).map((task) => [Number(task.id), timeOf(task)]),
      );
      return {
        days,
        hosts: rows.map((row) => ({
          host: row.host,
          failures: Number(row.failures),
          last_task_id: Number(row.last_task_id),
          last_time: times.get(Number(row.last_task_id)) ?? '',
        })),
      };
    },
  };
}

export type TaskHostsService = ReturnType<typeof createTaskHosts>;
