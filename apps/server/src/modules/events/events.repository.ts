import type { Event } from '@gantry/contract';
import type { ExpressionBuilder } from 'kysely';
import type { Database, Db } from '../../db/database.ts';
import type { EventRow } from './events.table.ts';

/** Who reads the events of their projects and of no project. */
export interface EventReader {
  id: number;
  admin: boolean;
}

/**
 * Events of no project that a user may read. They tell of accounts, global runners and deleted
 * projects: an administrator reads them all, anyone else only what they did or what was done to them.
 */
function projectlessFor(reader: EventReader) {
  return (eb: ExpressionBuilder<Database, 'event'>) => {
    const projectless = eb('event.project_id', 'is', null);
    if (reader.admin) return projectless;
    return eb.and([
      projectless,
      eb.or([
        eb('event.user_id', '=', reader.id),
        eb.and([eb('event.object_type', '=', 'user'), eb('event.object_id', '=', reader.id)]),
      ]),
    ]);
  };
}

export function createEventsRepository(db: Db) {
  function selectEvents() {
    return (
      db
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
        .select((eb) =>
          eb
            .case()
            .when('event.object_type', '=', 'integration')
            .then(eb.ref('event.object_id'))
            .else(null)
            .end()
            .as('integration_id'),
        )
        .orderBy('event.id', 'desc')
    );
  }

  return {
    async insert(row: Omit<EventRow, 'id'>): Promise<void> {
      await db.insertInto('event').values(row).execute();
    },
    listForProject(projectId: number, limit?: number): Promise<Event[]> {
      const query = selectEvents().where('event.project_id', '=', projectId);
      return (limit ? query.limit(limit) : query).execute();
    },
    /** Events of no project the reader may read (projectlessFor) plus those of the projects the reader belongs to. */
    async listForUser(reader: EventReader, limit?: number): Promise<Event[]> {
      const memberships = db.selectFrom('project_user').select('project_id').where('user_id', '=', reader.id);
      if (!limit)
        return selectEvents()
          .where((eb) => eb.or([projectlessFor(reader)(eb), eb('event.project_id', 'in', memberships)]))
          .execute();
      // The newest of each source by its own (project_id, id) index, merged here: one query with OR
      // walks every event from the newest down until it has found enough.
      const projectIds = (await memberships.execute()).map((row) => row.project_id);
      const pages = await Promise.all([
        selectEvents().where(projectlessFor(reader)).limit(limit).execute(),
        ...projectIds.map((projectId) =>
          selectEvents().where('event.project_id', '=', projectId).limit(limit).execute(),
        ),
      ]);
      return pages
        .flat()
        .sort((a, b) => b.id - a.id)
        .slice(0, limit);
    },
  };
}

export type EventsRepository = ReturnType<typeof createEventsRepository>;
