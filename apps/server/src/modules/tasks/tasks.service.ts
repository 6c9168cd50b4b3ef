import type {
  ActiveTask,
  CreateTaskBody,
  StatsEntry,
  StopWaitingTasksResult,
  Task,
  TaskOutput,
  TaskOutputSearchResult,
  TaskStatus,
  TaskWithTemplate,
  Template,
} from '@gantry/contract';
import { Permission, hasPermissions, isTaskFinished } from '@gantry/contract';
import type { z } from 'zod';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import { badRequest, conflict, forbidden, notFound, validationFailed } from '../../errors.ts';
import type { SecretBox } from '../../secrets/secret-box.ts';
import type { EventsService } from '../events/events.service.ts';
import type { InventoriesService } from '../inventories/inventories.service.ts';
import type { TemplatesService } from '../templates/templates.service.ts';
import type { UserRow } from '../users/users.table.ts';
import { nextBuildVersion } from './build-version.ts';
import { stripAnsi } from './log-text.ts';
import type { LogSearchQuery, TaskLogSearch } from './task-log-search.ts';
import { createTaskRequestRules } from './task-request-rules.ts';
import type { TaskEngine } from './task-engine.ts';
import type { TaskOutputRepository } from './task-output.repository.ts';
import type { TaskListRow, TasksRepository } from './tasks.repository.ts';
import type { TaskRow } from './tasks.table.ts';

type CreateTaskInput = z.output<typeof CreateTaskBody>;

/** Who asked for a task: a user, or a schedule or integration acting on its own. */
export interface TaskOrigin {
  user?: UserRow;
  /** The user's permission bits in the project; without manageProjectResources a user may set only what the template offers. */
  permissions?: number;
  scheduleId?: number;
  integrationId?: number;
}

function toTask(row: TaskRow): Task {
  const params = JSON.parse(row.params) as Record<string, unknown>;
  return {
    id: row.id,
    template_id: row.template_id,
    project_id: row.project_id,
    status: row.status,
    user_id: row.user_id,
    integration_id: row.integration_id,
    schedule_id: row.schedule_id,
    message: row.message,
    commit_hash: row.commit_hash,
    commit_message: row.commit_message,
    build_task_id: row.build_task_id,
    version: row.version,
    created: row.created,
    start: row.start,
    end: row.end,
    environment: row.environment,
    arguments: row.arguments,
    git_branch: row.git_branch,
    inventory_id: row.inventory_id,
    params,
    playbook: row.playbook,
    runner_id: row.runner_id,
    location: row.status === 'waiting' ? 'queue' : 'running',
    debug: params.debug === true,
    dry_run: params.dry_run === true,
    diff: params.diff === true,
    limit: Array.isArray(params.limit) ? params.limit.join(',') : '',
    secret: '',
  };
}

const HISTORY_LIMIT = 1000;
const DAY_MS = 86_400_000;
const ARGUMENTS_IGNORED_LINE =
  'CLI arguments sent with this task were ignored: the template does not allow overriding them.';

/** Schedules, integrations and autorun were set up by managers; a user holds what their role gives. */
function canManage(origin: TaskOrigin): boolean {
  return origin.user === undefined || hasPermissions(origin.permissions ?? 0, Permission.manageProjectResources);
}

interface TasksDeps {
  tasks: TasksRepository;
  output: TaskOutputRepository;
  templates: TemplatesService;
  inventories: InventoriesService;
  engine: TaskEngine;
  events: EventsService;
  secrets: SecretBox;
  clock: Clock;
  logSearch: TaskLogSearch;
}

export function createTasksService({
  tasks,
  output,
  templates,
  inventories,
  engine,
  events,
  secrets,
  clock,
  logSearch,
}: TasksDeps) {
  const requestRules = createTaskRequestRules({
    hasRunCommit: (projectId, templateId, commitHash) => tasks.hasRunCommit(projectId, templateId, commitHash),
  });

  async function getRow(projectId: number, id: number): Promise<TaskListRow> {
    const row = await tasks.find(projectId, id);
    if (!row) throw notFound('Task');
    return row;
  }

  // Lists under a template id of another project must answer "not found", not an empty list.
  async function assertTemplateExists(projectId: number, templateId: number): Promise<void> {
    if (!(await templates.exists(projectId, templateId))) throw notFound('Template');
  }

  async function withBuildTasks(projectId: number, rows: TaskListRow[]): Promise<TaskWithTemplate[]> {
    const buildIds = [...new Set(rows.flatMap((row) => (row.build_task_id ? [row.build_task_id] : [])))];
    const builds = new Map((await tasks.listByIds(projectId, buildIds)).map((build) => [Number(build.id), build]));
    return rows.map((row) => {
      const build = row.build_task_id ? builds.get(row.build_task_id) : undefined;
      return {
        ...toTask(row),
        tpl_alias: row.tpl_alias,
        tpl_playbook: row.tpl_playbook,
        tpl_type: row.tpl_type,
        tpl_app: row.tpl_app,
        user_name: row.user_name,
        build_task: build ? toTask(build) : null,
      };
    });
  }

  async function versionOf(template: Template, body: CreateTaskInput, projectId: number): Promise<string | null> {
    if (template.type === 'build') {
      const previous = await tasks.findLastOfTemplate(template.id);
      return nextBuildVersion(template.start_version ?? '', previous?.version ?? null);
    }
    if (template.type === 'deploy') {
      if (!body.build_task_id) throw validationFailed('Build version is required');
      const build = await tasks.find(projectId, body.build_task_id);
      if (!build || build.template_id !== template.build_template_id || build.status !== 'success') {
        throw validationFailed('Build version must be a successful task of the build template');
      }
      return build.version;
    }
    return null;
  }

  return {
    async create(projectId: number, body: CreateTaskInput, origin: TaskOrigin): Promise<Task> {
      if (body.project_id !== undefined && body.project_id !== projectId)
        throw badRequest('Project ID in body and URL must be the same');
      const template = await templates.getDefinition(projectId, body.template_id).catch(() => {
        throw badRequest('Template not found in this project');
      });
      const environment = JSON.parse(body.environment) as Record<string, unknown>;
      const secret = JSON.parse(body.secret) as Record<string, unknown>;
      const checked = await requestRules.check(
        projectId,
        template,
        body,
        { environment, secret },
        { canManage: canManage(origin), fromOutside: origin.integrationId !== undefined },
      );
      if (body.inventory_id) await inventories.assertExists(projectId, body.inventory_id);
      const params = { ...body.params };
      if (body.debug !== undefined) params.debug ??= body.debug;
      if (body.dry_run !== undefined) params.dry_run ??= body.dry_run;
      if (body.diff !== undefined) params.diff ??= body.diff;
      if (body.limit?.trim() && !params.limit)
        params.limit = body.limit
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);

      const row: Omit<TaskRow, 'id'> = {
        project_id: projectId,
        template_id: template.id,
        status: 'waiting',
        user_id: origin.user?.id ?? null,
        integration_id: origin.integrationId ?? null,
        schedule_id: origin.scheduleId ?? null,
        message: body.message,
        commit_hash: body.commit_hash ?? null,
        commit_message: '',
        build_task_id: template.type === 'deploy' ? (body.build_task_id ?? null) : null,
        version: await versionOf(template, body, projectId),
        created: toTimestamp(clock.now()),
        start: null,
        end: null,
        environment: body.environment,
        secret: Object.keys(secret).length > 0 ? secrets.seal(body.secret) : null,
        arguments: checked.arguments,
        git_branch: body.git_branch ?? null,
        inventory_id: body.inventory_id ?? null,
        params: JSON.stringify(params),
        playbook: body.playbook ?? '',
        runner_id: null,
        node_id: null,
        pid: null,
        output_lines: checked.argumentsIgnored ? 1 : 0,
        runner_log_offset: 0,
      };
      const id = await tasks.insert(row);
      if (checked.argumentsIgnored)
        await output.storeNumbered([{ task_id: id, seq: 0, time: row.created, output: ARGUMENTS_IGNORED_LINE }], id, 1);
      await events.record({
        userId: row.user_id,
        projectId,
        objectType: 'task',
        objectId: id,
        description: `Task ${id} (${template.name}) queued`,
      });
      engine.wake();
      return toTask({ ...row, id });
    },

    async list(projectId: number, limit = HISTORY_LIMIT, beforeId?: number): Promise<TaskWithTemplate[]> {
      return withBuildTasks(projectId, await tasks.listForProject(projectId, limit, beforeId));
    },
    async listForTemplate(
      projectId: number,
      templateId: number,
      limit = HISTORY_LIMIT,
      options: { status?: TaskStatus | undefined; beforeId?: number | undefined } = {},
    ): Promise<TaskWithTemplate[]> {
      await assertTemplateExists(projectId, templateId);
      return withBuildTasks(projectId, await tasks.listForTemplate(projectId, templateId, limit, options));
    },
    /** The newest task of every template of the project, keyed by template id. */
    async lastPerTemplate(projectId: number, templateIds: number[]): Promise<Map<number, TaskWithTemplate>> {
      const rows = await withBuildTasks(projectId, await tasks.listLastPerTemplate(projectId, templateIds));
      return new Map(rows.map((t) => [t.template_id, t]));
    },
    async get(projectId: number, id: number): Promise<TaskWithTemplate> {
      const [task] = await withBuildTasks(projectId, [await getRow(projectId, id)]);
      if (!task) throw notFound('Task');
      return task;
    },
    async output(projectId: number, id: number, offset = 0, limit?: number): Promise<TaskOutput[]> {
      await getRow(projectId, id);
      return (await output.list(id, offset, limit)).map((line) => ({ ...line, task: '' }));
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
        location: t.status === 'waiting' ? 'queue' : 'running',
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
      const today = toTimestamp(clock.now()).slice(0, 10);
      const end = query.end ?? today;
      const start = query.start ?? toTimestamp(new Date(Date.parse(`${end}T00:00:00Z`) - 30 * DAY_MS)).slice(0, 10);
      const until = Date.parse(`${end}T00:00:00Z`) + DAY_MS;
      const counted = new Map(
        (await tasks.listStatCounts(projectId, templateId, start, end, query.user_id)).map((row) => [row.day, row]),
      );
      const entries: StatsEntry[] = [];
      for (let t = Date.parse(`${start}T00:00:00Z`); t < until; t += DAY_MS) {
        const date = toTimestamp(new Date(t)).slice(0, 10);
        const { success = 0, failed = 0, stopped = 0 } = counted.get(date) ?? {};
        entries.push({ date, count_by_status: { success, failed, stopped } });
      }
      return entries;
    },
  };
}

export type TasksService = ReturnType<typeof createTasksService>;
