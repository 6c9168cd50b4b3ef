import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { schedulesApi } from '@gantry/contract';
import type { Schedule, ScheduleBody } from '@gantry/contract';
import { api } from '../../../lib/api-client.ts';
import { useRefreshingMutation, useSaveMutation } from '../../../lib/mutations.ts';
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

const loadScheduleRefs = (projectId: number, scheduleId: number) =>
  api(schedulesApi.refs, { params: { projectId, scheduleId } });

// Template pages list a template's schedules too.
const refreshFor = (projectId: number) => [scheduleKeys.all(projectId), resourceKeys.templates(projectId)];

export function useSaveSchedule(projectId: number) {
  return useSaveMutation<ScheduleBody>(
    refreshFor(projectId),
    (body) => api(schedulesApi.create, { params: { projectId }, body }),
    (scheduleId, body) => api(schedulesApi.update, { params: { projectId, scheduleId }, body }),
  );
}

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

function useDeleteSchedule(projectId: number) {
  return useRefreshingMutation(refreshFor(projectId), (scheduleId: number) =>
    api(schedulesApi.remove, { params: { projectId, scheduleId } }),
  );
}

/** Schedules as their list page knows them. */
export const schedulesResource = {
  section: 'schedules',
  query: schedulesQuery,
  useRemove: useDeleteSchedule,
  loadRefs: loadScheduleRefs,
};
