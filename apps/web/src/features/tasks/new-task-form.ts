import { z } from 'zod';
import { SURVEY_ANSWER_MESSAGES, findSurveyValueFault } from '@gantry/contract';
import type { CreateTaskBody, Template, TaskWithTemplate } from '@gantry/contract';

/** Ansible and terraform/tofu options of a task, in the order the form shows them. */
const ANSIBLE_PARAMS = ['debug', 'dry_run', 'diff'] as const;
const TERRAFORM_PARAMS = ['plan', 'destroy', 'auto_approve', 'upgrade', 'reconfigure'] as const;
/** Ansible's host patterns and tags: sent from the template or the task being re-run, not edited in the form. */
const ANSIBLE_HOST_PARAMS = ['limit', 'tags', 'skip_tags'] as const;
export type TaskParamName = (typeof ANSIBLE_PARAMS)[number] | (typeof TERRAFORM_PARAMS)[number];

export function getParamNames(app: string): readonly TaskParamName[] {
  if (app === 'ansible') return ANSIBLE_PARAMS;
  if (app === 'terraform' || app === 'tofu') return TERRAFORM_PARAMS;
  return [];
}

/** The template fields the form is built from. */
export type TaskFormTemplate = Pick<
  Template,
  | 'id'
  | 'app'
  | 'type'
  | 'survey_vars'
  | 'allow_override_args_in_task'
  | 'allow_override_branch_in_task'
  | 'git_branch'
  | 'task_params'
  | 'build_template_id'
>;

export interface TaskFormValues {
  message: string;
  build_task_id: number | null;
  /** One entry per survey variable, in the template's order (variable names may contain dots). */
  survey: Array<{ value: string }>;
  params: Partial<Record<TaskParamName, boolean>>;
  args: string[];
  git_branch: string;
  /** A re-run pins the commit of the run it repeats, unless the user lets it go. */
  commit_hash: string | null;
}

export interface TaskFormMessages {
  required: (title: string) => string;
  mustBeInteger: string;
  notOneOfValues: (title: string) => string;
  buildVersionRequired: string;
}

/** The seed's texts, which the server answers with too. */
const TASK_FORM_MESSAGES: TaskFormMessages = {
  required: SURVEY_ANSWER_MESSAGES.required,
  mustBeInteger: 'Must be integer',
  notOneOfValues: SURVEY_ANSWER_MESSAGES.notOneOfValues,
  buildVersionRequired: 'Build version is required',
};

/** Validation of the new task form for one template: checked on submit, nothing is sent while it fails. */
export function buildTaskFormSchema(template: TaskFormTemplate, messages: TaskFormMessages = TASK_FORM_MESSAGES) {
  return z.object({
    message: z.string().max(1024),
    build_task_id: z
      .number()
      .int()
      .positive()
      .nullable()
      .refine((value) => template.type !== 'deploy' || value !== null, messages.buildVersionRequired),
    survey: z.array(z.object({ value: z.string() })).superRefine((entries, ctx) => {
      // The server's check of the answers; a text field's answer is always a single value.
      template.survey_vars.forEach((variable, index) => {
        const fault = findSurveyValueFault(variable, entries[index]?.value ?? '');
        if (fault === undefined) return;
        const message =
          fault === 'required'
            ? messages.required(variable.title)
            : fault === 'mustBeInteger'
              ? messages.mustBeInteger
              : messages.notOneOfValues(variable.title);
        ctx.addIssue({ code: 'custom', path: [index, 'value'], message });
      });
    }),
    params: z.record(z.string(), z.boolean()),
    args: z.array(z.string().trim().min(1)),
    git_branch: z.string().max(255),
    commit_hash: z.string().nullable(),
  });
}

function parseObject(text: string | null | undefined): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text ?? '{}');
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

function parseStringArray(text: string | null | undefined): string[] {
  try {
    const value: unknown = JSON.parse(text ?? '[]');
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * The form's first values: survey defaults, or the values of the task being re-run (its
 * declared variables only; secrets never come back from the server, so they start empty).
 */
export function getInitialTaskValues(template: TaskFormTemplate, source?: TaskWithTemplate | null): TaskFormValues {
  const environment = source ? parseObject(source.environment) : {};
  const params: Partial<Record<TaskParamName, boolean>> = {};
  for (const name of getParamNames(template.app)) params[name] = source?.params[name] === true;
  return {
    message: source?.message ?? '',
    build_task_id: source?.build_task_id ?? null,
    survey: template.survey_vars.map((variable) => {
      if (variable.type === 'secret') return { value: source ? '' : variable.default_value };
      const previous = environment[variable.name];
      if (source && previous !== undefined && previous !== null) return { value: String(previous) };
      return { value: variable.default_value };
    }),
    params,
    args: source ? parseStringArray(source.arguments) : [],
    git_branch: source?.git_branch ?? template.git_branch ?? '',
    commit_hash: source?.commit_hash ?? null,
  };
}

/** The request body for the validated values. */
export function toCreateTaskBody(
  template: TaskFormTemplate,
  values: TaskFormValues,
  source?: TaskWithTemplate | null,
): CreateTaskBody {
  const environment: Record<string, string | number> = {};
  const secret: Record<string, string> = {};
  template.survey_vars.forEach((variable, index) => {
    const value = values.survey[index]?.value ?? '';
    if (value === '') return;
    if (variable.type === 'secret') secret[variable.name] = value;
    else environment[variable.name] = variable.type === 'int' ? Number(value) : value;
  });

  const params: Record<string, unknown> = {};
  for (const name of getParamNames(template.app)) params[name] = values.params[name] === true;
  if (template.app === 'ansible') {
    // A re-run keeps the host limit and tags of its task (the only other params a task runner may send);
    // otherwise the template's travel with every task, as they always have.
    for (const name of ANSIBLE_HOST_PARAMS) {
      const previous = source?.params[name];
      const value = Array.isArray(previous) ? previous : template.task_params?.[name];
      if (Array.isArray(value)) params[name] = value;
    }
  }

  const body: CreateTaskBody = {
    template_id: template.id,
    message: values.message.trim(),
    environment: JSON.stringify(environment),
    secret: JSON.stringify(secret),
    params,
  };
  if (template.type === 'deploy') body.build_task_id = values.build_task_id;
  if (template.allow_override_args_in_task) body.arguments = JSON.stringify(values.args.map((arg) => arg.trim()));
  if (template.allow_override_branch_in_task && values.git_branch.trim()) body.git_branch = values.git_branch.trim();
  if (values.commit_hash) body.commit_hash = values.commit_hash;
  if (source?.inventory_id && template.task_params?.allow_override_inventory === true)
    body.inventory_id = source.inventory_id;
  return body;
}
