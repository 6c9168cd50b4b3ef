import type { Event } from '@gantry/contract';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import type { EventReader, EventsRepository } from './events.repository.ts';

export interface EventInput {
  userId: number | null;
  projectId?: number | null;
  objectType: string;
  objectId?: number | null;
  objectName?: string;
  description: string;
}

/** Newest-first lists of /events/last are capped like the peers' API. */
export const LAST_EVENTS_LIMIT = 200;

export function createEventsService({ events, clock }: { events: EventsRepository; clock: Clock }) {
  return {
    record(input: EventInput): Promise<void> {
      return events.insert({
        created: toTimestamp(clock.now()),
        user_id: input.userId,
        project_id: input.projectId ?? null,
        object_id: input.objectId ?? null,
        object_type: input.objectType,
        object_name: (input.objectName ?? '').slice(0, 255),
        description: input.description.slice(0, 1024),
      });
    },
    listForUser(reader: EventReader, limit?: number): Promise<Event[]> {
      return events.listForUser(reader, limit);
    },
    listForProject(projectId: number, limit?: number): Promise<Event[]> {
      return events.listForProject(projectId, limit);
    },
  };
}

export type EventsService = ReturnType<typeof createEventsService>;
