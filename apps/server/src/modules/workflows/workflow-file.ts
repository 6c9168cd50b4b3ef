import type { WorkflowBody, WorkflowDefinition, WorkflowFile, WorkflowFileStep, WorkflowStep } from '@gantry/contract';
import { WorkflowFile as FileSchema } from '@gantry/contract';
import { parse, stringify } from 'yaml';

/** Names and ids of what a workflow may name in one project. */
export interface ProjectNames {
  templates: { id: number; name: string }[];
  inventories: { id: number; name: string }[];
  environments: { id: number; name: string }[];
  /** Members who may be named as approvers. */
  users: { id: number; name: string }[];
}

type Kind = keyof ProjectNames;
const LABELS: Record<Kind, string> = {
  templates: 'template',
  inventories: 'inventory',
  environments: 'variable group',
  users: 'approver',
};

/** The file form of a definition: every id replaced by the name it has in the project. */
export function toWorkflowFile(definition: WorkflowDefinition, names: ProjectNames): WorkflowFile {
  const byId = (kind: Kind, id: number) => names[kind].find((item) => item.id === id)?.name ?? `#${id}`;
  const steps = definition.steps.map((step): WorkflowFileStep => {
    if (step.kind === 'wait') return step;
    if (step.kind === 'approval') {
      const { user_ids, roles } = step.approvers;
      return { ...step, approvers: { users: user_ids.map((id) => byId('users', id)), roles } };
    }
    const { template_id, inventory_id, environment_id, ...rest } = step;
    return {
      ...rest,
      template: byId('templates', template_id),
      inventory: inventory_id === null ? null : byId('inventories', inventory_id),
      environment: environment_id === null ? null : byId('environments', environment_id),
    };
  });
  return { ...definition, steps };
}

/** The definition a file describes in a project, or the names it uses that the project lacks. */
export function fromWorkflowFile(
  file: WorkflowFile,
  names: ProjectNames,
): { definition: WorkflowBody; errors: string[] } {
  const errors: string[] = [];
  const idOf = (kind: Kind, name: string, step: string) => {
    const found = names[kind].find((item) => item.name === name);
    if (!found) errors.push(`Step "${step}": ${LABELS[kind]} "${name}" not found in this project`);
    return found?.id ?? 1;
  };
  const steps = file.steps.map((step): WorkflowStep => {
    if (step.kind === 'wait') return step;
    if (step.kind === 'approval') {
      const { users, roles } = step.approvers;
      return { ...step, approvers: { user_ids: users.map((name) => idOf('users', name, step.key)), roles } };
    }
    const { template, inventory, environment, ...rest } = step;
    return {
      ...rest,
      template_id: idOf('templates', template, step.key),
      inventory_id: inventory === null ? null : idOf('inventories', inventory, step.key),
      environment_id: environment === null ? null : idOf('environments', environment, step.key),
    };
  });
  return { definition: { ...file, steps }, errors };
}

/** A workflow file as YAML, in one canonical layout so that two renderings of the same workflow compare equal. */
export const formatWorkflowYaml = (file: WorkflowFile): string => stringify(file, { lineWidth: 0 });

/** Reads a YAML workflow file; a file that is not YAML or not a workflow gives one readable message. */
export function parseWorkflowYaml(text: string): { file?: WorkflowFile; error?: string } {
  let data: unknown;
  try {
    // No custom tags and a bounded alias expansion: a file from a repository is untrusted input.
    data = parse(text, { maxAliasCount: 100, prettyErrors: false });
  } catch (error) {
    return { error: `Not a YAML file: ${error instanceof Error ? error.message : String(error)}` };
  }
  const result = FileSchema.safeParse(data);
  if (result.success) return { file: result.data };
  return {
    error: result.error.issues.map((issue) => `${issue.path.join('.') || 'file'}: ${issue.message}`).join('; '),
  };
}
