import { z } from 'zod';
import { projectEndpoint, resourceEndpoints } from './endpoint.ts';
import { Id, IdText, NoContent, ProjectParams, requiredString, wireInteger } from './common.ts';

export const View = z.object({ id: Id, project_id: Id, title: z.string(), position: wireInteger() });
export type View = z.infer<typeof View>;

export const ViewBody = z.object({
  id: Id.optional(),
  project_id: Id.optional(),
  title: requiredString('Title'),
  position: wireInteger({
    max: 1_000_000,
    message: {
      type: 'Position must be an integer',
      min: 'Position must be 0 or greater',
      max: 'Position must be at most 1000000',
    },
  }).optional(),
});
export type ViewBody = z.input<typeof ViewBody>;

/** Map of view id to its new position. */
export const ViewPositionsBody = z.record(IdText, wireInteger({ max: 1_000_000 }));
export type ViewPositionsBody = z.input<typeof ViewPositionsBody>;

export const viewsApi = {
  ...resourceEndpoints({
    path: '/api/project/:projectId/views',
    params: ProjectParams,
    id: 'viewId',
    body: ViewBody,
    item: View,
  }),
  positions: projectEndpoint('/views/positions', {
    method: 'POST',
    body: ViewPositionsBody,
    response: NoContent,
    status: 204,
  }),
};
