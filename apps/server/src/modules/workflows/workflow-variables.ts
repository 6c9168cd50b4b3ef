import type { WorkflowDefinition } from '@gantry/contract';
import { WorkflowRunVariables } from '@gantry/contract';
import { badRequest, validationFailed } from '../../errors.ts';

/** The values of a run's variables: declared names only, defaults filled in, required ones present. */
export function resolveVariables(
  workflow: Pick<WorkflowDefinition, 'variables'>,
  given: Record<string, string>,
  requireAll = true,
): Record<string, string> {
  const declared = new Set(workflow.variables.map((v) => v.name));
  const unknown = Object.keys(given).filter((name) => !declared.has(name));
  if (unknown.length > 0) throw validationFailed(`Unknown workflow variables: ${unknown.join(', ')}`);
  const variables: Record<string, string> = {};
  for (const v of workflow.variables) variables[v.name] = given[v.name] ?? v.default_value;
  const missing = workflow.variables.filter((v) => v.required && !variables[v.name]).map((v) => v.name);
  if (requireAll && missing.length > 0)
    throw validationFailed(`Required workflow variables missing: ${missing.join(', ')}`);
  return variables;
}

/** The values a workflow schedule or integration gives the workflow's variables: its task_params' `variables`. */
export function workflowVariablesOf(params: Record<string, unknown>): Record<string, string> {
  const parsed = WorkflowRunVariables.safeParse(params.variables ?? {});
  if (!parsed.success) throw badRequest(`task_params.variables: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}
