import type { CreateTaskBody, Task, Template } from '@gantry/contract';
import { Permission, hasPermissions } from '@gantry/contract';
import type { z } from 'zod';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import { badRequest, conflict, validationFailed } from '../../errors.ts';
import type { SecretBox } from '../../secrets/secret-box.ts';
import type { EnvironmentsService } from '../environments/environments.service.ts';
import type { EventsService } from '../events/events.service.ts';
import type { InventoriesService } from '../inventories/inventories.service.ts';
import type { TemplatesService } from '../templates/templates.service.ts';
import type { UserRow } from '../users/users.table.ts';
import { nextBuildVersion } from './build-version.ts';
import { toTask } from './task-history.ts';
import type { TaskOutputRepository } from './task-output.repository.ts';
import { createOnce, hashRequestKey } from './task-request-key.ts';
import { createTaskRequestRules } from './task-request-rules.ts';
import type { TasksRepository } from './tasks.repository.ts';
import type { TaskRow } from './tasks.table.ts';
import { assertBodyInProject } from '../refs/project-resource.ts';

export type CreateTaskInput = z.output<typeof CreateTaskBody>;

/** Who asked for a task: a user, or a schedule or integration acting on its own. */
export interface TaskOrigin {
  user?: UserRow;
  /** The user's permission bits in the project; without manageProjectResources a user may set only what the template offers. */
  permissions?: number;
  scheduleId?: number;
  integrationId?: number;
  /** The task whose failed hosts this one runs again. */
  rerunOf?: number;
  /** A retry of a failed task: the chain's first task, this retry's number and the chain's limit. */
  retryOf?: { firstTaskId: number; attempt: number; limit: number };
  /** A variable group of the project to run with instead of the template's (a workflow step's, a rerun's). */
  environmentId?: number;
  /** The caller's Idempotency-Key or webhook delivery id: a request repeated with it gets the task the first made. */
  requestKey?: string;
}

const ARGUMENTS_IGNORED_LINE =
  'CLI arguments sent with this task were ignored: the template does not allow overriding them.';

/** Schedules, integrations and autorun were set up by managers; a user holds what their role gives. */
function canManage(origin: TaskOrigin): boolean {
  return origin.user === undefined || hasPermissions(origin.permissions ?? 0, Permission.manageProjectResources);
}

interface TaskCreationDeps {
  tasks: TasksRepository;
  output: TaskOutputRepository;
  templates: TemplatesService;
  inventories: InventoriesService;
  environments: Pick<EnvironmentsService, 'assertExists'>;
  events: EventsService;
  secrets: SecretBox;
  clock: Clock;
  /** A task created under its template's approval gate waits for its approvers: tell them. */
  onWaitingApproval?(task: TaskRow): Promise<void>;
}

/**
 * Checks a request for a task and stores it as a waiting row. Waking the dispatcher is the caller's
 * part: the tasks service wakes it, and the engine looks at the queue again after a task's after-work
 * (autorun) has queued its followers.
 */
export function createTaskCreation({
  tasks,
  output,
  templates,
  inventories,
  environments,
  events,
  secrets,
  clock,
  onWaitingApproval,
}: TaskCreationDeps) {
  const requestRules = createTaskRequestRules({
    hasRunCommit: (projectId, templateId, commitHash) => tasks.hasRunCommit(projectId, templateId, commitHash),
  });

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

  /** The task an earlier request with the same key made, if it asked for the same template. */
  async function findRepeated(projectId: number, requestKey: string, templateId: number): Promise<Task | undefined> {
    const earlier = await tasks.findByRequestKey(projectId, requestKey);
    if (earlier && earlier.template_id !== templateId)
      throw conflict('This Idempotency-Key was already used for a task of another template');
    return earlier && toTask(earlier);
  }

  /** Checks the request and stores its task: no earlier request with its key made one. */
  async function insertTask(
    projectId: number,
    body: CreateTaskInput,
    origin: TaskOrigin,
    requestKey: string | null,
  ): Promise<Task> {
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
    if (origin.environmentId) await environments.assertExists(projectId, origin.environmentId);
    const params = { ...body.params };
    if (body.debug !== undefined) params.debug ??= body.debug;
    if (body.dry_run !== undefined) params.dry_run ??= body.dry_run;
    if (body.diff !== undefined) params.diff ??= body.diff;
    if (body.limit?.trim() && !params.limit)
      params.limit = body.limit
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);

    // Lines the log starts with, written before the dispatcher can start the task.
    const firstLines = [
      ...(origin.retryOf
        ? [`Retry ${origin.retryOf.attempt} of ${origin.retryOf.limit} of task ${origin.retryOf.firstTaskId}.`]
        : []),
      ...(checked.argumentsIgnored ? [ARGUMENTS_IGNORED_LINE] : []),
    ];
    const created = clock.now();
    const gate = template.approval;
    const row: Omit<TaskRow, 'id'> = {
      project_id: projectId,
      template_id: template.id,
      status: gate ? 'waiting_approval' : 'waiting',
      user_id: origin.user?.id ?? null,
      integration_id: origin.integrationId ?? null,
      schedule_id: origin.scheduleId ?? null,
      message: body.message,
      commit_hash: body.commit_hash ?? null,
      commit_message: '',
      build_task_id: template.type === 'deploy' ? (body.build_task_id ?? null) : null,
      version: await versionOf(template, body, projectId),
      created: toTimestamp(created),
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
      output_lines: firstLines.length,
      runner_log_offset: 0,
      host_recap: null,
      rerun_of_task_id: origin.rerunOf ?? null,
      log_indexed: 0,
      approval: gate ? JSON.stringify(gate) : null,
      approval_due: gate ? toTimestamp(new Date(created.getTime() + gate.timeout_seconds * 1000)) : null,
      approval_alert: gate ? toTimestamp(created) : null,
      sent_to_runner: null,
      retry_of_task_id: origin.retryOf?.firstTaskId ?? null,
      retry_attempt: origin.retryOf?.attempt ?? 0,
      retry_limit: origin.retryOf?.limit ?? template.retries,
      retry_due: null,
      plan_recap: null,
      environment_id: origin.environmentId ?? null,
      request_key: requestKey,
    };
    const id = await tasks.insert(row);
    if (firstLines.length > 0)
      await output.storeNumbered(
        firstLines.map((line, seq) => ({ task_id: id, seq, time: row.created, output: line })),
        id,
        firstLines.length,
      );
    await events.record({
      userId: row.user_id,
      projectId,
      objectType: 'task',
      objectId: id,
      description: `Task ${id} (${template.name}) queued`,
    });
    const task = { ...row, id };
    if (gate) await onWaitingApproval?.(task);
    return toTask(task);
  }

  return async function createTask(projectId: number, body: CreateTaskInput, origin: TaskOrigin): Promise<Task> {
    assertBodyInProject(projectId, body);
    const requestKey = hashRequestKey(
      { userId: origin.user?.id, integrationId: origin.integrationId },
      origin.requestKey,
    );
    return createOnce(
      requestKey,
      (key) => findRepeated(projectId, key, body.template_id),
      () => insertTask(projectId, body, origin, requestKey),
    );
  };
}

export type CreateTask = ReturnType<typeof createTaskCreation>;
