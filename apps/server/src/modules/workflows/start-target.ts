import { badRequest } from '../../errors.ts';
import type { TemplatesService } from '../templates/templates.service.ts';
import type { WorkflowRuns } from './workflow-runs.service.ts';
import { workflowVariablesOf } from './workflow-variables.ts';

interface StartTargetDeps {
  templates: Pick<TemplatesService, 'exists'>;
  workflowRuns: Pick<WorkflowRuns, 'explainStart'>;
}

/**
 * What a schedule or an integration starts, checked as it is saved: a template of the project, or a
 * workflow of it that takes the stored `task_params.variables` (all required ones unless
 * `requireAllVariables` is false: an integration's extracted values may give them). Answers the columns.
 */
export async function checkStartTarget(
  { templates, workflowRuns }: StartTargetDeps,
  projectId: number,
  body: { template_id?: number | null; workflow_id?: number | null; task_params: Record<string, unknown> },
  requireAllVariables: boolean,
): Promise<{ template_id: number | null; workflow_id: number | null }> {
  if (body.workflow_id) {
    const variables = workflowVariablesOf(body.task_params);
    const problem = await workflowRuns.explainStart(projectId, body.workflow_id, variables, requireAllVariables);
    if (problem) throw badRequest(problem);
    return { template_id: null, workflow_id: body.workflow_id };
  }
  if (!body.template_id || !(await templates.exists(projectId, body.template_id)))
    throw badRequest('Template not found in this project');
  return { template_id: body.template_id, workflow_id: null };
}
