import { HostRecap, PlanRecap, type Task, type TaskWithTemplate } from '@gantry/contract';
import { readJsonColumn } from '../../db/row-fields.ts';
import type { TaskListRow, TasksRepository } from './tasks.repository.ts';
import type { TaskRow } from './tasks.table.ts';

/** A task row as the API shows it. */
export function toTask(row: TaskRow): Task {
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
    location: row.status === 'waiting' || row.status === 'waiting_approval' ? 'queue' : 'running',
    debug: params.debug === true,
    dry_run: params.dry_run === true,
    diff: params.diff === true,
    limit: Array.isArray(params.limit) ? params.limit.join(',') : '',
    secret: '',
    host_recap: readJsonColumn(HostRecap, row.host_recap),
    rerun_of_task_id: row.rerun_of_task_id,
    needs_approval: row.approval !== null,
    plan_recap: readJsonColumn(PlanRecap, row.plan_recap),
    retry_of_task_id: row.retry_of_task_id,
    retry_attempt: row.retry_attempt,
    retry_limit: row.retry_limit,
  };
}

/** The workflow runs whose steps started some tasks of a project (the workflows module answers). */
type RunsOfTasks = (
  projectId: number,
  taskIds: readonly number[],
) => Promise<{ task_id: number | null; step_key: string; run_id: number; workflow_id: number }[]>;

/**
 * Tasks as the lists show them, each with the build it deploys. Templates read their newest tasks here
 * and the tasks service its lists, so neither needs the other for it.
 */
export function createTaskHistory({ tasks, runsOfTasks }: { tasks: TasksRepository; runsOfTasks: RunsOfTasks }) {
  /** Each task's workflow run and step, the first run that holds it. */
  async function workflowRunsOf(projectId: number, rows: TaskListRow[]) {
    const found = new Map<number, TaskWithTemplate['workflow_run']>();
    for (const step of await runsOfTasks(
      projectId,
      rows.map((row) => row.id),
    ))
      if (step.task_id !== null && !found.has(step.task_id))
        found.set(step.task_id, { id: step.run_id, workflow_id: step.workflow_id, step: step.step_key });
    return found;
  }

  async function withBuildTasks(projectId: number, rows: TaskListRow[]): Promise<TaskWithTemplate[]> {
    const buildIds = [...new Set(rows.flatMap((row) => (row.build_task_id ? [row.build_task_id] : [])))];
    const builds = new Map((await tasks.listByIds(projectId, buildIds)).map((build) => [Number(build.id), build]));
    const runs = await workflowRunsOf(projectId, rows);
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
        workflow_run: runs.get(row.id) ?? null,
      };
    });
  }

  return {
    withBuildTasks,
    /** The newest task of every template of the project, keyed by template id. */
    async lastPerTemplate(projectId: number, templateIds: number[]): Promise<Map<number, TaskWithTemplate>> {
      const rows = await withBuildTasks(projectId, await tasks.listLastPerTemplate(projectId, templateIds));
      return new Map(rows.map((t) => [t.template_id, t]));
    },
  };
}

export type TaskHistory = ReturnType<typeof createTaskHistory>;
