import { z } from 'zod';
import { COMMIT_CHECK_INTERVALS, CRON_REQUIRED, requiredText } from '@gantry/contract';
import type { Schedule, ScheduleBody } from '@gantry/contract';
import { DEFAULT_CRON, EMPTY_PICKER, parseCron, toCron } from '../cron-picker.ts';
import type { CronPicker, Timing } from '../cron-picker.ts';

const TIMING_REQUIRED = 'Timing is required';
const WORKFLOW_REQUIRED = 'Workflow is required';
const VARIABLES_INVALID = 'Variables must be a JSON object of strings';

/** What a schedule starts: a template's task (as in Semaphore) or a workflow's run. */
type ScheduleTarget = 'template' | 'workflow';

export type CronMode = 'picker' | 'raw';

/** The picker as the form holds it: no timing yet when a raw expression could not be shown. */
export type PickerFields = Omit<CronPicker, 'timing'> & { timing: Timing | '' };

/** What the schedule dialog edits; the cron text is built from one of three sources on save. */
export interface ScheduleFormFields {
  name: string;
  target: ScheduleTarget;
  template_id: number | null;
  workflow_id: number | null;
  /** The workflow's variables as a JSON object of strings (empty for none). */
  workflow_variables: string;
  /** Fire only when the repository's branch has a new commit, checked at check_interval. */
  run_on_commit: boolean;
  repository_id: number | null;
  check_interval: string;
  mode: CronMode;
  cron_format: string;
  picker: PickerFields;
}

export function getScheduleFormDefaults(schedule?: Schedule): ScheduleFormFields {
  const cron = schedule?.cron_format ?? DEFAULT_CRON;
  const onCommit = schedule?.repository_id != null;
  const picker = onCommit ? undefined : parseCron(cron);
  return {
    name: schedule?.name ?? '',
    target: schedule?.workflow_id ? 'workflow' : 'template',
    template_id: schedule?.template_id ?? null,
    workflow_id: schedule?.workflow_id ?? null,
    workflow_variables: schedule?.task_params.variables ? JSON.stringify(schedule.task_params.variables) : '',
    run_on_commit: onCommit,
    repository_id: schedule?.repository_id ?? null,
    check_interval: onCommit ? cron : COMMIT_CHECK_INTERVALS[0],
    mode: picker || onCommit ? 'picker' : 'raw',
    cron_format: cron,
    picker: picker ?? { ...EMPTY_PICKER },
  };
}

/** The cron text the form stands for at this moment (empty when the picker has no timing). */
export function getFormCron(fields: ScheduleFormFields): string {
  if (fields.run_on_commit) return fields.check_interval;
  if (fields.mode === 'raw') return fields.cron_format.trim();
  const { timing } = fields.picker;
  return timing ? toCron({ ...fields.picker, timing }) : '';
}

/** Switching to the picker shows what the raw text says; text it cannot show leaves the timing to choose. */
export function toPickerFields(cron: string): PickerFields {
  return parseCron(cron) ?? { ...EMPTY_PICKER, timing: '' };
}

/** The workflow variables the form holds, or undefined when the text is not a JSON object of strings. */
function parseWorkflowVariables(text: string): Record<string, string> | undefined {
  if (!text.trim()) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const entries = Object.entries(value);
    return entries.every(([, v]) => typeof v === 'string') ? Object.fromEntries(entries) : undefined;
  } catch {
    return undefined;
  }
}

/** The body to send; an existing schedule keeps its active state and task parameters. */
export function toScheduleBody(fields: ScheduleFormFields, projectId: number, schedule?: Schedule): ScheduleBody {
  const common = {
    ...(schedule
      ? { id: schedule.id, project_id: projectId, active: schedule.active, task_params: schedule.task_params }
      : { active: true }),
    name: fields.name.trim(),
  };
  const timing = {
    cron_format: getFormCron(fields),
    repository_id: fields.run_on_commit ? fields.repository_id : null,
  };
  if (fields.target === 'workflow')
    return {
      ...common,
      workflow_id: fields.workflow_id ?? 0,
      ...timing,
      task_params: { ...schedule?.task_params, variables: parseWorkflowVariables(fields.workflow_variables) ?? {} },
    };
  return { ...common, template_id: fields.template_id ?? 0, ...timing };
}

/** Lazy validation with the seed's messages; every failing field is reported in one pass. */
export const ScheduleFormSchema = z.custom<ScheduleFormFields>().superRefine((fields, ctx) => {
  const fail = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
  if (!fields.name.trim()) fail(['name'], requiredText('Name'));
  if (fields.target === 'template' && fields.template_id === null) fail(['template_id'], requiredText('Template'));
  if (fields.target === 'workflow' && fields.workflow_id === null) fail(['workflow_id'], WORKFLOW_REQUIRED);
  if (fields.target === 'workflow' && !parseWorkflowVariables(fields.workflow_variables))
    fail(['workflow_variables'], VARIABLES_INVALID);
  if (fields.run_on_commit) {
    if (fields.repository_id === null) fail(['repository_id'], requiredText('Repository'));
  } else if (fields.mode === 'raw') {
    if (!fields.cron_format.trim()) fail(['cron_format'], CRON_REQUIRED);
  } else if (!fields.picker.timing) {
    fail(['picker', 'timing'], TIMING_REQUIRED);
  }
});
