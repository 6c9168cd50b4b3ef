import { queryOptions } from '@tanstack/react-query';
import { eventsApi } from '@gantry/contract';
import { api } from '../../../lib/api-client.ts';

export const projectEventsQuery = (projectId: number) =>
  queryOptions({
    queryKey: ['projects', projectId, 'events'],
    queryFn: ({ signal }) => api(eventsApi.projectLast, { params: { projectId }, signal }),
  });
