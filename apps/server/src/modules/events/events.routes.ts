import { eventsApi } from '@gantry/contract';
import type { Routes } from '../../http/route.ts';
import { SIGNED_IN, projectMember } from '../../http/route.ts';
import { LAST_EVENTS_LIMIT, type EventsService } from './events.service.ts';

export function registerEventsRoutes(route: Routes, { events }: { events: EventsService }) {
  const readerOf = (actor: { id: number; admin: number }) => ({ id: actor.id, admin: actor.admin === 1 });
  route(eventsApi.list, SIGNED_IN, ({ actor }) => events.listForUser(readerOf(actor)));
  route(eventsApi.last, SIGNED_IN, ({ actor }) => events.listForUser(readerOf(actor), LAST_EVENTS_LIMIT));
  route(eventsApi.projectList, projectMember(), ({ access }) => events.listForProject(access.project.id));
  route(eventsApi.projectLast, projectMember(), ({ access }) =>
    events.listForProject(access.project.id, LAST_EVENTS_LIMIT),
  );
}
