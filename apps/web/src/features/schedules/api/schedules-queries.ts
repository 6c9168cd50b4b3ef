import { useQueryClient } from '@tanstack/react-query';
import { schedulesApi } from '@gantry/contract';
import type { Schedule } from '@gantry/contract';
import { api } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/mutations.ts';
import { defineProjectCollection } from '../../../lib/project-collection.ts';
import { resourceKeys } from '../../../lib/project-resources.ts';

/** Checks a cron expression on the server (its parser and time zone decide) and returns the next runs. */
export const validateCron = (projectId: number, cron: string, signal?: AbortSignal) =>
  api(schedulesApi.validate, { params: { projectId }, body: { cron_format: cron }, signal });

// Template pages list a template's schedules too.
const schedules = defineProjectCollection('schedules', schedulesApi, 'scheduleId', resourceKeys.templates);

export const useSaveSchedule = schedules.useSave;

/** The active switch saves at once; the row shows the new state before the server answers. */
export function useSetScheduleActive(projectId: number) {
  const queryClient = useQueryClient();
  return useRefreshingMutation(
    schedules.refresh(projectId),
    ({ id, active }: { id: number; active: boolean }) =>
      api(schedulesApi.setActive, { params: { projectId, scheduleId: id }, body: { active } }),
    {
      alsoAfterFailure: true,
      onMutate: async ({ id, active }) => {
        await queryClient.cancelQueries({ queryKey: resourceKeys.schedules(projectId) });
        queryClient.setQueryData<Schedule[]>(resourceKeys.schedules(projectId), (list) =>
          list?.map((schedule) => (schedule.id === id ? { ...schedule, active } : schedule)),
        );
      },
    },
  );
}

/** Schedules as their list page knows them. */
export const schedulesResource = schedules.resource;
