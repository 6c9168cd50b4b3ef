import { Permission, alertsApi } from '@gantry/contract';
import type { Routes } from '../../http/route.ts';
import { projectMember } from '../../http/route.ts';
import type { AlertDispatcher } from './alert-dispatcher.ts';

export function registerAlertsRoutes(route: Routes, { alerts }: { alerts: AlertDispatcher }) {
  route(alertsApi.test, projectMember(Permission.manageProjectResources), ({ actor, access }) =>
    alerts.sendTest(access.project, actor.name || actor.username),
  );
}
