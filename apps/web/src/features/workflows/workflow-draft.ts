import { WorkflowDefinition, WorkflowStep, validateWorkflowGraph } from '@gantry/contract';
import type { WorkflowEdge, WorkflowVariable } from '@gantry/contract';
import { DEFAULT_APPROVAL_RULE, toApprovalRule } from '../../components/approvals/approval-rule.ts';
import type { ApprovalRule } from '../../components/approvals/approval-rule.ts';

/**
 * The workflow editor's model: the definition being edited, changed by pure functions, and the
 * step dialog's fields mapped to and from a step.
 */

export type StepKind = WorkflowStep['kind'];
export type EdgeKind = WorkflowEdge['on'];
export const STEP_KINDS: readonly StepKind[] = ['template', 'approval', 'wait'];
export const EDGE_KINDS: readonly EdgeKind[] = ['success', 'failure', 'always'];

export const emptyDefinition = (): WorkflowDefinition => ({
  name: '',
  description: '',
  variables: [],
  steps: [],
  edges: [],
});

/** What the step dialog edits: every kind's fields, numbers as typed text. */
export interface StepForm {
  kind: StepKind;
  key: string;
  name: string;
  join: 'all' | 'any';
  template_id: number | null;
  inventory_id: number | null;
  environment_id: number | null;
  survey_values: Record<string, string>;
  /** Template survey variable → the workflow variable it takes its value from. */
  variable_inputs: Record<string, string>;
  approval: ApprovalRule;
  seconds: string;
}

/** A key of the form `{kind}_{n}` that no step of the definition uses. */
export function nextStepKey(definition: WorkflowDefinition, kind: StepKind): string {
  const used = new Set(definition.steps.map((step) => step.key));
  for (let n = 1; ; n++) {
    const key = `${kind}_${n}`;
    if (!used.has(key)) return key;
  }
}

export function newStepForm(definition: WorkflowDefinition, kind: StepKind): StepForm {
  return {
    kind,
    key: nextStepKey(definition, kind),
    name: '',
    join: 'all',
    template_id: null,
    inventory_id: null,
    environment_id: null,
    survey_values: {},
    variable_inputs: {},
    approval: DEFAULT_APPROVAL_RULE,
    seconds: '60',
  };
}

export function stepToForm(step: WorkflowStep): StepForm {
  const form: StepForm = {
    ...newStepForm(emptyDefinition(), step.kind),
    key: step.key,
    name: step.name,
    join: step.join,
  };
  if (step.kind === 'template') {
    return {
      ...form,
      template_id: step.template_id,
      inventory_id: step.inventory_id,
      environment_id: step.environment_id,
      survey_values: { ...step.survey_values },
      variable_inputs: Object.fromEntries(
        step.inputs.flatMap((input) => (input.source === 'variable' ? [[input.variable, input.name]] : [])),
      ),
    };
  }
  if (step.kind === 'approval') {
    return {
      ...form,
      approval: toApprovalRule(step),
    };
  }
  return { ...form, seconds: String(step.seconds) };
}

const toNumber = (text: string) => (text.trim() === '' ? undefined : Number(text));

/**
 * The step the form describes, checked by the contract's schema; the original step's fields the
 * dialog does not show (a template step's params, inputs and outputs) are kept.
 */
export function formToStep(
  form: StepForm,
  original?: WorkflowStep,
): { step: WorkflowStep; error?: undefined } | { step?: undefined; error: string } {
  const common = { key: form.key.trim(), name: form.name, join: form.join };
  let input: unknown;
  if (form.kind === 'template') {
    const kept = original?.kind === 'template' ? original : undefined;
    const fromVariables = Object.entries(form.variable_inputs).filter(([, name]) => name !== '');
    const mapped = new Set(fromVariables.map(([variable]) => variable));
    const survey = Object.fromEntries(
      Object.entries(form.survey_values).filter(([variable, value]) => value !== '' && !mapped.has(variable)),
    );
    const inputs = [
      ...(kept?.inputs ?? []).filter((input) => input.source === 'output'),
      ...fromVariables.map(([variable, name]) => ({ variable, source: 'variable' as const, name })),
    ];
    input = {
      ...kept,
      ...common,
      kind: 'template',
      template_id: form.template_id ?? undefined,
      inventory_id: form.inventory_id,
      environment_id: form.environment_id,
      survey_values: survey,
      inputs,
    };
  } else if (form.kind === 'approval') {
    input = {
      ...common,
      kind: 'approval',
      approvers: { user_ids: form.approval.user_ids, roles: form.approval.roles },
      required: toNumber(form.approval.required),
      starter_may_approve: form.approval.starter_may_approve,
      timeout_seconds: toNumber(form.approval.timeout_seconds),
      on_timeout: form.approval.on_timeout,
    };
  } else {
    input = { ...common, kind: 'wait', seconds: toNumber(form.seconds) ?? '' };
  }
  const parsed = WorkflowStep.safeParse(input);
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? 'Invalid step' };
  return { step: parsed.data };
}

/**
 * Puts a step in place of the one keyed `previousKey` (or adds it): a renamed step keeps its edges
 * and the inputs that read its outputs.
 */
export function saveStep(definition: WorkflowDefinition, step: WorkflowStep, previousKey?: string): WorkflowDefinition {
  if (previousKey === undefined) return { ...definition, steps: [...definition.steps, step] };
  const rename = (key: string) => (key === previousKey ? step.key : key);
  return {
    ...definition,
    steps: definition.steps.map((current) => {
      const next = current.key === previousKey ? step : current;
      if (next.kind !== 'template' || previousKey === step.key) return next;
      return {
        ...next,
        inputs: next.inputs.map((input) =>
          input.source === 'output' ? { ...input, step: rename(input.step) } : input,
        ),
      };
    }),
    edges: definition.edges.map((edge) => ({ ...edge, from: rename(edge.from), to: rename(edge.to) })),
  };
}

/** Removes a step with the edges that touch it. */
export function removeStep(definition: WorkflowDefinition, key: string): WorkflowDefinition {
  return {
    ...definition,
    steps: definition.steps.filter((step) => step.key !== key),
    edges: definition.edges.filter((edge) => edge.from !== key && edge.to !== key),
  };
}

/** Adds an edge, or changes the kind of the one already joining the same steps. */
export function connectSteps(definition: WorkflowDefinition, edge: WorkflowEdge): WorkflowDefinition {
  const index = definition.edges.findIndex((current) => current.from === edge.from && current.to === edge.to);
  if (index === -1) return { ...definition, edges: [...definition.edges, edge] };
  return { ...definition, edges: definition.edges.map((current, i) => (i === index ? edge : current)) };
}

/** What the editor can tell without the server: the schema's messages, then the graph rules. */
export function checkDraft(definition: WorkflowDefinition): string[] {
  const parsed = WorkflowDefinition.safeParse(definition);
  if (!parsed.success) return [...new Set(parsed.error.issues.map((issue) => issue.message))];
  return validateWorkflowGraph(parsed.data);
}

/** The run form's starting values: each variable's default. */
export const runFormValues = (variables: readonly WorkflowVariable[]): Record<string, string> =>
  Object.fromEntries(variables.map((variable) => [variable.name, variable.default_value]));

/** Names of required variables left empty in the run form. */
export const missingRunValues = (variables: readonly WorkflowVariable[], values: Record<string, string>): string[] =>
  variables
    .filter((variable) => variable.required && (values[variable.name] ?? '').trim() === '')
    .map((variable) => variable.name);
