import { queryOptions } from '@tanstack/react-query';
import { schedulesApi } from '@gantry/contract';
import { api } from '../../../lib/api-client.ts';
import { schedulesQuery } from '../../../lib/project-resources.ts';
import type { CronCheckChange } from '../components/template-cron-check.ts';

/**
 * Every schedule of the template: the form manages the commit-check one among them, and leaves a
 * template with a timed schedule alone. Read from the project's list, since the template's own
 * schedules call answers commit checks only (as Semaphore's does); cached as that list, so whatever
 * changes a schedule (the form's commit check, the schedules page) refreshes what the form sees.
 */
export const templateSchedulesQuery = (projectId: number, templateId: number) =>
  queryOptions({
    ...schedulesQuery(projectId),
    select: (schedules) => schedules.filter((schedule) => schedule.template_id === templateId),
  });

/** The server's cron parser decides whether an expression is accepted. */
export const checkCron = (projectId: number, cron: string) =>
  api(schedulesApi.validate, { params: { projectId }, body: { cron_format: cron } });

export async function applyCronCheckChange(projectId: number, change: CronCheckChange): Promise<void> {
  switch (change.kind) {
    case 'none':
      return;
    case 'create':
      await api(schedulesApi.create, { params: { projectId }, body: change.body });
      return;
    case 'update':
      await api(schedulesApi.update, { params: { projectId, scheduleId: change.scheduleId }, body: change.body });
      return;
    case 'delete':
      await api(schedulesApi.remove, { params: { projectId, scheduleId: change.scheduleId } });
      return;
  }
}
