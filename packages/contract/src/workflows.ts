import { z } from 'zod';
import { APPROVAL_LIMITS, ApprovalBody, ApprovalGate, ApprovalState, validateApprovalGate } from './approvals.ts';
import { endpoint, projectEndpoint, scopeEndpoints } from './endpoint.ts';
import { DateTime, Id, NoContent, PathId, projectRefId, QueryId, requiredString, wireInteger } from './common.ts';
import { ProjectRoleSlug } from './permissions.ts';
import { NAME_PATTERN, TaskOutputs } from './task-outputs.ts';
import { TaskParams } from './task-spec.ts';
import { StatsEntry, StatsRangeQuery } from './tasks.ts';

/** Bounds of one workflow, so that a definition stays small enough to validate and store at once. */
export const WORKFLOW_LIMITS = {
  steps: 100,
  edges: 500,
  variables: 100,
  inputsPerStep: 100,
  outputsPerStep: 50,
  approvers: APPROVAL_LIMITS.approvers,
  waitSeconds: 7 * 24 * 3600,
  approvalTimeoutSeconds: APPROVAL_LIMITS.maxTimeoutSeconds,
};

const nameOf = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .regex(NAME_PATTERN, `${label} must start with a letter or _ and hold at most 64 letters, digits, _ or -`);

export const WorkflowVariable = z.object({
  name: nameOf('Variable name'),
  title: z.string().trim().max(255, 'Variable title must be at most 255 characters').optional().default(''),
  description: z.string().max(4096, 'Variable description must be at most 4096 characters').optional().default(''),
  required: z.boolean().optional().default(false),
  default_value: z.string().max(4096, 'Default value must be at most 4096 characters').optional().default(''),
});
export type WorkflowVariable = z.output<typeof WorkflowVariable>;

/** Where a template variable of a step takes its value: a workflow variable or an earlier step's output. */
export const WorkflowInput = z.discriminatedUnion(
  'source',
  [
    z.object({ variable: nameOf('Template variable'), source: z.literal('variable'), name: nameOf('Variable name') }),
    z.object({
      variable: nameOf('Template variable'),
      source: z.literal('output'),
      step: nameOf('Step key'),
      output: nameOf('Output name'),
    }),
  ],
  { error: 'Input source must be "variable" or "output"' },
);
export type WorkflowInput = z.output<typeof WorkflowInput>;

const stepCommon = {
  key: nameOf('Step key'),
  name: z.string().trim().max(255, 'Step name must be at most 255 characters').optional().default(''),
  /** With several incoming edges: wait for all of them to fire, or start on the first. */
  join: z.enum(['all', 'any'], { error: 'Join must be "all" or "any"' }).optional().default('all'),
};

const WorkflowTemplateStep = z.object({
  ...stepCommon,
  kind: z.literal('template'),
  template_id: projectRefId('Template'),
  inventory_id: projectRefId('Inventory').nullable().optional().default(null),
  environment_id: projectRefId('Variable group').nullable().optional().default(null),
  survey_values: z
    .record(nameOf('Template variable'), z.string().max(4096, 'Survey values must be at most 4096 characters'))
    .optional()
    .default({}),
  params: TaskParams.optional().default({}),
  inputs: z
    .array(WorkflowInput)
    .max(WORKFLOW_LIMITS.inputsPerStep, `A step has at most ${WORKFLOW_LIMITS.inputsPerStep} inputs`)
    .optional()
    .default([]),
  /** Named values the step's task publishes for later steps. */
  outputs: z
    .array(nameOf('Output name'))
    .max(WORKFLOW_LIMITS.outputsPerStep, `A step has at most ${WORKFLOW_LIMITS.outputsPerStep} outputs`)
    .optional()
    .default([]),
});

const WorkflowApprovalStep = z.object({
  ...stepCommon,
  kind: z.literal('approval'),
  ...ApprovalGate.shape,
});

const WorkflowWaitStep = z.object({
  ...stepCommon,
  kind: z.literal('wait'),
  seconds: wireInteger({
    min: 1,
    max: WORKFLOW_LIMITS.waitSeconds,
    message: `Wait must be 1 to ${WORKFLOW_LIMITS.waitSeconds} seconds`,
  }),
});

export const WorkflowStep = z.discriminatedUnion(
  'kind',
  [WorkflowTemplateStep, WorkflowApprovalStep, WorkflowWaitStep],
  {
    error: 'Step kind must be "template", "approval" or "wait"',
  },
);
export type WorkflowStep = z.output<typeof WorkflowStep>;

export const WorkflowEdge = z.object({
  from: nameOf('Edge from'),
  to: nameOf('Edge to'),
  on: z.enum(['success', 'failure', 'always'], { error: 'Edge on must be "success", "failure" or "always"' }),
});
export type WorkflowEdge = z.output<typeof WorkflowEdge>;

/** What a workflow is: every saved version of it is one of these. */
export const WorkflowDefinition = z.object({
  name: requiredString('Name'),
  description: z.string().max(4096, 'Description must be at most 4096 characters').optional().default(''),
  variables: z
    .array(WorkflowVariable)
    .max(WORKFLOW_LIMITS.variables, `A workflow has at most ${WORKFLOW_LIMITS.variables} variables`)
    .optional()
    .default([]),
  steps: z
    .array(WorkflowStep, { error: 'Steps are required' })
    .min(1, 'A workflow needs at least one step')
    .max(WORKFLOW_LIMITS.steps, `A workflow has at most ${WORKFLOW_LIMITS.steps} steps`),
  edges: z
    .array(WorkflowEdge)
    .max(WORKFLOW_LIMITS.edges, `A workflow has at most ${WORKFLOW_LIMITS.edges} edges`)
    .optional()
    .default([]),
});
export type WorkflowDefinition = z.output<typeof WorkflowDefinition>;
export type WorkflowBody = z.input<typeof WorkflowDefinition>;

/**
 * The same workflow as a file (YAML in a repository, a project backup): templates, inventories,
 * variable groups and approvers are named instead of numbered, so it moves between projects.
 */
const optionalName = (label: string) =>
  z
    .string()
    .trim()
    .min(1, `${label} must not be empty`)
    .max(255, `${label} must be at most 255 characters`)
    .nullable()
    .optional()
    .default(null);

export const WorkflowFileStep = z.discriminatedUnion(
  'kind',
  [
    WorkflowTemplateStep.omit({ template_id: true, inventory_id: true, environment_id: true }).extend({
      template: requiredString('Template'),
      inventory: optionalName('Inventory'),
      environment: optionalName('Variable group'),
    }),
    WorkflowApprovalStep.extend({
      approvers: z.object(
        {
          users: z.array(requiredString('Approver')).max(WORKFLOW_LIMITS.approvers).optional().default([]),
          roles: z.array(ProjectRoleSlug).max(4).optional().default([]),
        },
        { error: 'Approvers are required' },
      ),
    }),
    WorkflowWaitStep,
  ],
  { error: 'Step kind must be "template", "approval" or "wait"' },
);
export type WorkflowFileStep = z.output<typeof WorkflowFileStep>;

export const WorkflowFile = WorkflowDefinition.extend({
  steps: z
    .array(WorkflowFileStep, { error: 'Steps are required' })
    .min(1, 'A workflow needs at least one step')
    .max(WORKFLOW_LIMITS.steps, `A workflow has at most ${WORKFLOW_LIMITS.steps} steps`),
});
export type WorkflowFile = z.output<typeof WorkflowFile>;

export const Workflow = WorkflowDefinition.extend({
  id: Id,
  project_id: Id,
  revision: Id,
  created: DateTime,
  updated: DateTime,
});
export type Workflow = z.output<typeof Workflow>;

/** A workflow in the project's list: its steps counted, without the rest of its definition. */
export const WorkflowSummary = Workflow.omit({ variables: true, edges: true, created: true }).extend({
  steps: wireInteger(),
});
export type WorkflowSummary = z.output<typeof WorkflowSummary>;

export const WorkflowRevisionSummary = z.object({
  number: Id,
  created: DateTime,
  user_id: Id.nullable(),
  username: z.string().nullable(),
});
export type WorkflowRevisionSummary = z.output<typeof WorkflowRevisionSummary>;

export const WorkflowRevision = WorkflowRevisionSummary.extend({ definition: WorkflowDefinition });
export type WorkflowRevision = z.output<typeof WorkflowRevision>;

export const WorkflowValidation = z.object({ valid: z.boolean(), errors: z.array(z.string()) });
export type WorkflowValidation = z.output<typeof WorkflowValidation>;

export const WorkflowParams = z.object({ projectId: PathId, workflowId: PathId });
export const WorkflowVersionParams = WorkflowParams.extend({ version: PathId });

/** An endpoint of one workflow: `subpath` below `/api/project/:projectId/workflows/:workflowId`. */
/**
 * `revision`: the revision the edit started from. A save based on an older one is refused (409)
 * instead of silently undoing what was saved meanwhile; without it, the save is taken as it comes.
 */
export const WorkflowSaveQuery = z.object({ revision: QueryId.optional() });

const workflowEndpoint = scopeEndpoints('/api/project/:projectId/workflows/:workflowId', WorkflowParams);

export const workflowsApi = {
  list: projectEndpoint('/workflows', { method: 'GET', response: z.array(WorkflowSummary) }),
  create: projectEndpoint('/workflows', { method: 'POST', body: WorkflowDefinition, response: Workflow, status: 201 }),
  validate: projectEndpoint('/workflows/validate', {
    method: 'POST',
    body: WorkflowDefinition,
    response: WorkflowValidation,
  }),
  get: workflowEndpoint('', { method: 'GET', response: Workflow }),
  update: workflowEndpoint('', {
    method: 'PUT',
    query: WorkflowSaveQuery,
    body: WorkflowDefinition,
    response: Workflow,
  }),
  remove: workflowEndpoint('', { method: 'DELETE', response: NoContent, status: 204 }),
  versions: workflowEndpoint('/versions', { method: 'GET', response: z.array(WorkflowRevisionSummary) }),
  version: endpoint({
    method: 'GET',
    path: '/api/project/:projectId/workflows/:workflowId/versions/:version',
    params: WorkflowVersionParams,
    response: WorkflowRevision,
  }),
  /** The current revision as a YAML workflow file. */
  yaml: workflowEndpoint('/yaml', { method: 'GET', response: z.string() }),
};

export const WorkflowRunStatus = z.enum(['running', 'success', 'failed', 'stopped']);
export type WorkflowRunStatus = z.output<typeof WorkflowRunStatus>;
export const WorkflowStepRunStatus = z.enum([
  'pending',
  'starting',
  'running',
  'waiting_approval',
  'success',
  'failed',
  'skipped',
  'stopped',
]);
export type WorkflowStepRunStatus = z.output<typeof WorkflowStepRunStatus>;

export const WORKFLOW_APPROVAL_REASON_MAX = APPROVAL_LIMITS.reason;

/** Where an approval step of a run stands. */
export const WorkflowStepApproval = ApprovalState;
export type WorkflowStepApproval = ApprovalState;

export const WorkflowApprovalBody = ApprovalBody;
export type WorkflowApprovalBody = ApprovalBody;

export const WorkflowStepRun = z.object({
  key: z.string(),
  kind: z.enum(['template', 'approval', 'wait']),
  status: WorkflowStepRunStatus,
  /** The task a template step started (it may since have been deleted by retention). */
  task_id: Id.nullable(),
  /** When a wait ends or an approval times out. */
  due: DateTime.nullable(),
  message: z.string(),
  start: DateTime.nullable(),
  end: DateTime.nullable(),
  /** Decisions and approvers of an approval step; null for other kinds. */
  approval: WorkflowStepApproval.nullable(),
  /** What the step's task published for later steps (secrets masked); empty until its task has ended. */
  outputs: TaskOutputs,
});
export type WorkflowStepRun = z.output<typeof WorkflowStepRun>;

export const WorkflowRun = z.object({
  id: Id,
  project_id: Id,
  workflow_id: Id,
  revision: Id,
  status: WorkflowRunStatus,
  user_id: Id.nullable(),
  variables: z.record(z.string(), z.string()),
  message: z.string(),
  start: DateTime,
  end: DateTime.nullable(),
  /** The run this one retries: it kept that run's results and ran again from its failed steps. */
  retry_of: Id.nullable(),
  /** The schedule or webhook integration that started the run; both null when a user did. */
  schedule_id: Id.nullable(),
  integration_id: Id.nullable(),
});
export type WorkflowRun = z.output<typeof WorkflowRun>;

export const WorkflowRunDetail = WorkflowRun.extend({
  steps: z.array(WorkflowStepRun),
  /** The run that retried this one, if any (a run is retried once; retry the retry to go on). */
  retried_by: Id.nullable(),
});
export type WorkflowRunDetail = z.output<typeof WorkflowRunDetail>;

/** Values of a workflow's variables for a run; undeclared names are refused, missing ones take their default. */
export const WorkflowRunVariables = z.record(
  nameOf('Variable name'),
  z.string().max(4096, 'Variable values must be at most 4096 characters'),
);

export const StartWorkflowRunBody = z
  .object({
    variables: WorkflowRunVariables.optional().default({}),
  })
  .nullable()
  .optional()
  .transform((v) => v ?? { variables: {} });

export const RetryWorkflowRunBody = z
  .object({
    /** The failed or stopped step to run again; without it, every failed step. */
    step: nameOf('Step key').nullable().optional(),
  })
  .nullable()
  .optional()
  .transform((v) => ({ step: v?.step ?? null }));

export const WorkflowRunParams = WorkflowParams.extend({ runId: PathId });
export const WorkflowRunStepParams = WorkflowRunParams.extend({ stepKey: nameOf('Step key') });

/** An endpoint of one run of a workflow: `subpath` below `/api/project/:projectId/workflows/:workflowId/runs/:runId`. */
const workflowRunEndpoint = scopeEndpoints(
  '/api/project/:projectId/workflows/:workflowId/runs/:runId',
  WorkflowRunParams,
);

export const workflowRunsApi = {
  start: workflowEndpoint('/runs', {
    method: 'POST',
    body: StartWorkflowRunBody,
    response: WorkflowRunDetail,
    status: 201,
  }),
  list: workflowEndpoint('/runs', { method: 'GET', response: z.array(WorkflowRun) }),
  /**
   * Gantry's own: the workflow's finished runs per day of their start and outcome (success, failed,
   * stopped), in the form of a template's task stats, read from per-day counters.
   */
  stats: workflowEndpoint('/stats', { method: 'GET', query: StatsRangeQuery, response: z.array(StatsEntry) }),
  get: workflowRunEndpoint('', { method: 'GET', response: WorkflowRunDetail }),
  stop: workflowRunEndpoint('/stop', { method: 'POST', response: NoContent, status: 204 }),
  /**
   * Retries a failed or stopped run: a new run of the same revision and variables keeps the results
   * of the steps that are not downstream of the retried ones and runs the rest (201, the new run).
   */
  retry: workflowRunEndpoint('/retry', {
    method: 'POST',
    body: RetryWorkflowRunBody,
    response: WorkflowRunDetail,
    status: 201,
  }),
  /** Approves an approval step that waits; answers the run as it now stands. */
  approve: endpoint({
    method: 'POST',
    path: '/api/project/:projectId/workflows/:workflowId/runs/:runId/steps/:stepKey/approve',
    params: WorkflowRunStepParams,
    body: WorkflowApprovalBody,
    response: WorkflowRunDetail,
  }),
  /** Rejects an approval step that waits: one rejection fails the step. */
  reject: endpoint({
    method: 'POST',
    path: '/api/project/:projectId/workflows/:workflowId/runs/:runId/steps/:stepKey/reject',
    params: WorkflowRunStepParams,
    body: WorkflowApprovalBody,
    response: WorkflowRunDetail,
  }),
};

const describeCycle = (keys: string[]) => `Steps form a cycle: ${keys.join(' → ')}`;

/**
 * The rules of a workflow that need nothing but the definition: unique keys, edges between existing
 * steps, no cycle, a start, approvals that can be met, inputs from declared variables and from outputs
 * of steps upstream. Returns every problem found, in a stable order.
 */
export function validateWorkflowGraph(definition: WorkflowDefinition): string[] {
  const errors: string[] = [];
  const steps = new Map<string, WorkflowStep>();
  for (const step of definition.steps) {
    if (steps.has(step.key)) errors.push(`Step key "${step.key}" is used more than once`);
    steps.set(step.key, step);
  }
  const variableNames = new Set<string>();
  for (const variable of definition.variables) {
    if (variableNames.has(variable.name)) errors.push(`Variable "${variable.name}" is declared more than once`);
    variableNames.add(variable.name);
  }

  const incoming = new Map<string, string[]>([...steps.keys()].map((key) => [key, []]));
  const outgoing = new Map<string, string[]>([...steps.keys()].map((key) => [key, []]));
  const seenEdges = new Set<string>();
  for (const edge of definition.edges) {
    const label = `Edge ${edge.from} → ${edge.to}`;
    if (!steps.has(edge.from)) errors.push(`${label} starts at step "${edge.from}", which does not exist`);
    if (!steps.has(edge.to)) errors.push(`${label} ends at step "${edge.to}", which does not exist`);
    if (edge.from === edge.to) errors.push(`${label} connects a step to itself`);
    const id = `${edge.from}\u0000${edge.to}`;
    if (seenEdges.has(id)) errors.push(`${label} is declared more than once`);
    seenEdges.add(id);
    if (!steps.has(edge.from) || !steps.has(edge.to) || edge.from === edge.to) continue;
    outgoing.get(edge.from)?.push(edge.to);
    incoming.get(edge.to)?.push(edge.from);
  }

  const cycle = findCycle([...steps.keys()], outgoing);
  if (cycle) errors.push(describeCycle(cycle));
  else if (![...incoming.values()].some((from) => from.length === 0))
    errors.push('A workflow needs at least one start step (a step without incoming edges)');

  for (const step of steps.values()) {
    if (step.kind === 'approval') errors.push(...validateApproval(step));
    if (step.kind !== 'template') continue;
    const upstream = listUpstream(step.key, incoming);
    const targets = new Set<string>();
    for (const input of step.inputs) {
      const where = `Step "${step.key}", input "${input.variable}"`;
      if (targets.has(input.variable)) errors.push(`${where} is mapped more than once`);
      targets.add(input.variable);
      if (input.source === 'variable') {
        if (!variableNames.has(input.name)) errors.push(`${where}: workflow variable "${input.name}" is not declared`);
        continue;
      }
      const source = steps.get(input.step);
      if (!source) errors.push(`${where}: step "${input.step}" does not exist`);
      else if (!upstream.has(input.step)) errors.push(`${where}: step "${input.step}" is not upstream of this step`);
      else if (source.kind !== 'template' || !source.outputs.includes(input.output))
        errors.push(`${where}: step "${input.step}" does not declare the output "${input.output}"`);
    }
    if (new Set(step.outputs).size !== step.outputs.length)
      errors.push(`Step "${step.key}" declares an output more than once`);
  }
  return errors;
}

function validateApproval(step: Extract<WorkflowStep, { kind: 'approval' }>): string[] {
  return validateApprovalGate(step, `Approval step "${step.key}"`);
}

/** Every step from which an edge path leads to `key`. */
function listUpstream(key: string, incoming: Map<string, string[]>): Set<string> {
  const seen = new Set<string>();
  const pending = [...(incoming.get(key) ?? [])];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (seen.has(next)) continue;
    seen.add(next);
    pending.push(...(incoming.get(next) ?? []));
  }
  return seen;
}

/** The first cycle met by a depth-first walk, as the keys along it with the first repeated at the end. */
function findCycle(keys: string[], outgoing: Map<string, string[]>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  // Iterative, so that a long chain of steps cannot exhaust the stack.
  for (const root of keys) {
    if (state.has(root)) continue;
    const stack: { key: string; next: number }[] = [{ key: root, next: 0 }];
    state.set(root, 'open');
    path.push(root);
    while (stack.length > 0) {
      const frame = stack[stack.length - 1];
      if (!frame) break;
      const targets = outgoing.get(frame.key) ?? [];
      const target = targets[frame.next++];
      if (target === undefined) {
        state.set(frame.key, 'done');
        stack.pop();
        path.pop();
        continue;
      }
      const seen = state.get(target);
      if (seen === 'open') return [...path.slice(path.indexOf(target)), target];
      if (seen === 'done') continue;
      state.set(target, 'open');
      path.push(target);
      stack.push({ key: target, next: 0 });
    }
  }
  return undefined;
}
