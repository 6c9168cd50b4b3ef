import { Permission, schedulesApi } from '@gantry/contract';
import { routeProjectResource } from '../../http/resource-routes.ts';
import type { Routes } from '../../http/route.ts';
import { projectMember } from '../../http/route.ts';
import type { SchedulesService } from './schedules.service.ts';

export function registerSchedulesRoutes(route: Routes, { schedules }: { schedules: SchedulesService }) {
  routeProjectResource(route, schedulesApi, 'scheduleId', schedules, ({ access }) => schedules.list(access.project.id));
  route(schedulesApi.validate, projectMember(), ({ body }) => schedules.validate(body.cron_format));
  route(schedulesApi.setActive, projectMember(Permission.manageProjectResources), ({ actor, access, params, body }) =>
    schedules.setActive(actor, access.project.id, params.scheduleId, body.active),
  );
  route(schedulesApi.ofTemplate, projectMember(), ({ access, params }) =>
    schedules.listCommitChecks(access.project.id, params.templateId),
  );
}
