import type { Event } from '@gantry/contract';
import type { Db } from '../../db/database.ts';
import type { EventRow } from './events.table.ts';

export function createEventsRepository(db: Db) {
  function selectEvents() {
    return db
      .selectFrom('event')
      .leftJoin('users', 'users.id', 'event.user_id')
      .leftJoin('project', 'project.id', 'event.project_id')
      .select([
        'event.id',
        'event.created',
        'event.user_id',
        'event.project_id',
        'event.object_id',
        'event.object_type',
        'event.object_name',
        'event.description',
        'users.username as username',
        'project.name as project_name',
      ])
      // Semaphore names the integration behind an event in a field of its own.
      .select((eb) => eb.case().when('event.object_type', '=', 'integration').then(eb.ref('event.object_id')).else(null).end().as('integration_id'))
      .orderBy('event.id', 'desc');
  }

  return {
    async insert(row: Omit<EventRow, 'id'>): Promise<void> {
      await db.insertInto('event').values(row).execute();
    },
    listForProject(projectId: number, limit?: number): Promise<Event[]> {
      const query = selectEvents().where('event.project_id', '=', projectId);
      return (limit ? query.limit(limit) : query).execute();
    },
    /** Events without a project plus those of the projects the user belongs to. */
    listForUser(userId: number, limit?: number): Promise<Event[]> {
      const query = selectEvents().where((eb) =>
        eb.or([
          eb('event.project_id', 'is', null),
          eb('event.project_id', 'in', eb.selectFrom('project_user').select('project_id').where('user_id', '=', userId)),
        ]),
      );
      return (limit ? query.limit(limit) : query).execute();
    },
  };
}

export type EventsRepository = ReturnType<typeof createEventsRepository>;
