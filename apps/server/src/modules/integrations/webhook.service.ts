import type { IncomingHttpHeaders } from 'node:http';
import type { IntegrationExtractValue, ScheduleTaskParams, Task } from '@gantry/contract';
import { TASK_VARIABLES_MAX_LENGTH } from '@gantry/contract';
import type { FastifyBaseLogger } from 'fastify';
import { describeUnstorableText } from '../../db/storable-text.ts';
import { AppError, notFound, validationFailed } from '../../errors.ts';
import type { Clock } from '../../clock.ts';
import type { EventsService } from '../events/events.service.ts';
import type { KeysService } from '../keys/keys.service.ts';
import { readDeliveryId } from '../tasks/task-request-key.ts';
import type { TasksService } from '../tasks/tasks.service.ts';
import type { WorkflowRuns } from '../workflows/workflow-runs.service.ts';
import { workflowVariablesOf } from '../workflows/workflow-variables.ts';
import type { IntegrationsRepository } from './integrations.repository.ts';
import { toExtractValue, toMatcher } from './integrations.service.ts';
import type { IntegrationRow } from './integrations.table.ts';
import { createFailureLogLimiter } from './failure-log-limiter.ts';
import { explainAuthFailure, type WebhookSecret } from './webhook-auth.ts';
import { withExtractedParams } from './webhook-task-params.ts';
import { compareValue, readPayload, readValue, type WebhookPayload } from './webhook-payload.ts';

interface WebhookDeps {
  integrations: IntegrationsRepository;
  keys: KeysService;
  tasks: TasksService;
  workflowRuns: Pick<WorkflowRuns, 'startFor'>;
  events: EventsService;
  logger: FastifyBaseLogger;
  clock: Clock;
}

/** What a call started: a task, or a workflow run (an integration of a workflow). */
type Started = { task: Task } | { run: { id: number; workflowId: number; projectId: number } };

export interface WebhookResult {
  started: (Started & { integrationId: number })[];
}

/** Why an integration did not start a task. Only "unmatched" is routine for a project-wide alias. */
type Skip = { integration: IntegrationRow; kind: 'unauthorized' | 'unmatched' | 'failed'; reason: string };

function parseObject(text: string | null | undefined): Record<string, unknown> {
  if (!text?.trim()) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** Turns calls of the public integration URL into tasks. */
export function createWebhookService({ integrations, keys, tasks, workflowRuns, events, logger, clock }: WebhookDeps) {
  const failureLog = createFailureLogLimiter({ clock });

  async function readSecret(integration: IntegrationRow): Promise<WebhookSecret | undefined> {
    if (integration.auth_secret_id === null) return undefined;
    const material = await keys.getMaterial(integration.project_id, integration.auth_secret_id).catch(() => undefined);
    if (material?.type === 'string') return { login: '', password: material.value };
    return material?.type === 'login_password' ? { login: material.login, password: material.password } : undefined;
  }

  /**
   * The value an extractor takes from the call, refused when the task could not carry it: a NUL
   * character or half of a surrogate pair fits neither the store nor a process's environment.
   */
  function extract(payload: WebhookPayload, value: IntegrationExtractValue): string | undefined {
    const extracted = readValue(payload, {
      source: value.value_source,
      bodyDataType: value.body_data_type,
      key: value.key,
    });
    const problem =
      extracted === undefined ? undefined : describeUnstorableText(extracted, `The value of ${value.variable}`);
    if (problem !== undefined) throw validationFailed(problem);
    return extracted;
  }

  /** Undefined when every matcher matches; a project-wide alias also needs at least one matcher. */
  async function explainMismatch(
    integration: IntegrationRow,
    payload: WebhookPayload,
    projectWide: boolean,
  ): Promise<string | undefined> {
    const matchers = (await integrations.matchers.list(integration.project_id, integration.id)).map(toMatcher);
    // Without this rule a project-wide alias would start every searchable integration on any call.
    if (projectWide && matchers.length === 0) return 'it has no matchers, which a project-wide alias needs';
    for (const matcher of matchers) {
      const actual = readValue(payload, {
        source: matcher.match_type,
        bodyDataType: matcher.body_data_type,
        key: matcher.key,
      });
      if (!compareValue(actual, matcher.method, matcher.value)) return `matcher "${matcher.name}" did not match`;
    }
    return undefined;
  }

  /**
   * Starts the integration's workflow: its task_params' variables, overridden by every extracted
   * value (whatever its variable type: a workflow run has variables only), named as a variable.
   */
  async function startRun(integration: IntegrationRow, workflowId: number, payload: WebhookPayload): Promise<Started> {
    const variables = workflowVariablesOf(JSON.parse(integration.task_params) as Record<string, unknown>);
    for (const value of (await integrations.values.list(integration.project_id, integration.id)).map(toExtractValue)) {
      const extracted = extract(payload, value);
      if (extracted !== undefined) variables[value.variable] = extracted;
    }
    const deliveryId = readDeliveryId(payload.headers);
    const starter = { integrationId: integration.id, ...(deliveryId === undefined ? {} : { requestKey: deliveryId }) };
    const id = await workflowRuns.startFor(starter, integration.project_id, workflowId, variables);
    return { run: { id, workflowId, projectId: integration.project_id } };
  }

  async function start(integration: IntegrationRow, payload: WebhookPayload): Promise<Started> {
    if (integration.workflow_id !== null) return startRun(integration, integration.workflow_id, payload);
    if (integration.template_id === null) throw new Error('The integration has neither a template nor a workflow');
    return { task: await startTask(integration, integration.template_id, payload) };
  }

  async function startTask(integration: IntegrationRow, templateId: number, payload: WebhookPayload): Promise<Task> {
    const deliveryId = readDeliveryId(payload.headers);
    const taskParams = JSON.parse(integration.task_params) as ScheduleTaskParams;
    const environment = parseObject(taskParams.environment);
    const extractedParams = new Map<string, string>();
    for (const value of (await integrations.values.list(integration.project_id, integration.id)).map(toExtractValue)) {
      const extracted = extract(payload, value);
      if (extracted === undefined) continue;
      // What the caller sent is the point of the integration, so it overrides the stored defaults.
      if (value.variable_type === 'task') extractedParams.set(value.variable, extracted);
      else environment[value.variable] = extracted;
    }
    const params = withExtractedParams(taskParams.params ?? {}, extractedParams);
    // Encoded, a caller's value may grow (a control character takes six): the task API's bound holds.
    const environmentText = JSON.stringify(environment);
    if (environmentText.length > TASK_VARIABLES_MAX_LENGTH)
      throw validationFailed(`The task's variables would be longer than ${TASK_VARIABLES_MAX_LENGTH} characters`);
    return tasks.create(
      integration.project_id,
      {
        template_id: templateId,
        message: taskParams.message ?? '',
        environment: environmentText,
        secret: '{}',
        arguments: taskParams.arguments?.trim() ? taskParams.arguments : null,
        git_branch: taskParams.git_branch ?? null,
        inventory_id: taskParams.inventory_id ?? null,
        params,
      },
      { integrationId: integration.id, ...(deliveryId === undefined ? {} : { requestKey: deliveryId }) },
    );
  }

  async function consider(
    integration: IntegrationRow,
    payload: WebhookPayload,
    projectWide: boolean,
  ): Promise<Started | Skip> {
    const authFailure = explainAuthFailure(
      integration.auth_method,
      integration.auth_header,
      await readSecret(integration),
      payload,
    );
    if (authFailure) return { integration, kind: 'unauthorized', reason: `authentication failed: ${authFailure}` };
    const mismatch = await explainMismatch(integration, payload, projectWide);
    if (mismatch) return { integration, kind: 'unmatched', reason: mismatch };
    try {
      return await start(integration, payload);
    } catch (error) {
      if (!(error instanceof AppError))
        logger.error({ err: error, integrationId: integration.id }, 'integration could not start its task');
      const what = integration.workflow_id === null ? 'the task' : 'the workflow run';
      return {
        integration,
        kind: 'failed',
        reason: `${what} could not start: ${error instanceof AppError ? error.message : 'internal error'}`,
      };
    }
  }

  /** Records why a call started nothing, unless this source already filled its share of the log. */
  async function logFailure(
    source: number | string,
    event: { projectId: number; objectId?: number; description: string },
  ): Promise<void> {
    const decision = failureLog.admit(source);
    if (!decision.log) return;
    const earlier =
      decision.suppressed > 0 ? ` (${decision.suppressed} more failed calls in the minute before were not logged)` : '';
    await events.record({
      userId: null,
      projectId: event.projectId,
      objectType: 'integration',
      objectId: event.objectId ?? null,
      description: `${event.description}${earlier}`,
    });
  }

  async function logSkip(skip: Skip, projectWide: boolean): Promise<void> {
    const via = projectWide ? ' (project-wide alias)' : '';
    await logFailure(skip.integration.id, {
      projectId: skip.integration.project_id,
      objectId: skip.integration.id,
      description: `Webhook call for integration ${skip.integration.name}${via} started nothing: ${skip.reason}`,
    });
  }

  return {
    async handle(alias: string, headers: IncomingHttpHeaders, body: Buffer): Promise<WebhookResult> {
      const aliasRow = await integrations.findAlias(alias);
      if (!aliasRow) throw notFound('Integration');
      const projectWide = aliasRow.integration_id === null;
      const candidates =
        aliasRow.integration_id === null
          ? await integrations.listSearchable(aliasRow.project_id)
          : [await integrations.find(aliasRow.project_id, aliasRow.integration_id)].filter((row) => row !== undefined);
      const payload = readPayload(headers, body);
      const started: WebhookResult['started'] = [];
      const skipped: Skip[] = [];
      for (const integration of candidates) {
        const outcome = await consider(integration, payload, projectWide);
        if ('kind' in outcome) skipped.push(outcome);
        else started.push({ ...outcome, integrationId: integration.id });
      }
      for (const outcome of started) {
        await events.record({
          userId: null,
          projectId: 'task' in outcome ? outcome.task.project_id : outcome.run.projectId,
          objectType: 'integration',
          objectId: outcome.integrationId,
          description:
            'task' in outcome
              ? `Webhook call started task ${outcome.task.id}`
              : `Webhook call started workflow run ${outcome.run.id}`,
        });
      }
      // Through a project-wide alias, integrations that do not match are routine routing, not news,
      // unless the call started nothing at all; failed authentication is always worth knowing.
      for (const skip of skipped) {
        if (!projectWide || skip.kind !== 'unmatched' || started.length === 0) await logSkip(skip, projectWide);
      }
      if (projectWide && candidates.length === 0) {
        await logFailure(`alias ${aliasRow.id}`, {
          projectId: aliasRow.project_id,
          description: 'Webhook call on a project-wide alias started nothing: no integration is searchable',
        });
      }
      return { started };
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
