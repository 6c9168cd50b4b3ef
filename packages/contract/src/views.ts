import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { Id, NoContent, PathId, ProjectParams, requiredString } from './common.ts';

export const View = z.object({ id: Id, project_id: Id, title: z.string(), position: z.number().int() });
export type View = z.infer<typeof View>;

export const ViewBody = z.object({
  id: z.number().int().optional(),
  project_id: Id.optional(),
  title: requiredString('Title'),
  position: z.number({ error: 'Position must be an integer' }).int('Position must be an integer').min(0).max(1_000_000).optional(),
});
export type ViewBody = z.input<typeof ViewBody>;

/** Map of view id to its new position. */
export const ViewPositionsBody = z.record(z.string().regex(/^[0-9]{1,15}$/, 'View ids must be integers'), z.number().int().min(0).max(1_000_000));
export type ViewPositionsBody = z.input<typeof ViewPositionsBody>;

export const ViewParams = z.object({ projectId: PathId, viewId: PathId });

export const viewsApi = {
  list: endpoint({ method: 'GET', path: '/api/project/:projectId/views', params: ProjectParams, response: z.array(View) }),
  create: endpoint({ method: 'POST', path: '/api/project/:projectId/views', params: ProjectParams, body: ViewBody, response: View, status: 201 }),
  positions: endpoint({ method: 'POST', path: '/api/project/:projectId/views/positions', params: ProjectParams, body: ViewPositionsBody, response: NoContent, status: 204 }),
  get: endpoint({ method: 'GET', path: '/api/project/:projectId/views/:viewId', params: ViewParams, response: View }),
  update: endpoint({ method: 'PUT', path: '/api/project/:projectId/views/:viewId', params: ViewParams, body: ViewBody, response: NoContent, status: 204 }),
  remove: endpoint({ method: 'DELETE', path: '/api/project/:projectId/views/:viewId', params: ViewParams, response: NoContent, status: 204 }),
};
