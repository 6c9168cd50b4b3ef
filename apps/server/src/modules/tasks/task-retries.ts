import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError } from '../../errors.ts';
import { Permission, hasPermissions } from '@gantry/contract';
import type { MemberAccess } from '../projects/projects.service.ts';
import type { TemplatesService } from '../templates/templates.service.ts';
import type { CreateTask, CreateTaskInput, TaskOrigin } from './task-creation.ts';
import type { TaskOutput } from './task-output.ts';
import type { TasksRepository } from './tasks.repository.ts';
import type { TaskRow } from './tasks.table.ts';

/** Retries created per sweep; the next sweep takes the rest. */
const SWEEP_BATCH = 100;

interface TaskRetriesDeps {
  tasks: TasksRepository;
  templates: Pick<TemplatesService, 'getDefinition'>;
  /**
   * The ordinary way a task is made: the request checks, the queue, limits and runners apply. It does
   * not wake the dispatcher: the engine reads the queue after a task's after-work, and the sweep
   * (services.ts) wakes it when `retry` made one.
   */
  createTask: CreateTask;
  /** A user and their rights in the project now; undefined when either is gone or the project is hidden from them. */
  findMember(userId: number, projectId: number): Promise<MemberAccess | undefined>;
  output: TaskOutput;
  clock: Clock;
  logger: FastifyBaseLogger;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

/**
 * Retries of failed tasks (docs/task-log.md, "Retries"): a task of a template with retries that ends
 * as `error` gets a retry due after the template's delay, stored on the task; a sweep of every node
 * creates it as a task of its own, linked to the first task of the chain. One task per attempt of a
 * chain (a unique index), so two nodes never create the same retry, and a restart keeps a due retry.
 */
export function createTaskRetries(deps: TaskRetriesDeps) {
  const now = () => toTimestamp(deps.clock.now());
  const write = (task: TaskRow, line: string) =>
    deps.output
      .write(task, [line])
      .catch((error: unknown) => deps.logger.warn({ err: error, taskId: task.id }, 'retry line not written'));

  /**
   * Who the retry is made for: the failed task's user with their rights now (undefined once they may no longer
   * run tasks here), or the schedule or integration that made it.
   */
  async function originOf(task: TaskRow): Promise<TaskOrigin | undefined> {
    if (task.user_id === null)
      return {
        ...(task.schedule_id === null ? {} : { scheduleId: task.schedule_id }),
        ...(task.integration_id === null ? {} : { integrationId: task.integration_id }),
      };
    const member = await deps.findMember(task.user_id, task.project_id);
    return member && hasPermissions(member.permissions, Permission.runProjectTasks) ? member : undefined;
  }

  /** Makes the retry due on `failed` unless another node did; resolves to whether this call made one. */
  async function retry(failed: TaskRow): Promise<boolean> {
    const due = failed.retry_due;
    if (due === null) return false;
    const firstTaskId = failed.retry_of_task_id ?? failed.id;
    const attempt = failed.retry_attempt + 1;
    const label = `Retry ${attempt} of ${failed.retry_limit}`;
    const origin = await originOf(failed);
    let created: number | undefined;
    let refusal: string | undefined;
    if (!origin) refusal = 'who started the task may no longer run tasks in this project';
    else {
      const body: CreateTaskInput = {
        template_id: failed.template_id,
        message: failed.message,
        environment: failed.environment,
        secret: '{}',
        arguments: failed.arguments,
        inventory_id: failed.inventory_id,
        git_branch: failed.git_branch,
        build_task_id: failed.build_task_id,
        params: JSON.parse(failed.params) as CreateTaskInput['params'],
      };
      try {
        created = (
          await deps.createTask(failed.project_id, body, {
            ...origin,
            retryOf: { firstTaskId, attempt, limit: failed.retry_limit },
            // A workflow step's variable group stays the retry's.
            ...(failed.environment_id ? { environmentId: failed.environment_id } : {}),
          })
        ).id;
      } catch (error) {
        // Another node made this retry first: nothing is left to do here but forget the due time.
        if (!isUniqueViolation(error)) {
          if (!(error instanceof AppError)) deps.logger.error({ err: error, taskId: failed.id }, 'retry not created');
          refusal = errorText(error);
        }
      }
    }
    if (!(await deps.tasks.clearRetryDue(failed.id, due))) return false;
    if (created !== undefined) await write(failed, `${label}: task ${created}.`);
    else if (refusal !== undefined) await write(failed, `${label} not made: ${refusal}.`);
    return created !== undefined;
  }

  return {
    /** After-task work: a failed task with retries left gets its next retry due after the template's delay. */
    async onFinished(task: TaskRow): Promise<void> {
      if (task.status !== 'error' || task.retry_attempt >= task.retry_limit) return;
      const template = await deps.templates.getDefinition(task.project_id, task.template_id).catch(() => undefined);
      if (!template) return;
      const delay = template.retry_delay_seconds;
      const due = toTimestamp(new Date(deps.clock.now().getTime() + delay * 1000));
      if (!(await deps.tasks.scheduleRetry(task.id, due))) return;
      await write(task, `Retry ${task.retry_attempt + 1} of ${task.retry_limit} in ${delay} seconds.`);
      if (delay === 0) await retry({ ...task, retry_due: due });
    },
    retry,
    /** Failed tasks whose retry is due now, for the sweep of every node. */
    listDue: () => deps.tasks.listDueRetries(now(), SWEEP_BATCH),
  };
}
