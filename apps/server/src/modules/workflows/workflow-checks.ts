import type { Template, WorkflowDefinition } from '@gantry/contract';
import { Permission, hasPermissions, validateWorkflowGraph } from '@gantry/contract';

/** What a workflow may name in its project, read once per check. */
export interface ProjectCatalog {
  templates: Pick<Template, 'id' | 'name' | 'survey_vars'>[];
  inventories: { id: number; name: string }[];
  environments: { id: number; name: string }[];
  members: { user_id: number; username: string; role: string }[];
}

/**
 * The rules of a workflow that need its project: the templates, inventories and variable groups it
 * names exist there, the saving user may run tasks, survey values and inputs name variables the
 * template asks for, approvers are members and enough of them exist. Graph rules come first.
 */
export function checkWorkflow(definition: WorkflowDefinition, catalog: ProjectCatalog, permissions: number): string[] {
  const errors = validateWorkflowGraph(definition);
  const templates = new Map(catalog.templates.map((t) => [t.id, t]));
  // Who may approve: members who are no guests, as for template gates.
  const approverMembers = catalog.members.filter((m) => m.role !== 'guest');
  const memberIds = new Set(approverMembers.map((m) => m.user_id));
  const inventoryIds = new Set(catalog.inventories.map((i) => i.id));
  const environmentIds = new Set(catalog.environments.map((e) => e.id));
  const mayRun = hasPermissions(permissions, Permission.runProjectTasks);
  for (const step of definition.steps) {
    const where = `Step "${step.key}"`;
    if (step.kind === 'template') {
      const template = templates.get(step.template_id);
      if (!template) {
        errors.push(`${where}: template ${step.template_id} not found in this project`);
        continue;
      }
      if (!mayRun) errors.push(`${where}: you may not run template "${template.name}"`);
      if (step.inventory_id !== null && !inventoryIds.has(step.inventory_id))
        errors.push(`${where}: inventory ${step.inventory_id} not found in this project`);
      if (step.environment_id !== null && !environmentIds.has(step.environment_id))
        errors.push(`${where}: variable group ${step.environment_id} not found in this project`);
      const surveyTypes = new Map(template.survey_vars.map((v) => [v.name, v.type]));
      for (const name of [...Object.keys(step.survey_values), ...step.inputs.map((i) => i.variable)]) {
        if (!surveyTypes.has(name))
          errors.push(`${where}: template "${template.name}" has no survey variable "${name}"`);
        // A workflow's values are stored with its definition and its runs, readable by every member.
        else if (surveyTypes.get(name) === 'secret')
          errors.push(
            `${where}: survey variable "${name}" of template "${template.name}" is a secret, which a workflow cannot pass`,
          );
      }
    }
    if (step.kind === 'approval') {
      const strangers = step.approvers.user_ids.filter((id) => !memberIds.has(id));
      if (strangers.length > 0)
        errors.push(`${where}: approvers ${strangers.join(', ')} are not members of this project who may approve`);
      const roles = new Set<string>(step.approvers.roles);
      const eligible = new Set([
        ...step.approvers.user_ids.filter((id) => memberIds.has(id)),
        ...approverMembers.filter((m) => roles.has(m.role)).map((m) => m.user_id),
      ]);
      if (roles.size > 0 && step.required > eligible.size)
        errors.push(`${where} requires ${step.required} approvals but only ${eligible.size} members can approve`);
    }
  }
  return errors;
}

/** The templates a workflow runs: what the references of a template list. */
/** The project resources a definition's steps name: what their references list and what cannot be deleted meanwhile. */
export interface WorkflowUses {
  templateIds: number[];
  inventoryIds: number[];
  environmentIds: number[];
}

export function listUses(definition: WorkflowDefinition): WorkflowUses {
  const steps = definition.steps.flatMap((step) => (step.kind === 'template' ? [step] : []));
  const ids = (pick: (step: (typeof steps)[number]) => number | null) => [
    ...new Set(steps.map(pick).filter((id) => id !== null)),
  ];
  return {
    templateIds: ids((step) => step.template_id),
    inventoryIds: ids((step) => step.inventory_id),
    environmentIds: ids((step) => step.environment_id),
  };
}
