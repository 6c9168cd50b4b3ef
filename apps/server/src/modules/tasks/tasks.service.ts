import type {
  ActiveTask,
  StatsEntry,
  StopWaitingTasksResult,
  Task,
  TaskOutput,
  TaskOutputSearchResult,
  TaskStatus,
  TaskWithTemplate,
} from '@gantry/contract';
import { UNSTARTED_TASK_STATUSES, isTaskFinished } from '@gantry/contract';
import type { Clock } from '../../clock.ts';
import { badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import type { EventsService } from '../events/events.service.ts';
import type { TemplatesService } from '../templates/templates.service.ts';
import type { UserRow } from '../users/users.table.ts';
import { stripAnsi } from './log-text.ts';
import { listStatsEntries, resolveStatsRange } from './stats-days.ts';
import type { CreateTask, CreateTaskInput, TaskOrigin } from './task-creation.ts';
import type { TaskEngine } from './task-engine.ts';
import type { TaskHistory } from './task-history.ts';
import type { LogSearchQuery, TaskLogSearch } from './task-log-search.ts';
import type { TaskOutputRepository } from './task-output.repository.ts';
import type { TaskListRow, TasksRepository } from './tasks.repository.ts';

const HISTORY_LIMIT = 1000;

interface TasksDeps {
  tasks: TasksRepository;
  output: TaskOutputRepository;
  templates: TemplatesService;
  createTask: CreateTask;
  history: TaskHistory;
  engine: TaskEngine;
  events: EventsService;
  clock: Clock;
  logSearch: TaskLogSearch;
}

export function createTasksService({
  tasks,
  output,
  templates,
  createTask,
  history,
  engine,
  events,
  clock,
  logSearch,
}: TasksDeps) {
  async function getRow(projectId: number, id: number): Promise<TaskListRow> {
    const row = await tasks.find(projectId, id);
    if (!row) throw notFound('Task');
    return row;
  }

  // Lists under a template id of another project must answer "not found", not an empty list.
  async function assertTemplateExists(projectId: number, templateId: number): Promise<void> {
    if (!(await templates.exists(projectId, templateId))) throw notFound('Template');
  }

  return {
    async create(projectId: number, body: CreateTaskInput, origin: TaskOrigin): Promise<Task> {
      const task = await createTask(projectId, body, origin);
      engine.wake();
      return task;
    },

    async list(projectId: number, limit = HISTORY_LIMIT, beforeId?: number): Promise<TaskWithTemplate[]> {
      return history.withBuildTasks(projectId, await tasks.listForProject(projectId, limit, beforeId));
    },
    async listForTemplate(
      projectId: number,
      templateId: number,
      limit = HISTORY_LIMIT,
      options: { status?: TaskStatus | undefined; beforeId?: number | undefined } = {},
    ): Promise<TaskWithTemplate[]> {
      await assertTemplateExists(projectId, templateId);
      return history.withBuildTasks(projectId, await tasks.listForTemplate(projectId, templateId, limit, options));
    },
    async get(projectId: number, id: number): Promise<TaskWithTemplate> {
      const [task] = await history.withBuildTasks(projectId, [await getRow(projectId, id)]);
      if (!task) throw notFound('Task');
      return task;
    },
    async output(projectId: number, id: number, offset = 0, limit?: number): Promise<TaskOutput[]> {
      await getRow(projectId, id);
      return (await output.list(id, offset, limit)).map((line) => ({ ...line, id: line.seq + 1, task: '' }));
    },
    /** The whole log as plain text without ANSI colour codes. */
    async rawOutput(projectId: number, id: number): Promise<string> {
      await getRow(projectId, id);
      const lines = await output.list(id, 0, undefined);
      return lines.map((l) => `${stripAnsi(l.output)}\n`).join('');
    },
    async searchOutput(
      projectId: number,
      id: number,
      query: LogSearchQuery,
      userId: number,
    ): Promise<TaskOutputSearchResult> {
      await getRow(projectId, id);
      return logSearch.search(id, query, userId);
    },
    async stop(projectId: number, id: number, force: boolean): Promise<void> {
      const task = await getRow(projectId, id);
      if (isTaskFinished(task.status)) return;
      await engine.stop(task, force);
    },
    /** Stops every task of the project (or of one template) still in the queue; started tasks are never touched. */
    async stopWaiting(projectId: number, templateId?: number): Promise<StopWaitingTasksResult> {
      if (templateId !== undefined && !(await templates.exists(projectId, templateId)))
        throw badRequest('Template not found in this project');
      return { stopped: await engine.stopQueued(await tasks.listWaitingInProject(projectId, templateId)) };
    },
    async confirm(projectId: number, id: number): Promise<void> {
      const task = await getRow(projectId, id);
      if (!(await engine.confirm(task))) throw conflict('The task is not waiting for confirmation');
    },
    async reject(projectId: number, id: number): Promise<void> {
      const task = await getRow(projectId, id);
      if (!(await engine.reject(task))) throw conflict('The task is not waiting for confirmation');
    },
    async remove(actor: UserRow, projectId: number, id: number): Promise<void> {
      if (actor.admin !== 1) throw forbidden('Only administrators can delete tasks');
      const task = await getRow(projectId, id);
      if (!isTaskFinished(task.status)) {
        throw badRequest('A task that is queued or running cannot be deleted; stop it first');
      }
      await tasks.delete(projectId, id);
      await events.record({
        userId: actor.id,
        projectId,
        objectType: 'task',
        objectId: id,
        description: `Task ${id} deleted`,
      });
    },
    async listActive(): Promise<ActiveTask[]> {
      return (await tasks.listActive()).map((t) => ({
        task_id: t.id,
        project_id: t.project_id,
        project_name: t.project_name,
        username: t.username,
        runner_id: t.runner_id,
        runner_name: t.runner_name,
        status: t.status,
        location: UNSTARTED_TASK_STATUSES.includes(t.status) ? 'queue' : 'running',
      }));
    },
    async stopAnywhere(id: number): Promise<void> {
      const task = await tasks.findById(id);
      if (!task) throw notFound('Task');
      if (isTaskFinished(task.status)) return;
      await engine.stop(task, false);
    },
    /** Per-day counts by status from `start` (default: 30 days ago) to `end` (default: today), zero days included. */
    async stats(
      projectId: number,
      templateId: number,
      query: { start?: string | undefined; end?: string | undefined; user_id?: number | undefined },
    ): Promise<StatsEntry[]> {
      await assertTemplateExists(projectId, templateId);
      const { start, end } = resolveStatsRange(clock.now(), query);
      return listStatsEntries(start, end, await tasks.listStatCounts(projectId, templateId, start, end, query.user_id));
    },
  };
}

export type TasksService = ReturnType<typeof createTasksService>;
