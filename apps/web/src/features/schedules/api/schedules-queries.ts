import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { schedulesApi } from '@gantry/contract';
import type { Schedule, ScheduleBody } from '@gantry/contract';
import { api } from '../../../lib/api-client.ts';
import { resourceKeys } from '../../../lib/project-resources.ts';

export const scheduleKeys = {
  all: resourceKeys.schedules,
};

export const schedulesQuery = (projectId: number) =>
  queryOptions({
    queryKey: scheduleKeys.all(projectId),
    queryFn: ({ signal }) => api(schedulesApi.list, { params: { projectId }, signal }),
  });

/** Checks a cron expression on the server (its parser and time zone decide) and returns the next runs. */
export const validateCron = (projectId: number, cron: string, signal?: AbortSignal) =>
  api(schedulesApi.validate, { params: { projectId }, body: { cron_format: cron }, signal });

export const loadScheduleRefs = (projectId: number, scheduleId: number) =>
  api(schedulesApi.refs, { params: { projectId, scheduleId } });

function useInvalidateSchedules(projectId: number) {
  const queryClient = useQueryClient();
  // Template pages list a template's schedules too.
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: scheduleKeys.all(projectId) }),
      queryClient.invalidateQueries({ queryKey: resourceKeys.templates(projectId) }),
    ]);
}

export function useSaveSchedule(projectId: number) {
  const invalidate = useInvalidateSchedules(projectId);
  return useMutation({
    mutationFn: async ({ scheduleId, body }: { scheduleId?: number; body: ScheduleBody }): Promise<void> => {
      if (scheduleId) await api(schedulesApi.update, { params: { projectId, scheduleId }, body });
      else await api(schedulesApi.create, { params: { projectId }, body });
    },
    onSuccess: invalidate,
  });
}

/** The active switch saves at once; the row shows the new state before the server answers. */
export function useSetScheduleActive(projectId: number) {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateSchedules(projectId);
  return useMutation({
    mutationFn: ({ scheduleId, active }: { scheduleId: number; active: boolean }) =>
      api(schedulesApi.setActive, { params: { projectId, scheduleId }, body: { active } }),
    onMutate: async ({ scheduleId, active }) => {
      await queryClient.cancelQueries({ queryKey: scheduleKeys.all(projectId) });
      queryClient.setQueryData<Schedule[]>(scheduleKeys.all(projectId), (list) =>
        list?.map((schedule) => (schedule.id === scheduleId ? { ...schedule, active } : schedule)),
      );
    },
    onSettled: invalidate,
  });
}

export function useDeleteSchedule(projectId: number) {
  const invalidate = useInvalidateSchedules(projectId);
  return useMutation({
    mutationFn: (scheduleId: number) => api(schedulesApi.remove, { params: { projectId, scheduleId } }),
    onSuccess: invalidate,
  });
}
