import { Permission, schedulesApi } from '@gantry/contract';
import type { Routes } from '../../http/route.ts';
import { projectMember } from '../../http/route.ts';
import type { SchedulesService } from './schedules.service.ts';

export function registerSchedulesRoutes(route: Routes, { schedules }: { schedules: SchedulesService }) {
  const manage = projectMember(Permission.manageProjectResources);
  route(schedulesApi.list, projectMember(), ({ access }) => schedules.list(access.project.id));
  route(schedulesApi.create, manage, ({ actor, access, body }) => schedules.create(actor, access.project.id, body));
  route(schedulesApi.validate, projectMember(), ({ body }) => schedules.validate(body.cron_format));
  route(schedulesApi.get, projectMember(), ({ access, params }) => schedules.get(access.project.id, params.scheduleId));
  route(schedulesApi.update, manage, ({ actor, access, params, body }) =>
    schedules.update(actor, access.project.id, params.scheduleId, body),
  );
  route(schedulesApi.setActive, manage, ({ actor, access, params, body }) =>
    schedules.setActive(actor, access.project.id, params.scheduleId, body.active),
  );
  route(schedulesApi.remove, manage, ({ actor, access, params }) =>
    schedules.remove(actor, access.project.id, params.scheduleId),
  );
  route(schedulesApi.refs, projectMember(), ({ access, params }) =>
    schedules.refs(access.project.id, params.scheduleId),
  );
  route(schedulesApi.ofTemplate, projectMember(), ({ access, params }) =>
    schedules.listCommitChecks(access.project.id, params.templateId),
  );
}
