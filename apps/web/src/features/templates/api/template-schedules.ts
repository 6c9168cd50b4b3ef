import { queryOptions } from '@tanstack/react-query';
import { schedulesApi } from '@gantry/contract';
import { api } from '../../../lib/api-client.ts';
import { resourceKeys } from '../../../lib/project-resources.ts';
import type { CronCheckChange } from '../components/template-cron-check.ts';

/** The template's schedules: the form manages the commit-check one among them. */
export const templateSchedulesQuery = (projectId: number, templateId: number) =>
  queryOptions({
    queryKey: [...resourceKeys.templates(projectId), 'one', templateId, 'schedules'] as const,
    queryFn: ({ signal }) => api(schedulesApi.ofTemplate, { params: { projectId, templateId }, signal }),
  });

/** The server's cron parser decides whether an expression is accepted. */
export const checkCron = (projectId: number, cron: string) => api(schedulesApi.validate, { params: { projectId }, body: { cron_format: cron } });

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
