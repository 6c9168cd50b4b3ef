import type { ScheduleTaskParams } from '@gantry/contract';
import { readRemoteHead } from '@gantry/runner';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { KeysService } from '../keys/keys.service.ts';
import type { RepositoriesService } from '../repositories/repositories.service.ts';
import type { TasksService } from '../tasks/tasks.service.ts';
import { nextRunAfter } from './cron.ts';
import type { SchedulesRepository } from './schedules.repository.ts';
import type { WorkflowRuns } from '../workflows/workflow-runs.service.ts';
import { workflowVariablesOf } from '../workflows/workflow-variables.ts';
import type { ScheduleRow } from './schedules.table.ts';

/** A due time missed by more than this (the server was down) is skipped, not replayed. */
const MISSED_RUN_GRACE_MS = 60_000;
/** The loop re-reads the due times at least this often, so changes from other servers are seen. */
const MAX_SLEEP_MS = 30_000;

interface SchedulerDeps {
  config: Config;
  clock: Clock;
  logger: FastifyBaseLogger;
  schedules: SchedulesRepository;
  tasks: TasksService;
  repositories: RepositoriesService;
  keys: KeysService;
  workflowRuns: Pick<WorkflowRuns, 'startFor'>;
  /** Told of each claimed due time: a task started, could not start, or the time was missed while no server ran. */
  onRun?(result: 'started' | 'failed' | 'missed'): void;
}

/**
 * Starts tasks (or workflow runs) at their schedules' due times. Each due time is claimed in the database before the
 * task is created, so it fires exactly once, whatever the number of servers, and never twice.
 */
export function createScheduler(deps: SchedulerDeps) {
  const timezone = deps.config.schedule_timezone;
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let stopped = true;
  let checkCounter = 0;

  /** For "run on new commit": true when the branch head moved since the schedule last looked. */
  async function hasNewCommit(schedule: ScheduleRow): Promise<boolean> {
    if (!schedule.repository_id) return true;
    const repository = await deps.repositories.get(schedule.project_id, schedule.repository_id);
    const key = await deps.keys.getLoginMaterial(schedule.project_id, repository.ssh_key_id);
    checkCounter += 1;
    const head = await readRemoteHead(
      { id: repository.id, url: repository.git_url, branch: repository.git_branch, key, commit_hash: null },
      { workRoot: deps.config.data_dir, baseEnv: deps.config.task_base_env, checkId: checkCounter },
    );
    if (!head) {
      deps.logger.warn({ scheduleId: schedule.id }, 'could not read the head of the schedule repository');
      return false;
    }
    if (head === schedule.last_commit_hash) return false;
    await deps.schedules.update(schedule.project_id, schedule.id, { last_commit_hash: head });
    return true;
  }

  async function fire(schedule: ScheduleRow): Promise<void> {
    if (!(await hasNewCommit(schedule))) return;
    await start(schedule);
    deps.onRun?.('started');
  }

  async function start(schedule: ScheduleRow): Promise<void> {
    const params = JSON.parse(schedule.task_params) as ScheduleTaskParams;
    if (schedule.workflow_id !== null) {
      const variables = workflowVariablesOf(params);
      await deps.workflowRuns.startFor(
        { scheduleId: schedule.id },
        schedule.project_id,
        schedule.workflow_id,
        variables,
      );
      return;
    }
    if (schedule.template_id === null) throw new Error('The schedule has neither a template nor a workflow');
    await deps.tasks.create(
      schedule.project_id,
      {
        template_id: schedule.template_id,
        message: params.message ?? '',
        environment: params.environment?.trim() ? params.environment : '{}',
        secret: '{}',
        arguments: params.arguments?.trim() ? params.arguments : null,
        git_branch: params.git_branch ?? null,
        inventory_id: params.inventory_id ?? null,
        params: params.params ?? {},
      },
      { scheduleId: schedule.id },
    );
  }

  /** Fires every schedule due now; returns how many due times were claimed by this server. */
  async function tick(): Promise<number> {
    const now = deps.clock.now();
    let claimed = 0;
    for (const schedule of await deps.schedules.listDue(toTimestamp(now))) {
      const due = schedule.next_run;
      if (!due) continue;
      const missed = now.getTime() - Date.parse(due) > MISSED_RUN_GRACE_MS;
      const next = nextRunAfter(
        schedule.cron_format,
        timezone,
        missed ? now : new Date(Math.max(Date.parse(due), now.getTime() - 1)),
      );
      if (!(await deps.schedules.claim(schedule.id, due, next ? toTimestamp(next) : null))) continue;
      claimed += 1;
      if (missed) {
        deps.logger.info({ scheduleId: schedule.id, due }, 'schedule run missed while the server was down; skipped');
        deps.onRun?.('missed');
        continue;
      }
      await fire(schedule).catch((error: unknown) => {
        deps.logger.error({ err: error, scheduleId: schedule.id }, 'scheduled task could not start');
        deps.onRun?.('failed');
      });
    }
    return claimed;
  }

  async function loop(): Promise<void> {
    if (stopped || running) return;
    running = true;
    try {
      await tick();
    } catch (error) {
      deps.logger.error({ err: error }, 'scheduler tick failed');
    } finally {
      running = false;
    }
    if (stopped) return;
    const earliest = await deps.schedules.findEarliestNextRun().catch(() => undefined);
    const delay = earliest
      ? Math.min(Math.max(Date.parse(earliest) - deps.clock.now().getTime(), 0), MAX_SLEEP_MS)
      : MAX_SLEEP_MS;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void loop(), delay + 5);
  }

  return {
    tick,
    start(): void {
      stopped = false;
      void loop();
    },
    /** Schedules changed: look at the due times again now. */
    wake(): void {
      if (!stopped) void loop();
    },
    stop(): void {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
    isRunning(): boolean {
      return !stopped;
    },
  };
}
