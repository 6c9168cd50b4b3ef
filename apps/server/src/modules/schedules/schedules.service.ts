import { type ResourceRefs, type Schedule, type ScheduleBody, emptyRefs } from '@gantry/contract';
import type { z } from 'zod';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import type { Config } from '../../config.ts';
import { badRequest, notFound, validationFailed } from '../../errors.ts';
import type { EventsService } from '../events/events.service.ts';
import { assertBodyInProject, projectResource } from '../refs/project-resource.ts';
import type { RepositoriesService } from '../repositories/repositories.service.ts';
import type { TemplatesService } from '../templates/templates.service.ts';
import type { UserRow } from '../users/users.table.ts';
import { checkStartTarget } from '../workflows/start-target.ts';
import type { WorkflowRuns } from '../workflows/workflow-runs.service.ts';
import { explainCron, nextRunAfter } from './cron.ts';
import type { ScheduleListRow, SchedulesRepository } from './schedules.repository.ts';
import { columnsOf, flagsOf } from '../../db/row-fields.ts';

type ScheduleInput = z.output<typeof ScheduleBody>;

function toSchedule(row: ScheduleListRow): Schedule {
  return {
    ...(row.workflow_id === null ? {} : { workflow_id: row.workflow_id }),
    ...columnsOf(row, ['id', 'project_id', 'template_id', 'tpl_name', 'name', 'cron_format', 'repository_id']),
    ...flagsOf(row, ['active']),
    next_run: row.active === 1 ? row.next_run : null,
    task_params: JSON.parse(row.task_params) as Record<string, unknown>,
    type: '',
    run_at: null,
    delete_after_run: false,
  };
}

interface SchedulesDeps {
  config: Config;
  clock: Clock;
  schedules: SchedulesRepository;
  templates: TemplatesService;
  repositories: RepositoriesService;
  events: EventsService;
  workflowRuns: Pick<WorkflowRuns, 'explainStart'>;
  /** Tells the scheduler that due times changed. */
  onChange(): void;
}

export function createSchedulesService({
  config,
  clock,
  schedules,
  templates,
  repositories,
  events,
  workflowRuns,
  onChange,
}: SchedulesDeps) {
  const timezone = config.schedule_timezone;

  const { get: getRow, record } = projectResource({
    label: 'Schedule',
    objectType: 'schedule',
    rows: schedules,
    events,
  });

  function checkCron(expression: string): void {
    const problem = explainCron(expression, timezone);
    if (problem) throw validationFailed(problem);
  }

  /** The next due time counted from now, so a schedule switched on never replays the past. */
  function nextFromNow(expression: string): string | null {
    const next = nextRunAfter(expression, timezone, clock.now());
    return next ? toTimestamp(next) : null;
  }

  async function toRow(projectId: number, body: ScheduleInput) {
    assertBodyInProject(projectId, body);
    checkCron(body.cron_format);
    const target = await checkStartTarget({ templates, workflowRuns }, projectId, body, true);
    if (body.repository_id) await repositories.assertExists(projectId, body.repository_id);
    await templates.assertTaskParamsInProject(projectId, body.task_params);
    return {
      name: body.name,
      ...target,
      cron_format: body.cron_format,
      active: body.active ? 1 : 0,
      repository_id: body.repository_id ?? null,
      next_run: nextFromNow(body.cron_format),
      task_params: JSON.stringify(body.task_params),
    };
  }

  return {
    async list(projectId: number): Promise<Schedule[]> {
      return (await schedules.list(projectId)).map(toSchedule);
    },
    /**
     * A template's commit-check schedules (those watching a repository), as Semaphore answers
     * GET /templates/{id}/schedules: its web UI deletes the schedule it finds there when the template
     * is saved without a check interval, so a plain timed schedule must never be among them.
     */
    async listCommitChecks(projectId: number, templateId: number): Promise<Schedule[]> {
      if (!(await templates.exists(projectId, templateId))) throw notFound('Template');
      return (await schedules.list(projectId, templateId, true)).map(toSchedule);
    },
    async get(projectId: number, id: number): Promise<Schedule> {
      return toSchedule(await getRow(projectId, id));
    },
    /** What uses a schedule: nothing can, so an existing schedule has no references. */
    async refs(projectId: number, id: number): Promise<ResourceRefs> {
      await getRow(projectId, id);
      return emptyRefs();
    },
    /** Checks a cron expression and shows when it would fire next. */
    validate(expression: string): { next_runs: string[] } {
      checkCron(expression);
      const runs: string[] = [];
      let after = clock.now();
      for (let i = 0; i < 5; i++) {
        const next = nextRunAfter(expression, timezone, after);
        if (!next) break;
        runs.push(toTimestamp(next));
        after = next;
      }
      return { next_runs: runs };
    },
    async create(actor: UserRow, projectId: number, body: ScheduleInput): Promise<Schedule> {
      const row = {
        ...(await toRow(projectId, body)),
        project_id: projectId,
        last_commit_hash: null,
        created: toTimestamp(clock.now()),
      };
      const id = await schedules.insert(row);
      await record(actor, projectId, id, `Schedule ${row.name} created`);
      onChange();
      return this.get(projectId, id);
    },
    async update(actor: UserRow, projectId: number, id: number, body: ScheduleInput): Promise<void> {
      if (body.id !== undefined && body.id !== id) throw badRequest('Schedule ID in URL and in body must be the same');
      const current = await getRow(projectId, id);
      const row = await toRow(projectId, body);
      // The commit a schedule last saw belongs to its repository; another repository starts afresh.
      const commit = current.repository_id === row.repository_id ? {} : { last_commit_hash: null };
      await schedules.update(projectId, id, { ...row, ...commit });
      await record(actor, projectId, id, `Schedule ${body.name} updated`);
      onChange();
    },
    async setActive(actor: UserRow, projectId: number, id: number, active: boolean): Promise<void> {
      const current = await getRow(projectId, id);
      await schedules.update(projectId, id, { active: active ? 1 : 0, next_run: nextFromNow(current.cron_format) });
      await record(actor, projectId, id, `Schedule ${current.name} ${active ? 'activated' : 'deactivated'}`);
      onChange();
    },
    async remove(actor: UserRow, projectId: number, id: number): Promise<void> {
      const current = await getRow(projectId, id);
      await schedules.delete(projectId, id);
      await record(actor, projectId, id, `Schedule ${current.name} deleted`);
      onChange();
    },
  };
}

export type SchedulesService = ReturnType<typeof createSchedulesService>;
