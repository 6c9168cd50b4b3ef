import { z } from 'zod';
import { collectionEndpoints, endpoint } from './endpoint.ts';
import { Id, IdText, NoContent, PathId, ProjectParams, requiredString, wireInteger } from './common.ts';

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

export const ViewParams = z.object({ projectId: PathId, viewId: PathId });

export const viewsApi = {
  ...collectionEndpoints({
    path: '/api/project/:projectId/views',
    itemPath: '/api/project/:projectId/views/:viewId',
    listParams: ProjectParams,
    itemParams: ViewParams,
    body: ViewBody,
    item: View,
  }),
  positions: endpoint({
    method: 'POST',
    path: '/api/project/:projectId/views/positions',
    params: ProjectParams,
    body: ViewPositionsBody,
    response: NoContent,
    status: 204,
  }),
};
