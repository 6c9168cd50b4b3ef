import type { View, ViewBody, ViewPositionsBody } from '@gantry/contract';
import type { z } from 'zod';
import { badRequest } from '../../errors.ts';
import type { EventsService } from '../events/events.service.ts';
import { assertBodyInProject, projectResource } from '../refs/project-resource.ts';
import type { UserRow } from '../users/users.table.ts';
import type { ViewsRepository } from './views.repository.ts';
import type { ViewRow } from './views.table.ts';

type ViewInput = z.output<typeof ViewBody>;

const toView = (row: ViewRow): View => ({
  id: row.id,
  project_id: row.project_id,
  title: row.title,
  position: row.position,
});

export function createViewsService({ views, events }: { views: ViewsRepository; events: EventsService }) {
  const resource = projectResource({ label: 'View', objectType: 'view', rows: views, events });
  const { get: getRow, record } = resource;

  return {
    async list(projectId: number): Promise<View[]> {
      return (await views.list(projectId, 'position')).map(toView);
    },
    async get(projectId: number, id: number): Promise<View> {
      return toView(await getRow(projectId, id));
    },
    assertExists: resource.assertExists,
    async create(actor: UserRow | undefined, projectId: number, body: ViewInput): Promise<View> {
      assertBodyInProject(projectId, body);
      // As in Semaphore, a view created without a position is at 0 (Go clients leave 0 out and expect it back).
      const row = { project_id: projectId, title: body.title, position: body.position ?? 0 };
      return toView(await resource.create(actor, row, row.title));
    },
    async update(actor: UserRow, projectId: number, id: number, body: ViewInput): Promise<void> {
      if (body.id !== undefined && body.id !== id) throw badRequest('View ID in URL and in body must be the same');
      await getRow(projectId, id);
      // A PUT replaces the view, as in Semaphore: Go clients leave a position of 0 out.
      await views.update(projectId, id, { title: body.title, position: body.position ?? 0 });
      await record(actor, projectId, id, `View ${body.title} updated`);
    },
    async setPositions(projectId: number, body: z.output<typeof ViewPositionsBody>): Promise<void> {
      const known = new Set((await views.list(projectId, 'position')).map((v) => v.id));
      const positions = Object.entries(body).map(([id, position]) => [Number(id), position] as [number, number]);
      const unknown = positions.find(([id]) => !known.has(id));
      if (unknown) throw badRequest(`View ${unknown[0]} not found in this project`);
      await views.setPositions(projectId, positions);
    },
    async remove(actor: UserRow, projectId: number, id: number): Promise<void> {
      const current = await getRow(projectId, id);
      await views.delete(projectId, id);
      await record(actor, projectId, id, `View ${current.title} deleted`);
    },
  };
}

export type ViewsService = ReturnType<typeof createViewsService>;
