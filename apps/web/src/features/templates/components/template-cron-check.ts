import { COMMIT_CHECK_INTERVALS, requiredText } from '@gantry/contract';
import type { Schedule, ScheduleBody } from '@gantry/contract';

/** The form's "run on new commit" setting: one schedule with a repository and a check interval. */
export interface CronCheckFields {
  enabled: boolean;
  repository_id: number | null;
  cron_format: string;
}

/**
 * Which schedule the form manages. It manages the template's only schedule when that one watches a
 * repository; a template with more schedules, or with a plain timed one, is left alone.
 */
export type CronCheckTarget =
  { kind: 'managed'; schedule: Schedule | undefined } | { kind: 'untouched'; reason: 'many' | 'plain'; count: number };

export function getCronCheckTarget(schedules: readonly Schedule[]): CronCheckTarget {
  if (schedules.length > 1) return { kind: 'untouched', reason: 'many', count: schedules.length };
  const [only] = schedules;
  if (only && only.repository_id === null) return { kind: 'untouched', reason: 'plain', count: 1 };
  return { kind: 'managed', schedule: only };
}

export function getCronCheckDefaults(
  schedule: Schedule | undefined,
  templateRepositoryId: number | null,
): CronCheckFields {
  return {
    enabled: schedule !== undefined,
    repository_id: schedule?.repository_id ?? templateRepositoryId,
    cron_format: schedule?.cron_format ?? COMMIT_CHECK_INTERVALS[0],
  };
}

/** The seed's rule: a repository is required for the cron check. */
export function validateCronCheck(fields: CronCheckFields): string | undefined {
  return fields.enabled && fields.repository_id === null ? requiredText('Repository') : undefined;
}

export type CronCheckChange =
  | { kind: 'none' }
  | { kind: 'create'; body: ScheduleBody }
  | { kind: 'update'; scheduleId: number; body: ScheduleBody }
  | { kind: 'delete'; scheduleId: number };

/** What saving the template does to its commit-check schedule; a new one is active at once. */
export function planCronCheck(
  fields: CronCheckFields,
  current: Schedule | undefined,
  template: { id: number; name: string },
  projectId: number,
): CronCheckChange {
  if (!fields.enabled) return current ? { kind: 'delete', scheduleId: current.id } : { kind: 'none' };
  const settings = { template_id: template.id, cron_format: fields.cron_format, repository_id: fields.repository_id };
  if (!current) return { kind: 'create', body: { ...settings, name: template.name, active: true } };
  if (
    current.cron_format === fields.cron_format &&
    current.repository_id === fields.repository_id &&
    current.template_id === template.id
  )
    return { kind: 'none' };
  return {
    kind: 'update',
    scheduleId: current.id,
    body: {
      ...settings,
      id: current.id,
      project_id: projectId,
      name: current.name,
      active: current.active,
      task_params: current.task_params,
    },
  };
}
