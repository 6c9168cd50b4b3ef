import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { schedulesApi } from '@gantry/contract';
import type { Schedule } from '@gantry/contract';
import { api } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/mutations.ts';
import { defineProjectCollection } from '../../../lib/project-collection.ts';
import { resourceKeys } from '../../../lib/project-resources.ts';

export const scheduleKeys = {
  all: resourceKeys.schedules,
};

const schedulesQuery = (projectId: number) =>
  queryOptions({
    queryKey: scheduleKeys.all(projectId),
    queryFn: ({ signal }) => api(schedulesApi.list, { params: { projectId }, signal }),
  });

/** Checks a cron expression on the server (its parser and time zone decide) and returns the next runs. */
export const validateCron = (projectId: number, cron: string, signal?: AbortSignal) =>
  api(schedulesApi.validate, { params: { projectId }, body: { cron_format: cron }, signal });

// Template pages list a template's schedules too.
const refreshFor = (projectId: number) => [scheduleKeys.all(projectId), resourceKeys.templates(projectId)];

const schedules = defineProjectCollection({
  section: 'schedules',
  endpoints: schedulesApi,
  idParam: 'scheduleId',
  query: schedulesQuery,
  refresh: refreshFor,
});

export const useSaveSchedule = schedules.useSave;

/** The active switch saves at once; the row shows the new state before the server answers. */
export function useSetScheduleActive(projectId: number) {
  const queryClient = useQueryClient();
  return useRefreshingMutation(
    refreshFor(projectId),
    ({ scheduleId, active }: { scheduleId: number; active: boolean }) =>
      api(schedulesApi.setActive, { params: { projectId, scheduleId }, body: { active } }),
    {
      alsoAfterFailure: true,
      onMutate: async ({ scheduleId, active }) => {
        await queryClient.cancelQueries({ queryKey: scheduleKeys.all(projectId) });
        queryClient.setQueryData<Schedule[]>(scheduleKeys.all(projectId), (list) =>
          list?.map((schedule) => (schedule.id === scheduleId ? { ...schedule, active } : schedule)),
        );
      },
    },
  );
}

/** Schedules as their list page knows them. */
export const schedulesResource = schedules.resource;
